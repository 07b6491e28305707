"""The progress bar every long-running subcommand shows on stderr (tqdm).

It shows only when stderr is a terminal, so logs and pipes stay clean, and
``--no-progress`` turns it off everywhere. Given the number of records
(:func:`evaltools.io.count_records` counts them cheaply before the run), the
bar shows the total, the percentage and the time left. Records are scored in
chunks, so the count moves in steps; a timer redraws the bar every
``REFRESH`` seconds in between, so the elapsed time and the rate never freeze.
"""

from __future__ import annotations

import shutil
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

REFRESH = 0.5  # seconds between redraws while a chunk is being scored


def progress(iterable: Iterable[T], desc: str, *, total: int | None = None,
             disabled: bool = False, status: Callable[[], str] | None = None) -> Iterator[T]:
    """``iterable`` with a records-per-second bar named ``desc`` on stderr.

    Parameters
    ----------
    iterable : iterable
        The records (or results), consumed lazily.
    desc : str
        The bar's label, e.g. ``"scoring"``.
    total : int, optional
        How many items ``iterable`` yields, for the percentage and the ETA.
    disabled : bool
        No bar at all (``--no-progress``).
    status : callable, optional
        Text shown after the bar, read at each item (``evaltools judge --llm``:
        the counts of answers cached, asked and failed).

    Examples
    --------
    >>> list(progress([1, 2], "scoring", total=2, disabled=True))
    [1, 2]
    """
    from tqdm import tqdm

    # A terminal that reports no size (some pseudo-terminals) would get an empty bar.
    size = shutil.get_terminal_size((100, 24))
    bar = tqdm(iterable, desc=desc, total=total, unit=" rec", file=sys.stderr,
               disable=True if disabled else None, mininterval=0.2, smoothing=0.1,
               ncols=min(size.columns, 120), nrows=max(size.lines, 2))
    if bar.disable:
        yield from bar
        return
    stop = threading.Event()

    def redraw() -> None:
        while not stop.wait(REFRESH):
            bar.refresh()

    timer = threading.Thread(target=redraw, name="evaltools-progress", daemon=True)
    timer.start()
    try:
        if status is None:
            yield from bar
        else:
            for item in bar:
                bar.set_postfix_str(status(), refresh=False)
                yield item
    finally:
        stop.set()
        timer.join()
        bar.close()


def progress_bar(total: int, desc: str, *, disabled: bool = False):
    """A bar over ``total`` records, advanced by ``bar.update(n)`` (runs that finish in parts).

    Examples
    --------
    >>> with progress_bar(10, "scoring", disabled=True) as bar:
    ...     bar.update(10)
    """
    from tqdm import tqdm

    size = shutil.get_terminal_size((100, 24))
    return tqdm(total=total, desc=desc, unit=" rec", file=sys.stderr,
                disable=True if disabled else None, mininterval=0.2, smoothing=0.1,
                ncols=min(size.columns, 120), nrows=max(size.lines, 2))
