"""Do static word vectors pay as signals of the detector?

    python benchmarks/static_embeddings.py signals devdata/scored/{lfqa,...}.jsonl \
        --held-out devdata/scored/faithdial_wow.jsonl

The vectors are the scorers' own (:mod:`evaltools.scoring.word_vectors`: wordllama's,
shipped inside its wheel); a text's vector is the mean of its tokens' vectors, scaled to
length 1. ``signals`` computes six signals of a response from them (:func:`signals`) and
measures, leaving one development set out, the shipped probability's features with each
signal added (the figure ``docs/validity.md`` reports for every feature choice). None is
used by the model ("Twelfth round"). As paraphrases the vectors are used by the matcher
(config ``grounding.paraphrase_cosine``, "Thirteenth round"): the other benchmarks measure
that with their ``--config``.
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
#: A novel word with no context word at least this close is "unmatched" (``sem_unmatched``).
UNMATCHED_BELOW = 0.5
#: A response sentence whose closest context sentence is under this is "far".
FAR_BELOW = 0.6

SIGNAL_NAMES = ("sem_sentence_min", "sem_sentence_mean", "sem_far_share", "sem_whole",
                "sem_unmatched", "sem_novel_closeness")


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


def main(argv: list[str] | None = None) -> int:
    from evaltools.scoring.word_vectors import text_vectors

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sg = sub.add_parser("signals", help="LODO AUROC with each embedding signal added")
    sg.add_argument("files", nargs="+", type=Path, help="scored development files")
    sg.add_argument("--held-out", nargs="*", type=Path, default=[])
    args = ap.parse_args(argv)
    run_signals(args.files, args.held_out, text_vectors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
