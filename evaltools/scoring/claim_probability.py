"""How likely each unsupported anchor is to be a hallucination, not a paraphrase.

The hallucination scorer calls an anchor (a claim, number or date) unsupported when
the context does not hold it as the matcher reads it. In faithful text many such
anchors are paraphrases, inferences or a current model's own framing ("the
picture is more nuanced"); in a response with one invented or changed fact, one
of them is that fact. Counting them cannot tell the two apart: a long faithful
answer has as many as a short one with an edit. This module rates each one.

The model is gradient-boosted trees (scikit-learn's
``HistGradientBoostingClassifier``) over :data:`CLAIM_FEATURES`, fitted by
``benchmarks/claim_model.py`` on the written probe's twins: an anchor unsupported in
a hallucinated twin and not in its faithful original is the edit's (label 1), every
unsupported anchor of a faithful original a false alarm (label 0). It ships as
``claim_model.json`` beside this file: every tree's nodes as plain numbers, read and
checked here and evaluated with NumPy (never a pickle; the file can be reviewed and
diffed). Each rated anchor carries its ``probability`` in the output; the response's
highest is the signal ``claim_probability_max`` (:mod:`evaltools.scoring.signals`) that
the record probability reads.

Examples
--------
>>> model = load_claim_model()
>>> model.feature_names == tuple(CLAIM_FEATURES)
True
>>> from evaltools.scoring.result import Anchor
>>> a = Anchor("number", "$7", 14, 16, False, note="no matching number in the context")
>>> f = claim_features(a, "The mug costs $7.", context_words=word_set("The mug costs $5."))
>>> f["kind_number"], f["novel_digit"], f["log_novel"] == math.log1p(1)
(1.0, 1.0, True)
>>> 0.0 < model.probabilities([f])[0] < 1.0
True
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from typing import Any

from evaltools.errors import InputError, shorten
from evaltools.scoring.matcher import zipf
from evaltools.scoring.result import Anchor, UnsupportedSpan

#: Feature name -> what it measures, for one unsupported anchor of a response.
CLAIM_FEATURES: dict[str, str] = {
    "kind_claim": "1 for a claim anchor",
    "kind_number": "1 for a number anchor",
    "kind_date": "1 for a date anchor",
    "negation": "1 when the context has the claim with the other polarity",
    "opposite": "1 when the context says the opposite word (earlier / later)",
    "record": "1 when a record's own value denies or lacks it (record_no, record_yes, "
              "record_hours, record_absent)",
    "roles": "1 when the context has someone else do it",
    "generalised": "1 when it generalises past what the context says",
    "no_evidence": "1 when no context sentence was found near it",
    "log_novel": "log of 1 + its words that neither the context nor the query has",
    "novel_share": "those words / its words",
    "novel_zipf_min": "the lowest Zipf frequency (wordfreq, English) of those words / 8 "
                      "(1 when there are none)",
    "novel_capital": "1 when one of those words is capitalised",
    "novel_digit": "1 when one of those words holds a digit",
    "log_absent": "log of 1 + its names that neither the context nor the query mentions "
                  "(Anchor.absent)",
    "log_terms": "log of 1 + its uncommon nouns that neither uses (Anchor.terms)",
    "log_words": "log of 1 + its words",
    "span_probability": "the highest span-model probability of an unsupported span "
                        "overlapping it (0: none)",
    "in_span": "1 when an unsupported span overlaps it",
    "position": "where it starts in the response (0 start, 1 end)",
    "structured": "1 when the context was read as a JSON record",
    "instruction": "1 when the query is an instruction (summarise, describe...)",
}

_WORD = re.compile(r"[^\W_](?:[\w'\u2019-]*[^\W_])?")
_CONTRADICTION_FEATURE = {"negation": "negation", "opposite": "opposite", "roles": "roles",
                          "generalised": "generalised", "record_no": "record",
                          "record_yes": "record", "record_hours": "record",
                          "record_absent": "record"}

FORMAT = "evaltools-claim-model"
MODEL_FILE = "claim_model.json"


def word_set(*texts: str) -> frozenset[str]:
    """The case-folded words of ``texts`` (what :func:`claim_features` calls novel against).

    >>> sorted(word_set("Ann's 2-day trip", "ANN"))
    ['2-day', 'ann', "ann's", 'trip']
    """
    return frozenset(w.casefold() for t in texts for w in _WORD.findall(t))


def claim_features(anchor: Anchor, response: str, *, context_words: frozenset[str],
                   spans: Sequence[UnsupportedSpan] = (), structured: bool = False,
                   instruction: bool = False) -> dict[str, float]:
    """The :data:`CLAIM_FEATURES` of one unsupported ``anchor`` of ``response``.

    ``context_words`` is :func:`word_set` of the context and the query; ``spans`` the
    grounding's unsupported spans (their ``probability`` from the span model).

    Examples
    --------
    >>> a = Anchor("claim", "Ann founded Acme in Oslo", 0, 24, False, absent=("Oslo",))
    >>> f = claim_features(a, "Ann founded Acme in Oslo.", context_words=word_set(
    ...     "Ann founded Acme.", "Who founded Acme?"))
    >>> f["log_novel"] == math.log1p(2), f["novel_share"], f["novel_capital"]
    (True, 0.4, 1.0)
    >>> f["log_absent"] == math.log1p(1), f["position"]
    (True, 0.0)
    """
    words = _WORD.findall(anchor.text)
    novel = [w for w in words if w.casefold() not in context_words]
    overlapping = [s.probability or 0.0 for s in spans
                   if s.start < anchor.end and s.end > anchor.start]
    which = _CONTRADICTION_FEATURE.get(anchor.contradiction or "")
    f = {
        "kind_claim": anchor.kind == "claim",
        "kind_number": anchor.kind == "number",
        "kind_date": anchor.kind == "date",
        **{name: which == name for name in ("negation", "opposite", "record", "roles",
                                            "generalised")},
        "no_evidence": anchor.evidence is None,
        "log_novel": math.log1p(len(novel)),
        "novel_share": len(novel) / len(words) if words else 0.0,
        "novel_zipf_min": min((zipf(w.casefold()) for w in novel),
                              default=8.0) / 8.0,
        "novel_capital": any(w[:1].isupper() for w in novel),
        "novel_digit": any(c.isdigit() for w in novel for c in w),
        "log_absent": math.log1p(len(anchor.absent)),
        "log_terms": math.log1p(len(anchor.terms)),
        "log_words": math.log1p(len(anchor.text.split())),
        "span_probability": max(overlapping, default=0.0),
        "in_span": bool(overlapping),
        "position": anchor.start / len(response) if response else 0.0,
        "structured": structured,
        "instruction": instruction,
    }
    return {name: float(f[name]) for name in CLAIM_FEATURES}


def rated(anchors: Iterable[Anchor]) -> list[Anchor]:
    """The anchors the model rates: counted and unsupported."""
    return [a for a in anchors if a.counted and not a.supported]


def rated_features(anchors: Iterable[Anchor], response: str, *, context: str, query: str,
                   spans: Sequence[UnsupportedSpan] = (), structured: bool = False,
                   instruction: bool = False) -> tuple[list[Anchor], list[dict[str, float]]]:
    """The anchors the model rates (:func:`rated`) and their :func:`claim_features`; the
    texts as scoring parses them (:func:`~evaltools.scoring.context.parsed_text`: ``context``
    and ``query`` give the words :func:`claim_features` calls novel against). Scoring and
    fitting (``benchmarks/claim_model.py``, from a scored output) both read them here.
    """
    mine = rated(anchors)
    if not mine:
        return [], []
    words = word_set(context, query)
    return mine, [claim_features(a, response, context_words=words, spans=spans,
                                 structured=structured, instruction=instruction)
                  for a in mine]


def rate_anchors(anchors: Sequence[Anchor], response: str, *, context: str, query: str,
                 spans: Sequence[UnsupportedSpan] = (), structured: bool = False,
                 instruction: bool = False, threshold: float,
                 model: ClaimModel | None = None) -> tuple[Anchor, ...]:
    """``anchors`` with the claim model's ``probability`` on each one it rates
    (:func:`rated_features`), and ``hallucinated`` when that reaches ``threshold`` (the
    config's ``hallucination.claim_threshold``).

    >>> a = Anchor("number", "$7", 14, 16, False)
    >>> b = Anchor("claim", "The mug costs", 0, 13, True)
    >>> x, y = rate_anchors([a, b], "The mug costs $7.", context="The mug costs $5.",
    ...                     query="How much?", threshold=0.15)
    >>> 0.15 <= x.probability < 1.0, x.hallucinated, y.probability, y.hallucinated
    (True, True, None, None)
    """
    mine, rows = rated_features(anchors, response, context=context, query=query, spans=spans,
                                structured=structured, instruction=instruction)
    if not mine:
        return tuple(anchors)
    probs = dict(zip(map(id, mine), (model or load_claim_model()).probabilities(rows),
                     strict=True))
    return tuple(replace(a, probability=probs[id(a)], hallucinated=probs[id(a)] >= threshold)
                 if id(a) in probs else a for a in anchors)


@dataclass(frozen=True)
class ClaimModel:
    """Gradient-boosted trees giving ``P(an unsupported anchor is a hallucination)``.

    The trees' nodes are flat tuples (every tree's nodes one after another; ``roots``
    the index of each tree's first node). A node that is no leaf sends a row whose
    feature ``feature[i]`` is at most ``threshold[i]`` to ``left[i]``, else to
    ``right[i]``; the log-odds are ``baseline`` plus the ``value`` of the leaf each
    tree reaches, as scikit-learn's ``HistGradientBoostingClassifier`` computes them.
    """

    names: tuple[str, ...]
    baseline: float
    roots: tuple[int, ...]
    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    value: tuple[float, ...]
    leaf: tuple[bool, ...]
    metadata: Mapping[str, Any]
    _arrays: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        import numpy as np

        object.__setattr__(self, "_arrays", (
            np.asarray(self.feature, dtype=np.intp), np.asarray(self.threshold, dtype=float),
            np.asarray(self.left, dtype=np.intp), np.asarray(self.right, dtype=np.intp),
            np.asarray(self.value, dtype=float), np.asarray(self.leaf, dtype=bool)))

    @property
    def feature_names(self) -> tuple[str, ...]:
        return self.names

    def logits(self, rows: Sequence[Mapping[str, float]]):
        """The log-odds of each row (a mapping of :data:`CLAIM_FEATURES`)."""
        import numpy as np

        x = np.array([[float(r[n]) for n in self.names] for r in rows], dtype=float)
        x = x.reshape(len(rows), len(self.names))
        if not np.isfinite(x).all():
            raise ValueError("claim features must be finite")
        feature, threshold, left, right, value, leaf = self._arrays
        node = np.broadcast_to(np.asarray(self.roots), (len(rows), len(self.roots))).copy()
        sample = np.arange(len(rows))[:, None]
        while True:
            inner = ~leaf[node]
            if not inner.any():
                break
            go_left = x[sample, feature[node]] <= threshold[node]
            node = np.where(inner, np.where(go_left, left[node], right[node]), node)
        return self.baseline + value[node].sum(axis=1)

    def probabilities(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        """``P(hallucination)`` of each row."""
        import numpy as np

        if not rows:
            return []
        z = np.clip(self.logits(rows), -30.0, 30.0)
        return [float(p) for p in 1.0 / (1.0 + np.exp(-z))]

    def to_json(self) -> str:
        """The JSON form, one tree to a line (small, and a refit diffs tree by tree)."""
        data = self.to_dict()
        trees = data.pop("trees")
        head = json.dumps(data, indent=1)[:-2]
        body = ",\n".join("  " + json.dumps(t, separators=(",", ":")) for t in trees)
        return f'{head},\n "trees": [\n{body}\n ]\n}}\n'

    def to_dict(self) -> dict[str, Any]:
        trees = []
        ends = [*self.roots[1:], len(self.feature)]
        for root, end in zip(self.roots, ends, strict=True):
            nodes = range(root, end)
            trees.append({
                "feature": [self.feature[i] for i in nodes],
                "threshold": [self.threshold[i] for i in nodes],
                "left": [self.left[i] - root for i in nodes],
                "right": [self.right[i] - root for i in nodes],
                "value": [self.value[i] for i in nodes],
                "leaf": [int(self.leaf[i]) for i in nodes]})
        return {"format": FORMAT, "version": 1, "features": list(self.names),
                "baseline": self.baseline, **dict(self.metadata), "trees": trees}

    @classmethod
    def from_dict(cls, data: Any, *, source: str = MODEL_FILE) -> ClaimModel:
        """Read and check the JSON form; errors name the source and the field."""
        def bad(msg: str, fld: str) -> InputError:
            return InputError(msg, source=source, field=fld)

        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise bad(f"not a claim model (field 'format' must be {FORMAT!r})", "format")
        names = data.get("features")
        if (not isinstance(names, list) or not names
                or not all(n in CLAIM_FEATURES for n in names) or len(set(names)) < len(names)):
            raise bad(f"field 'features' must list distinct claim features. Got "
                      f"{shorten(names)} instead.", "features")
        baseline = data.get("baseline")
        if not _number(baseline):
            raise bad("field 'baseline' must be a finite number", "baseline")
        trees = data.get("trees")
        if not isinstance(trees, list) or not trees:
            raise bad("field 'trees' must be a non-empty list", "trees")
        cols: dict[str, list] = {k: [] for k in ("feature", "threshold", "left", "right",
                                                 "value", "leaf")}
        roots = []
        for t, tree in enumerate(trees):
            roots.append(len(cols["feature"]))
            _read_tree(tree, len(names), cols, roots[-1], bad, f"trees[{t}]")
        meta = {k: v for k, v in data.items()
                if k not in ("format", "version", "features", "baseline", "trees")}
        return cls(tuple(names), float(baseline), tuple(roots),
                   *(tuple(cols[k]) for k in ("feature", "threshold", "left", "right",
                                              "value", "leaf")), meta)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _read_tree(tree: Any, n_features: int, cols: dict[str, list], root: int, bad,
               where: str) -> None:
    """Check one tree's node lists and append them (child indices made global)."""
    keys = ("feature", "threshold", "left", "right", "value", "leaf")
    if not isinstance(tree, Mapping) or not all(isinstance(tree.get(k), list) for k in keys):
        raise bad(f"field '{where}' must hold the lists {', '.join(keys)}", where)
    n = len(tree["leaf"])
    if n == 0 or any(len(tree[k]) != n for k in keys):
        raise bad(f"field '{where}' must hold lists of one non-zero length", where)
    for i in range(n):
        leaf = tree["leaf"][i]
        if leaf not in (0, 1) or not _number(tree["value"][i]):
            raise bad(f"field '{where}' node {i} must have leaf 0 or 1 and a finite value",
                      where)
        if not leaf:
            f, t = tree["feature"][i], tree["threshold"][i]
            lo, hi = tree["left"][i], tree["right"][i]
            # children come after their parent: the walk always ends at a leaf
            if (not isinstance(f, int) or isinstance(f, bool) or not 0 <= f < n_features
                    or not _number(t) or not all(isinstance(c, int) and not isinstance(c, bool)
                                                 and i < c < n for c in (lo, hi))):
                raise bad(f"field '{where}' node {i} must name a feature, a finite threshold "
                          "and two later nodes", where)
    for k in keys:
        vals = tree[k]
        if k in ("left", "right"):
            vals = [v + root for v in vals]
        elif k == "leaf":
            vals = [bool(v) for v in vals]
        elif k in ("threshold", "value"):
            vals = [float(v) for v in vals]
        cols[k].extend(vals)


@lru_cache(maxsize=1)
def load_claim_model() -> ClaimModel:
    """The shipped claim model (``claim_model.json`` beside this module)."""
    text = resources.files("evaltools.scoring").joinpath(MODEL_FILE).read_text("utf-8")
    return ClaimModel.from_dict(json.loads(text))
