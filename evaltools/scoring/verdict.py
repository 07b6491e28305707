"""The verdict (spec 4): hierarchical, reading scores and thresholds only.

1. FAIL if hallucination > ``hallucination.fail_above`` (safety first);
2. FAIL if relevance < ``relevance.fail_below`` (quality second);
3. WARN if completeness < ``completeness.warn_below`` (detail third);
4. PASS otherwise.

``reasons[0]`` is the rule that decided; later reasons are lower rules that
were also crossed, for information. When the response has unsupported
anchors (numbers, dates, claims the context does not back), a reason names
them, whatever the verdict: a hallucination ratio under the FAIL threshold
still leaves "24 hours" unsupported, and the reader should see it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from evaltools.config import DEFAULT_CONFIG, Config


@dataclass(frozen=True)
class VerdictRule:
    """One threshold on one score: crossed, it gives ``verdict`` (or marks ``name``).

    ``direction`` ``"above"``: crossed when the score is above the threshold
    (a higher-is-worse score); ``"below"``: when it is below (higher is better).
    The threshold is ``config.<section>.<key>``.
    """

    name: str
    score: str
    section: str
    key: str
    direction: str
    verdict: str | None
    why: str

    def threshold(self, config: Config | None = None) -> float:
        return getattr(getattr(config or DEFAULT_CONFIG, self.section), self.key)

    def crossed(self, value: float, config: Config | None = None) -> bool:
        """Whether ``value`` crosses this rule's threshold (strictly).

        >>> VERDICT_RULES[0].crossed(0.5), VERDICT_RULES[0].crossed(0.51)
        (False, True)
        """
        t = self.threshold(config)
        return value > t if self.direction == "above" else value < t

    @property
    def sign(self) -> str:
        return ">" if self.direction == "above" else "<"


#: The verdict's rules in the spec's order (the first crossed decides): the one table
#: the verdict, the calibration's spec checks, the plots' threshold lines and the
#: ScoreExplorer's sliders read.
VERDICT_RULES: tuple[VerdictRule, ...] = (
    VerdictRule("hallucination FAIL", "hallucination", "hallucination", "fail_above", "above",
                "FAIL", "safety first"),
    VerdictRule("relevance FAIL", "relevance", "relevance", "fail_below", "below", "FAIL",
                "irrelevant"),
    VerdictRule("completeness WARN", "completeness", "completeness", "warn_below", "below",
                "WARN", "potentially incomplete"),
)
#: The spec's "high risk" line on the hallucination score: no verdict of its own, drawn
#: and checked beside the rules.
HIGH_RISK = VerdictRule("hallucination high risk", "hallucination", "hallucination",
                        "high_risk_above", "above", None, "high risk")
#: Every spec threshold by score, in the order drawn (rules, then the high-risk line).
SPEC_THRESHOLDS: dict[str, tuple[VerdictRule, ...]] = {
    score: tuple(r for r in (*VERDICT_RULES, HIGH_RISK) if r.score == score)
    for score in dict.fromkeys(r.score for r in VERDICT_RULES)
}
_RULE = {r.score: r for r in VERDICT_RULES}


@dataclass(frozen=True)
class ScoreVerdict:
    verdict: str
    reasons: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "reasons": list(self.reasons)}


#: Anchor kinds whose being unsupported fails rule 1 under the probability when
#: ``S_hall > fail_above`` or ``P >= hallucination.value_fail_probability`` (a wrong price is
#: not passed on a probability just under the threshold).
VALUE_KINDS = frozenset({"number", "date"})


#: Contradictions by a record's own value: the hardest evidence there is.
RECORD_CONTRADICTIONS = frozenset({"record_no", "record_yes", "record_hours"})


def denied_by_record(anchor) -> bool:
    """Whether an unsupported claim is one a record's own value denies: its ``key: no``
    an affirmed claim ("offers delivery" against ``restaurants delivery: no``), or its
    ``key: yes`` a negated one ("does not take reservations" against ``restaurants
    reservations: yes``), or its weekly hours the days or hours it is said to be open
    ("closed on Saturdays" against ``hours open Saturday: 8:00–17:00``). Rule 1 fails on it
    whatever the probability (docs/validity.md, "Seventh round", "Tenth round" and
    "Fifteenth round").

    >>> from evaltools.scoring.result import Anchor
    >>> [denied_by_record(Anchor("claim", "x", 0, 1, False, contradiction=c))
    ...  for c in (None, "negation", "record_no", "record_yes", "record_hours")]
    [False, False, True, True, True]
    """
    return anchor.kind == "claim" and anchor.contradiction in RECORD_CONTRADICTIONS


@dataclass(frozen=True)
class VerdictInputs:
    """What the verdict reads besides the three scores and the thresholds.

    Scoring keeps them with its result (``ScoreResult.verdict_inputs``, not an
    output field), so :func:`redecide` gives under other thresholds the verdict
    scoring would have given (the ScoreExplorer's sliders). The fields are
    :func:`decide`'s keyword arguments of the same names.
    """

    relevance_waived: bool = False
    completeness_waived: bool = False
    probability: tuple[float | None, float] | None = None
    value_unsupported: bool = False
    record_denied: bool = False
    name_absent: bool = False
    amenity_absent: bool = False
    generalised: bool = False
    term_absent: bool = False
    response_words: int = 0
    answer: bool = False
    summary: bool = False

    def to_dict(self) -> dict:
        return {"relevance_waived": self.relevance_waived,
                "completeness_waived": self.completeness_waived,
                "probability": None if self.probability is None else list(self.probability),
                "value_unsupported": self.value_unsupported,
                "record_denied": self.record_denied, "name_absent": self.name_absent,
                "amenity_absent": self.amenity_absent, "generalised": self.generalised,
                "term_absent": self.term_absent,
                "response_words": self.response_words, "answer": self.answer,
                "summary": self.summary}


def unsupported_reason(unsupported: Iterable[tuple[str, str]], *, limit: int = 5) -> str | None:
    """The reason naming unsupported anchors, ``(kind, text)`` pairs; None when there are none.

    Examples
    --------
    >>> unsupported_reason([("number", "24 hours"), ("claim", "keeps drinks cold")])
    'not supported by the context: number “24 hours”, claim “keeps drinks cold”'
    >>> unsupported_reason([("date", str(d)) for d in range(7)], limit=2)
    'not supported by the context: date “0”, date “1” and 5 more'
    >>> unsupported_reason([]) is None
    True
    """
    items = [f"{kind} “{text}”" for kind, text in unsupported]
    if not items:
        return None
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return "not supported by the context: " + ", ".join(items[:limit]) + more


def decide(relevance: float, completeness: float, hallucination: float, *,
           config: Config | None = None,
           unsupported: Iterable[tuple[str, str]] = (),
           relevance_waived: bool = False, completeness_waived: bool = False,
           probability: tuple[float | None, float] | None = None,
           value_unsupported: bool = False, record_denied: bool = False,
           name_absent: bool = False, amenity_absent: bool = False,
           generalised: bool = False, term_absent: bool = False, response_words: int = 0,
           answer: bool = False, summary: bool = False) -> ScoreVerdict:
    """PASS, WARN or FAIL with the reasons, in the spec's order.

    ``unsupported`` lists the response's unsupported anchors as ``(kind,
    text)``; they never change the verdict (the hallucination score already
    counts them) but are always named in the last reason.
    ``relevance_waived`` (config ``relevance.answer_type``): the response is a
    short answer of the type the question asks for, so rule 2 is not applied;
    ``relevance_waived`` and ``completeness_waived`` together: the query is an
    instruction with no topical word the context holds, so rules 2 and 3 do not apply.
    ``probability`` (config ``hallucination.verdict_from = "probability"``):
    ``(P(hallucinated), threshold)`` from a calibration; rule 1 is then
    ``P >= threshold``; or ``record_denied`` (a record's own value denies a
    claim: "offers delivery" against ``restaurants delivery: no``, "does not take
    reservations" against ``restaurants reservations: yes``, :func:`denied_by_record`;
    named first, whatever ``P``: the probability reads it too, but the record's own word
    is the reason a user can check);
    or, when ``value_unsupported`` (a number or date of the response is not in the
    context: a wrong price), ``S_hall > fail_above``
    or ``P >= hallucination.value_fail_probability``; or, when ``name_absent`` (an
    unsupported claim names what neither the context nor the query mentions:
    ``Anchor.absent``), ``S_hall > fail_above`` or
    ``P >= hallucination.name_fail_probability``; or, when ``amenity_absent`` (an
    unsupported claim gives a record's business an amenity or a provenance the record
    never mentions, *a sauna*, *family-owned*: contradiction ``"record_absent"``),
    ``S_hall > fail_above`` or ``P >= hallucination.amenity_fail_probability``; or, when
    ``generalised`` (an unsupported claim of such an overview generalises past the record,
    *always packed*, *widely considered the best in Boise*, or a claim's quantifier goes past
    the context sentence that says the same, *every jurisdiction* for *most jurisdictions*:
    contradiction ``"generalised"``), ``S_hall > fail_above`` or
    ``P >= hallucination.generalised_fail_probability``; or, when
    ``term_absent`` (an unsupported claim holds a noun that is not an everyday word and that
    neither the context nor the query uses, *consultations*: ``Anchor.terms``) in a response
    of ``hallucination.long_response_words`` words or more,
    ``P >= hallucination.term_fail_probability`` (for a RAG answer, ``answer``,
    ``hallucination.answer_term_fail_probability``; for a summary, ``summary``,
    ``hallucination.summary_term_fail_probability``). A response of
    ``hallucination.long_response_words`` words or more (``response_words``) fails
    from ``min(threshold, hallucination.long_fail_probability)`` on; when it answers a
    question over prose passages (``answer``: a RAG answer), from
    ``min(threshold, hallucination.long_answer_fail_probability)``; when it follows an
    instruction about prose (``summary``: "Summarize the following news"), from
    ``min(threshold, hallucination.long_summary_fail_probability)``.

    Examples
    --------
    >>> decide(0.8, 1.0, 0.5).verdict         # 0.5 is not > 0.5
    'PASS'
    >>> v = decide(0.05, 0.5, 0.51)
    >>> v.verdict, v.reasons[0]
    ('FAIL', 'hallucination 0.51 > 0.5 (safety first)')
    >>> decide(0.1, 0.59, 0.0).verdict        # 0.1 is not < 0.1
    'WARN'
    >>> v = decide(0.5, 0.5, 0.33, unsupported=[("number", "24 hours")])
    >>> v.verdict, v.reasons[-1]
    ('WARN', 'not supported by the context: number “24 hours”')
    >>> decide(0.0, 1.0, 0.0, relevance_waived=True).verdict   # "$37.99" to "How much...?"
    'PASS'
    >>> decide(0.0, 0.0, 0.0, relevance_waived=True, completeness_waived=True).verdict
    'PASS'
    >>> v = decide(0.8, 1.0, 0.2, probability=(0.71, 0.4))
    >>> v.verdict, v.reasons[0]
    ('FAIL', 'hallucination probability 0.71 >= 0.4 (safety first; calibration)')
    >>> decide(0.8, 1.0, 0.9, probability=(0.39, 0.4)).verdict
    'PASS'
    >>> v = decide(0.8, 1.0, 0.9, probability=(0.39, 0.7), value_unsupported=True)
    >>> v.verdict, v.reasons[0]
    ('FAIL', 'hallucination 0.90 > 0.5 with an unsupported number or date (safety first)')
    >>> v = decide(0.8, 1.0, 0.5, probability=(0.52, 0.7), value_unsupported=True)
    >>> v.verdict   # "It costs $45" for $35: S_hall 0.5, P 0.52 >= 0.25
    'FAIL'
    >>> v.reasons[0]
    'hallucination probability 0.52 >= 0.25 with an unsupported number or date (safety first)'
    >>> decide(0.8, 1.0, 0.5, probability=(0.24, 0.7), value_unsupported=True).verdict
    'PASS'
    >>> decide(0.8, 1.0, 0.05, probability=(0.2, 0.7), record_denied=True).reasons[0]
    "a record's own value denies a claim (safety first)"
    >>> decide(0.8, 1.0, 0.05, probability=(0.9, 0.7), record_denied=True).reasons[0]
    "a record's own value denies a claim (safety first)"
    >>> decide(0.8, 1.0, 0.2, probability=(0.35, 0.7), name_absent=True).reasons[0]
    'hallucination probability 0.35 >= 0.3 with a name the context never mentions (safety first)'
    >>> decide(0.8, 1.0, 0.2, probability=(0.29, 0.7), name_absent=True).verdict
    'PASS'
    >>> decide(0.8, 1.0, 0.2, probability=(0.45, 0.7), amenity_absent=True).reasons[0]
    ... # doctest: +NORMALIZE_WHITESPACE
    'hallucination probability 0.45 >= 0.3 with an amenity or provenance the record never
    mentions (safety first)'
    >>> decide(0.8, 1.0, 0.2, probability=(0.52, 0.7), term_absent=True,
    ...        response_words=60).reasons[0]
    'hallucination probability 0.52 >= 0.5 with a word the context never uses (safety first)'
    >>> decide(0.8, 1.0, 0.9, probability=(0.49, 0.7), term_absent=True,
    ...        response_words=60).verdict  # not from S_hall
    'PASS'
    >>> decide(0.8, 1.0, 0.2, probability=(0.52, 0.7), term_absent=True,
    ...        response_words=59).verdict  # a short response: P weighs each word already
    'PASS'
    >>> decide(0.8, 1.0, 0.2, probability=(0.52, 0.7), term_absent=True,
    ...        response_words=60, answer=True).verdict  # a RAG answer: from 0.65
    'PASS'
    >>> decide(0.8, 1.0, 0.2, probability=(0.66, 0.75), term_absent=True,
    ...        response_words=60, answer=True).reasons[0]
    'hallucination probability 0.66 >= 0.65 with a word the context never uses (safety first)'
    >>> decide(0.8, 1.0, 0.2, probability=(0.58, 0.75), term_absent=True,
    ...        response_words=60, summary=True).verdict  # a long summary: from 0.6
    'PASS'
    >>> v = decide(0.8, 1.0, 0.2, probability=(0.67, 0.75), response_words=60)
    >>> v.verdict, v.reasons[0]   # doctest: +NORMALIZE_WHITESPACE
    ('FAIL', 'hallucination probability 0.67 >= 0.65 (safety first; calibration;
              a response of 60 words or more)')
    >>> decide(0.8, 1.0, 0.2, probability=(0.67, 0.75), response_words=59).reasons[0][:44]
    'hallucination probability 0.67 < 0.75, relev'
    >>> decide(0.8, 1.0, 0.2, probability=(0.67, 0.75), response_words=60,
    ...        answer=True).verdict   # a long RAG answer: from 0.7
    'PASS'
    >>> decide(0.8, 1.0, 0.2, probability=(0.71, 0.75), response_words=60,
    ...        answer=True).reasons[0]   # doctest: +NORMALIZE_WHITESPACE
    'hallucination probability 0.71 >= 0.7 (safety first; calibration; an answer of 60 words
     or more)'
    >>> decide(0.8, 1.0, 0.2, probability=(0.59, 0.7), response_words=60,
    ...        summary=True).verdict   # a long summary: from 0.6
    'PASS'
    >>> decide(0.8, 1.0, 0.2, probability=(0.61, 0.7), response_words=60,
    ...        summary=True).reasons[0]   # doctest: +NORMALIZE_WHITESPACE
    'hallucination probability 0.61 >= 0.6 (safety first; calibration; a summary of 60 words
     or more)'
    >>> decide(0.8, 1.0, 0.2, probability=(0.61, 0.7), response_words=59,
    ...        summary=True).verdict   # a short one: the calibration's threshold
    'PASS'
    """
    cfg = config or DEFAULT_CONFIG
    h_max, r_min, c_min = (_RULE[n].threshold(cfg)
                           for n in ("hallucination", "relevance", "completeness"))
    crossed: list[tuple[str, str]] = []
    h = cfg.hallucination
    cut = probability[1] if probability is not None else None
    long_cut = (h.long_answer_fail_probability if answer else
                h.long_summary_fail_probability if summary else h.long_fail_probability)
    long = (cut is not None and response_words >= h.long_response_words and long_cut < cut)
    if long:
        cut = long_cut
    if probability is not None:
        p = probability[0]
        if record_denied:  # the record's own word, whatever the probability: named first
            crossed.append(("FAIL", "a record's own value denies a claim (safety first)"))
        elif p is not None and p >= cut:
            what = "an answer" if answer else "a summary" if summary else "a response"
            why = (f"; {what} of {h.long_response_words} "
                   f"words or more" if long else "")
            crossed.append(("FAIL", f"hallucination probability {p:.2f} >= {cut:g} "
                                    f"(safety first; calibration{why})"))
        else:  # a wrong value, an unknown name, an added amenity, a new word: each from its
            # own probability (all but the word also from S_hall)
            for found, at, what, by_score in (
                    (value_unsupported, h.value_fail_probability,
                     "an unsupported number or date", True),
                    (name_absent, h.name_fail_probability,
                     "a name the context never mentions", True),
                    (amenity_absent, h.amenity_fail_probability,
                     "an amenity or provenance the record never mentions", True),
                    (generalised, h.generalised_fail_probability,
                     "a generalisation the context does not make", True),
                    (term_absent and response_words >= h.long_response_words,
                     h.answer_term_fail_probability if answer else
                     h.summary_term_fail_probability if summary else h.term_fail_probability,
                     "a word the context never uses", False)):
                if found and by_score and hallucination > h_max:
                    crossed.append(("FAIL", f"hallucination {hallucination:.2f} > {h_max:g} "
                                            f"with {what} (safety first)"))
                elif found and p is not None and p >= at:
                    crossed.append(("FAIL", f"hallucination probability {p:.2f} >= {at:g} "
                                            f"with {what} (safety first)"))
                if crossed:
                    break
    elif hallucination > h_max:
        crossed.append(("FAIL", f"hallucination {hallucination:.2f} > {h_max:g} (safety first)"))
    if relevance < r_min and not relevance_waived:
        crossed.append(("FAIL", f"relevance {relevance:.2f} < {r_min:g} (irrelevant)"))
    if completeness < c_min and not completeness_waived:
        crossed.append(("WARN", f"completeness {completeness:.2f} < {c_min:g} "
                                "(potentially incomplete)"))
    named = unsupported_reason(unsupported)
    extra = (named,) if named else ()
    if not crossed:
        rel = (f"relevance {relevance:.2f} (rule not applied)" if relevance_waived
               and relevance < r_min else f"relevance {relevance:.2f} >= {r_min:g}")
        comp = (f"completeness {completeness:.2f} (rule not applied)" if completeness_waived
                and completeness < c_min else f"completeness {completeness:.2f} >= {c_min:g}")
        hall = (f"hallucination probability {probability[0]:.2f} < {cut:g}"
                if probability is not None and probability[0] is not None
                else f"hallucination {hallucination:.2f} <= {h_max:g}")
        return ScoreVerdict("PASS", (f"{hall}, {rel}, {comp}", *extra))
    return ScoreVerdict(crossed[0][0], (*(reason for _, reason in crossed), *extra))


def _most_likely_first(anchors):
    """Unsupported anchors with the claim model's most probable first (in text order where
    they tie, or where no probability was computed), so the reason's first few name them.

    >>> from evaltools.scoring.result import Anchor
    >>> a, b, c = (Anchor("claim", t, 0, 1, False, probability=p)
    ...            for t, p in (("framed", 0.1), ("edited", 0.9), ("plain", None)))
    >>> [x.text for x in _most_likely_first([a, b, c])]
    ['edited', 'framed', 'plain']
    """
    return sorted(anchors, key=lambda a: -(a.probability or 0.0))


def redecide(result, config: Config | None = None) -> ScoreVerdict:
    """The verdict of a scored result under ``config``'s thresholds, as scoring decides it.

    Reads the result's three scores, its counted unsupported anchors and its
    ``verdict_inputs`` (waivers, the calibration's probability and threshold);
    nothing is rescored. Under the config the result was scored with it gives
    the result's own verdict and reasons (without the notes that follow them).
    """
    inputs = result.verdict_inputs or VerdictInputs()
    return decide(result.relevance, result.completeness, result.hallucination, config=config,
                  unsupported=[(a.kind, a.text) for a in _most_likely_first(result.unsupported())],
                  relevance_waived=inputs.relevance_waived,
                  completeness_waived=inputs.completeness_waived,
                  probability=inputs.probability, value_unsupported=inputs.value_unsupported,
                  record_denied=inputs.record_denied, name_absent=inputs.name_absent,
                  amenity_absent=inputs.amenity_absent, generalised=inputs.generalised,
                  term_absent=inputs.term_absent,
                  response_words=inputs.response_words, answer=inputs.answer,
                  summary=inputs.summary)
