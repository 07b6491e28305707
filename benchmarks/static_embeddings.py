"""Do static word embeddings that ship inside a wheel pay, as signals or as paraphrases?

    pip install 'wordllama==0.4.0.post1'      # or: pip install -e '.[embeddings]'
    python benchmarks/static_embeddings.py signals devdata/scored/{lfqa,...}.jsonl \
        --held-out devdata/scored/faithdial_wow.jsonl
    python benchmarks/static_embeddings.py claims_quality --tau 0.5 devdata/{xsumfaith,...}.jsonl

``wordllama`` ships 256-dimensional token embeddings (MIT) and its tokenizer inside its
wheel. ``WordLlama.load()`` looks for the tokenizer in a folder the wheel does not have
(``tokenizer/`` against the wheel's ``tokenizers/``) and then downloads it, which cannot
work offline; :func:`load_wordllama` reads the two files the wheel ships with the
libraries wordllama itself uses (``safetensors``, ``tokenizers``), so nothing is fetched.
A text's vector is the mean of its tokens' vectors, scaled to length 1.

``signals`` computes six signals of a response from those vectors (:func:`signals`) and
measures, leaving one development set out, the shipped probability's features with each
signal added (the figure ``docs/validity.md`` reports for every feature choice).

``claims_quality``, ``validity`` and ``verdict_rates`` run those scripts of
``benchmarks/`` (their own arguments follow) with the matcher's paraphrase lookup
widened: a context word whose vector is within cosine ``--tau`` of a response word (both
common words of three letters or more, not a name, not a number, not one of the word's
antonyms) counts as its paraphrase, for claims and for grounding alike.

Nothing here is shipped: ``docs/validity.md`` ("Twelfth round") says what was measured
and why neither is used.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.calibration.baselines import words  # noqa: E402

Embed = Callable[[Sequence[str]], np.ndarray]

#: Sentences: split after . ! ? and at line breaks; a piece needs two words.
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: Words the paraphrase lookup reads: lower-case keys of letters only, three or more.
_LOOKUP_WORD = re.compile(r"^[a-z]{3,}$")
#: A novel word with no context word at least this close is "unmatched" (``sem_unmatched``).
UNMATCHED_BELOW = 0.5
#: A response sentence whose closest context sentence is under this is "far".
FAR_BELOW = 0.6

SIGNAL_NAMES = ("sem_sentence_min", "sem_sentence_mean", "sem_far_share", "sem_whole",
                "sem_unmatched", "sem_novel_closeness")


def load_wordllama() -> Embed:
    """The embedding function of the vectors and tokenizer in wordllama's wheel."""
    try:
        import wordllama
        from safetensors import safe_open
        from tokenizers import Tokenizer
    except ImportError:
        raise SystemExit("static_embeddings: pip install 'wordllama==0.4.0.post1' "
                         "(or pip install -e '.[embeddings]')") from None
    home = Path(wordllama.__file__).parent
    with safe_open(str(home / "weights" / "l2_supercat_256.safetensors"), framework="np") as f:
        table = f.get_tensor("embedding.weight").astype(np.float32)
    tok = Tokenizer.from_file(str(home / "tokenizers" / "l2_supercat_tokenizer_config.json"))
    tok.no_padding()
    tok.no_truncation()

    def embed(texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), table.shape[1]), np.float32)
        for i, enc in enumerate(tok.encode_batch(list(texts), add_special_tokens=False)):
            if enc.ids:
                out[i] = table[enc.ids].mean(axis=0)
        return unit_rows(out)

    return embed


def unit_rows(m: np.ndarray) -> np.ndarray:
    """``m`` with each non-zero row scaled to length 1.

    >>> unit_rows(np.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
    [[0.6, 0.8], [0.0, 0.0]]
    """
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1.0, norms)


def sentences(text: str) -> list[str]:
    """The pieces of ``text`` with two words or more (the whole text when none has).

    >>> sentences("It rained. Then it stopped!\\nOk")
    ['It rained.', 'Then it stopped!']
    >>> sentences("Ok")
    ['Ok']
    """
    parts = [s.strip() for s in _SENTENCE.split(text)]
    return [s for s in parts if len(words(s)) >= 2] or [text]


def signals(context: str, response: str, embed: Embed,
            stop_words: frozenset[str] = ENGLISH_STOP_WORDS) -> dict[str, float]:
    """The six static-embedding signals of one response (:data:`SIGNAL_NAMES`).

    - ``sem_sentence_min`` / ``sem_sentence_mean``: over response sentences, the cosine
      of the closest context sentence, least and mean;
    - ``sem_far_share``: share of response sentences whose closest is under
      :data:`FAR_BELOW`;
    - ``sem_whole``: cosine of the whole response and the whole context;
    - ``sem_unmatched``: response content words absent from the context whose closest
      context content word is under :data:`UNMATCHED_BELOW`, over all response content
      words (the words and stop words of the word-overlap baselines,
      :mod:`evaltools.calibration.baselines`);
    - ``sem_novel_closeness``: mean cosine of the absent words' closest context word (1
      when no word is absent).
    """
    ctx_s, resp_s = sentences(context), sentences(response)
    ce, re_ = embed(ctx_s), embed(resp_s)
    best = (re_ @ ce.T).max(axis=1)
    ctx_words = set(words(context))
    resp_words = [w for w in words(response) if w not in stop_words]
    novel = [w for w in resp_words if w not in ctx_words]
    ctx_content = sorted(w for w in ctx_words if w not in stop_words)
    unmatched, closeness = 0.0, 1.0
    if novel and ctx_content:
        closest = (embed(novel) @ embed(ctx_content).T).max(axis=1)
        unmatched = float((closest < UNMATCHED_BELOW).sum()) / len(resp_words)
        closeness = float(closest.mean())
    whole = float((embed([response]) @ embed([context]).T)[0, 0])
    return {"sem_sentence_min": float(best.min()), "sem_sentence_mean": float(best.mean()),
            "sem_far_share": float((best < FAR_BELOW).mean()), "sem_whole": whole,
            "sem_unmatched": unmatched, "sem_novel_closeness": closeness}


