"""``reports/index.html``: one page linking everything a run wrote.

The report, the exported notebook pages and the module audits, each a
relative link, with the generation time (UTC), the evaltools version and the
sha256 of every input file, so a reader can tell which data a folder of
pages was built from. Self-contained like the report: no script, no request.

Usage (``scripts/demo.sh`` runs it last)::

    python -m evaltools.report.index reports data/responses.jsonl data/judgments.jsonl

Examples
--------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "report.html").write_text("<html></html>")
>>> page = write_index(d, inputs=[]).read_text()
>>> 'href="./report.html"' in page and "evaltools" in page
True
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import os
import sys
import urllib.parse
from pathlib import Path

from markupsafe import Markup

from evaltools import __version__, palette
from evaltools.errors import EvaltoolsError, one_line
from evaltools.io import refuse_overwriting_input
from evaltools.report.html import environment, write_text_atomic
from evaltools.text import displayable

#: No script, no request, no form, no <base>: the page only links.
CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

#: The groups of pages, in order: (title, glob relative to the reports folder).
GROUPS = (("Report", "report.html"), ("Comparisons", "*diff*.html"),
          ("Notebooks", "notebooks/*.html"), ("Module audits", "audits/*.html"))


def sha256(path: str | Path) -> str:
    """The file's SHA-256, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def page_href(relative: str) -> str:
    """A relative link to a page, whatever its file name holds.

    Percent-encoded and starting with ``./``, so a name with a colon
    (``javascript:x.html``) or ``#`` is still a file beside the index, never
    a scheme or a fragment.

    >>> page_href("javascript:alert(1)diff.html")
    './javascript%3Aalert%281%29diff.html'
    """
    # the name's own bytes (a name that is not UTF-8 is surrogate-escaped): the link opens it
    return "./" + urllib.parse.quote(os.fsencode(relative), safe="/")


def render_index(folder: str | Path, *, inputs=(), now: _dt.datetime | None = None) -> str:
    """The index page's HTML for the pages under ``folder`` and the ``inputs`` files.

    Rendered from ``templates/index.html.j2`` with the report's Jinja2
    environment: every name, path and link is escaped there.
    """
    folder = Path(folder)
    now = now or _dt.datetime.now(_dt.UTC)
    groups = []
    for title, pattern in GROUPS:
        pages = sorted(p for p in folder.glob(pattern) if p.name != "index.html")
        if pages:
            groups.append((title, [(page_href(p.relative_to(folder).as_posix()),
                                    displayable(p.stem.replace("_", " "))) for p in pages]))
    rows = [(displayable(str(p)), Path(p).stat().st_size, sha256(p)) for p in inputs]
    return environment().get_template("index.html.j2").render(
        csp=Markup(CSP), palette=palette, now_iso=now.isoformat(),
        when=now.strftime("%Y-%m-%d %H:%M:%S UTC"), version=__version__, groups=groups,
        inputs=rows)


def write_index(folder: str | Path, *, inputs=()) -> Path:
    """Write ``folder/index.html`` (atomically) and return its path."""
    return write_text_atomic(render_index(folder, inputs=inputs), Path(folder) / "index.html")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evaltools.report.index",
                                 description="Write FOLDER/index.html linking its pages.")
    ap.add_argument("folder", type=Path, help="the reports folder (e.g. reports)")
    ap.add_argument("inputs", nargs="*", type=Path, help="input files whose sha256 to list")
    args = ap.parse_args(argv)
    missing = [p for p in args.inputs if not p.is_file()]
    if missing:
        print(f"evaltools index: error: {missing[0]}: file not found", file=sys.stderr)
        return 2
    try:
        refuse_overwriting_input(args.folder / "index.html", args.inputs)
        path = write_index(args.folder, inputs=args.inputs)
    except EvaltoolsError as exc:  # an input that is the index, a folder that cannot be written
        print(f"evaltools index: error: {one_line(exc)}", file=sys.stderr)
        return 2
    print(f"evaltools index: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
