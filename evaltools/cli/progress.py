"""The progress bar every long-running subcommand shows on stderr (tqdm).

It shows only when stderr is a terminal, so logs and pipes stay clean, and
``--no-progress`` turns it off everywhere.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(iterable: Iterable[T], desc: str, *, disabled: bool = False) -> Iterator[T]:
    """``iterable`` with a records-per-second bar named ``desc`` on stderr.

    Examples
    --------
    >>> list(progress([1, 2], "scoring", disabled=True))
    [1, 2]
    """
    from tqdm import tqdm

    return iter(tqdm(iterable, desc=desc, unit=" rec", file=sys.stderr,
                     disable=True if disabled else None, mininterval=0.5))