def neighbours(keys: Sequence[str], word: str, embed: Embed, tau: float,
               antonyms: Sequence[str] = ()) -> list[str]:
    """The ``keys`` within cosine ``tau`` of ``word``, but ``word`` and its ``antonyms``.

    >>> vec = {"buy": [1.0, 0.0], "purchase": [0.8, 0.6], "sell": [0.9, 0.1], "cat": [0, 1]}
    >>> embed = lambda ws: unit_rows(np.array([vec[w] for w in ws], float))
    >>> neighbours(["purchase", "sell", "cat", "buy"], "buy", embed, 0.7, antonyms=["sell"])
    ['purchase']
    """
    away = {word, *antonyms}
    cand = [k for k in keys if k not in away]
    if not cand:
        return []
    sims = embed(cand) @ embed([word])[0]
    return [k for k, s in zip(cand, sims, strict=True) if s >= tau]


def _frame(paths: Sequence[Path], embed: Embed):
    import pandas as pd

    rows = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            rows.append({"dataset": path.stem, "label": int(r["label"]), **r["signals"],
                         **signals(r["context"], r["response"], embed)})
    return pd.DataFrame(rows)


def run_signals(paths: Sequence[Path], held_out: Sequence[Path], embed: Embed) -> None:
    """Print LODO AUROC of the shipped features, and with each signal added."""
    from sklearn.metrics import roc_auc_score

    from evaltools.calibration.lodo import fit_predict, lodo_aurocs
    from evaltools.scoring.probability import DEFAULT_FEATURES

    dev, out = _frame(paths, embed), _frame(held_out, embed) if held_out else None
    sets = sorted(dev["dataset"].unique())
    print("features | " + " | ".join(sets) + " | mean | min"
          + (" | " + ", ".join(p.stem for p in held_out) + " (held out)" if held_out else ""))
    for extra in ((), *((n,) for n in SIGNAL_NAMES)):
        feats = [*DEFAULT_FEATURES, *extra]
        res = lodo_aurocs(dev, feats)
        cells = [f"{res[s]:.3f}" for s in sets]
        line = (f"{'shipped' if not extra else '+ ' + extra[0]} | " + " | ".join(cells)
                + f" | {np.mean(list(res.values())):.3f} | {min(res.values()):.3f}")
        if out is not None:
            line += f" | {roc_auc_score(out['label'], fit_predict(dev, out, feats)):.3f}"
        print(line)


def widen_paraphrases(tau: float, embed: Embed) -> None:
    """Make the matcher count a context word within cosine ``tau`` of a response word as its
    paraphrase (common words of three letters or more; no name, number or antonym)."""
    from evaltools.scoring import matcher
    from evaltools.scoring.anchors.claims import ANTONYMS

    plain = matcher.SentenceIndex.paraphrase_positions
    vocab: dict[int, tuple[object, list[str]]] = {}
    vectors: dict[str, np.ndarray] = {}

    def cached(words: Sequence[str]) -> np.ndarray:  # each word is tokenised once
        new = [w for w in dict.fromkeys(words) if w not in vectors]
        if new:
            vectors.update(zip(new, embed(new), strict=True))
        return np.stack([vectors[w] for w in words])

    def widened(index, word):
        found = plain(index, word)
        if (word.num or word.pos == "PROPN" or not word.content
                or not _LOOKUP_WORD.match(word.key)):
            return found
        own = vocab.get(id(index))
        if own is None or own[0] is not index:
            own = vocab[id(index)] = (index, [k for k in index._at if _LOOKUP_WORD.match(k)])
        near = neighbours(own[1], word.key, cached, tau, ANTONYMS.get(word.key, ()))
        return tuple(sorted({*found, *(j for k in near for j in index.positions(k))}))

    matcher.SentenceIndex.paraphrase_positions = widened


def run_script(stem: str, argv: Sequence[str], tau: float, embed: Embed) -> int:
    """``benchmarks/<stem>.py`` with context words within ``tau`` counted as paraphrases."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import importlib

    widen_paraphrases(tau, embed)
    return importlib.import_module(stem).main(list(argv))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sg = sub.add_parser("signals", help="LODO AUROC with each embedding signal added")
    sg.add_argument("files", nargs="+", type=Path, help="scored development files")
    sg.add_argument("--held-out", nargs="*", type=Path, default=[])
    for stem in ("claims_quality", "validity", "verdict_rates"):
        sp = sub.add_parser(stem, help=f"{stem}.py with embedding paraphrases")
        sp.add_argument("--tau", type=float, default=0.5)
    args, rest = ap.parse_known_args(argv)
    embed = load_wordllama()
    if args.what == "signals":
        run_signals(args.files, args.held_out, embed)
        return 0
    return run_script(args.what, rest, args.tau, embed)


if __name__ == "__main__":
    sys.exit(main())
