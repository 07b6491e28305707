"""The one palette: every colour evaltools draws or writes, by what it means.

HTML (highlighting, widgets, the report's CSS and index page) and figures
(:mod:`evaltools.plots`) read their colours here; no other module writes a
hex colour (a test greps for one). ``BAD`` is the one red: a FAIL verdict, an
unsupported anchor, an error message.

>>> VERDICT_COLOURS["FAIL"] == BAD
True
>>> css_variables()[:40]
'--ev-text: #1f2328; --ev-muted: #555555;'
"""

from __future__ import annotations

#: Text, quieter text, rules and light backgrounds.
TEXT = "#1f2328"
MUTED = "#555555"
RULE = "#d1d9e0"
SURFACE = "#f6f8fa"
WHITE = "#ffffff"
LINK = "#0969da"

#: What a verdict or a mark means.
GOOD = "#2e7d32"
CAUTION = "#ed6c02"
BAD = "#c62828"
GREY = "#757575"
#: Text on a light caution background; light backgrounds of good, caution, bad marks.
CAUTION_TEXT = "#9a6700"
GOOD_BG = "#edf7ed"
CAUTION_BG = "#fff4e5"
SUPPORTED_BG = "#d4edda"
UNSUPPORTED_BG = "#f8d7da"
EVIDENCE_BG = "#fff3cd"
EVIDENCE_LINE = "#e0a800"

#: Figures: the one data series colour, its contrast (a second series, label 1).
SERIES = "#2c7fb8"
CONTRAST = "#d95f0e"

#: The verdict palette (HTML, widgets, plots, the report's CSS and figures); ERROR is an
#: invalid record. Dark enough for white text on a badge.
VERDICT_COLOURS = {"PASS": GOOD, "WARN": CAUTION, "FAIL": BAD, "ERROR": GREY}
#: A human 0/1 label's colour in figures (None: no label).
LABEL_COLOURS = {0: SERIES, 1: CONTRAST, None: GREY}

_NAMES = ("TEXT", "MUTED", "RULE", "SURFACE", "WHITE", "LINK", "GOOD", "CAUTION", "BAD",
          "GREY", "CAUTION_TEXT", "GOOD_BG", "CAUTION_BG", "SUPPORTED_BG", "UNSUPPORTED_BG",
          "EVIDENCE_BG", "EVIDENCE_LINE", "SERIES", "CONTRAST")


def css_variables() -> str:
    """Every colour as a CSS custom property (``--ev-bad: #c62828; ...``), for a stylesheet."""
    return " ".join(f"--ev-{name.lower().replace('_', '-')}: {globals()[name]};"
                    for name in _NAMES)
