"""Pass rate of the number and date matching table, per format group.

    PYTHONPATH=CHECKOUT python benchmarks/anchor_formats.py

Reads the table ``SUPPORT_GROUPS`` of ``tests/test_numbers_dates.py`` (claim,
context, supported?) beside this script and checks every row with the
``evaltools`` found on the path: a row passes when the claim has exactly one
number or date anchor and ``find_support`` finds support in the context
exactly when the table says so. Run it with ``PYTHONPATH`` set to an older
checkout to see that checkout's rate on the same table (before/after).
Prints, per group, the rows passed, and separately the supported and the
unsupported rows passed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from evaltools.scoring.anchors.mentions import find_mentions, find_support

TABLE = Path(__file__).resolve().parents[1] / "tests" / "test_numbers_dates.py"


def load_groups(path: Path = TABLE) -> dict[str, list[tuple[str, str, bool]]]:
    spec = importlib.util.spec_from_file_location("_anchor_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SUPPORT_GROUPS


def passes(claimed: str, context: str, expected: bool) -> bool:
    mentions = find_mentions(claimed)
    if len(mentions) != 1:
        return False
    return (find_support(mentions[0], find_mentions(context)) is not None) is expected


def main() -> int:
    groups = load_groups()
    print(f"{'format group':<58} {'pass':>9} {'supported':>10} {'unsupported':>12}")
    total = ok = 0
    for name, cases in groups.items():
        results = [(expected, passes(c, x, expected)) for c, x, expected in cases]
        pos = [r for e, r in results if e]
        neg = [r for e, r in results if not e]
        good = sum(r for _, r in results)
        total += len(results)
        ok += good
        print(f"{name:<58} {good:>3}/{len(results):<3} {100 * good / len(results):3.0f}%"
              f" {sum(pos):>4}/{len(pos):<5} {sum(neg):>5}/{len(neg):<5}")
    print(f"{'all':<58} {ok:>3}/{total:<3} {100 * ok / total:3.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
