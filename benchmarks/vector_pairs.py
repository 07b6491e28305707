"""Which pairs of words did the static vectors match as paraphrases?

    PYTHONPATH=$PWD .venv/bin/python benchmarks/vector_pairs.py FILE... [--top 100]
        [--config TOML]

Scores each labelled file (``evaltools.score`` through
:func:`evaltools.scoring.restore.score_labelled`, the configuration's
``grounding.paraphrase_cosine``) and counts, over every lookup the matcher makes, the
pairs (response word, context word) found **only** by the vectors (not by WordNet's
table), with the pair's cosine. Reading them is how ``docs/validity.md`` ("Thirteenth
round") found the kinds of related words the rules keep apart (a record's key for its
value, a shared token, opposites, two of one kind). Nothing is fitted.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402
from evaltools.scoring import matcher, word_vectors  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402


def count_pairs(paths, config) -> collections.Counter:
    """(response key, context key) -> how many lookups found the pair by the vectors only."""
    pairs: collections.Counter = collections.Counter()
    plain = matcher.SentenceIndex.paraphrase_positions

    def counted(index, word, cosine=0.0):
        out = plain(index, word, cosine)
        if cosine > 0 and out:
            table = set(index._table_positions("paraphrase", matcher.paraphrases(), word))
            for key in {index._keys[j] for j in out if j not in table} - set(word.forms):
                pairs[(word.key, key)] += 1  # (claims look paraphrases up for found words too)
        return out

    matcher.SentenceIndex.paraphrase_positions = counted
    try:
        for path in paths:
            score_labelled(read_labelled(path), config=config)
    finally:
        matcher.SentenceIndex.paraphrase_positions = plain
    return pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--top", type=int, default=100)
    ap.add_argument("--config", type=Path)
    args = ap.parse_args(argv)
    config = load_config(args.config)
    pairs = count_pairs(args.files, config)
    print(f"{len(pairs)} distinct pairs (grounding.paraphrase_cosine = "
          f"{config.grounding.paraphrase_cosine:g})")
    print("count | response word | context word | cosine")
    for (a, b), n in pairs.most_common(args.top):
        cos = float(word_vectors.vector(a) @ word_vectors.vector(b))
        print(f"{n} | {a} | {b} | {cos:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
