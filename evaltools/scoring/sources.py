"""Statements about the sources: what a response says of its context, not of the world.

Two kinds, neither of which the context could support or contradict:

- **abstentions** (:func:`abstention_sentences`): a sentence that declines to
  answer or speaks of the sources' silence ("The passages do not say how much
  it costs", "I am unable to answer based on the given text");
- **attributions** (:func:`attribution_spans`): a phrase that says where the
  answer comes from ("Based on the given passages, ...", "according to the
  provided information", "The passage states that ...", "The passages give
  two main reasons").

Grounding does not check their words, claims and numbers in them are not
counted, and the novelty signals leave their words out
(:func:`source_spans`, both together): "Based on the given passages, the mug
costs $35." is as grounded as "The mug costs $35.".

Examples
--------
>>> t = "Based on the given passages, the mug costs $35. The passages do not say more."
>>> [t[a:b] for a, b in source_spans(t, [(0, 47), (48, 78)])]
['Based on the given passages', 'The passages do not say more.']
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from evaltools.scoring.anchors.claims import POINT_NOUNS

# "I can't fully answer", "unable to definitively say": how far it declines is no claim.
_FULLY = r"(?:(?:fully|completely|directly|definitively|really|precisely|exactly) )?"
_ABSTAIN = re.compile(
    r"\b(?:(?:unable|not able) to " + _FULLY + r"(?:answer|determine|find|tell|say|provide|"
    r"confirm|verify)"
    r"|(?:cannot|can't|can ?not|could not|couldn't) (?:be )?" + _FULLY + r"(?:answer|determin|"
    r"find|tell|say|provide|confirm|verify|know|explain)\w*"
    r"|(?:cannot|can't|can ?not|could not|couldn't) (?:give|offer) (?:you )?(?:a |an )?(?:full|"
    r"complete|definitive|direct|clear|precise) (?:answer|explanation)"
    r"|(?:only|at best) (?:a )?partial (?:answer|explanation)"
    r"|(?:no|not enough|insufficient|no specific|no relevant) (?:information|details?|data|"
    r"mention|answer)"
    r"|(?:no|(?:is|are|was|were)(?: not|n't) (?:a|an|any)) (?:direct|clear|specific|explicit|"
    r"definitive|straightforward|single|actual|exact|precise) (?:[\w-]+ )?(?:answer|"
    r"explanation|comparison|mention|figure)"
    r"|(?:not|(?:is|are|was|were|has|have|had)n't)(?: been)? (?:mentioned|specified|stated|"
    r"discussed|addressed|covered here)"
    r"|(?:not|(?:is|are)n't) (?:really |directly |fully )?answered (?:here|there|by them|in them)"
    r"|there(?:'s| is) nothing (?:here|there|in them) (?:on|about)"
    r"|(?:none|neither) of them (?:discuss|mention|cover|address|say|give|explain|specif|"
    r"state|compar|deal|touch|answer|talk)\w*"
    r"|(?:do|does|did)(?: not|n't) (?:say|mention|specify|state|discuss|address)"
    r"|i (?:do not|don't) know"
    r"|nothing (?:here )?to (?:summari[sz]e|answer|report|go on)|little (?:here )?to summari[sz]e"
    r"|no (?:actual |real )?(?:article |news |story )?(?:content|text) (?:to|was|is|has)"
    r"|if you (?:can )?(?:share|provide|paste|send)(?: me)? the (?:full|complete|whole|actual))\b",
    re.IGNORECASE)

# An attribution names the sources: "the (given) passage(s) (2) (provided)".
_SRC = (r"(?:passages?|texts?|documents?|sources?|contexts?|articles?|information|data|"
        r"excerpts?|snippets?|references?|knowledge|materials?|records?|search results|"
        r"results|reviews?|paragraphs?|content|descriptions?|listings?|pieces?)")
_MOD = (r"(?:(?:the|these|this|those|my|all|both|two|three|same|given|provided|above|following|"
        r"available|supplied|retrieved|relevant|cited|referenced|search|business|product|"
        r"structured|json|original|reference)\s+){0,4}")  # bounded: linear in long texts
_NAMED = (_MOD + _SRC + r"(?:\s+(?:\d+|#\d+|[A-Z])\b)?"
          r"(?:\s+(?:provided|given|above|supplied|available|presented|listed)\b"
          r"(?!\s+(?:in|by|within)\b))?")
_CHAIN = (r"(?:\s+(?:provided|given|presented|contained|found|included|mentioned|available)"
          r"\s+(?:in|by|within)\s+" + _NAMED + r")?")
# The sources' silence: a named source is the subject of a negated verb ("the passages do
# not give", "passage 2 doesn't", "none of the texts", "the given data lacks"), or what is
# negated is looked for in one ("there is no word on it in the passages"). A source noun
# elsewhere in a negated sentence is not enough: "the material is not round", "a record
# with no losses", "the article reports that there is no magic bullet".
_NEG_VERB = (r"(?:(?:do|does|did|is|are|was|were|has|have|had|can|could|would|will|may)"
             r"(?:\s+not|n't)|cannot|never|lacks?|is\s+silent|are\s+silent|"
             r"(?:says?|mentions?|gives?|contains?|provides?|includes?|offers?|has|have|makes?)"
             r"\s+(?:no|nothing)\b)")
# ... or, after what the sources do say, what they do not: "the passages touch on it but
# don't compare the two" (not "the documents were signed but not filed").
_NEG_REPORT = (r"(?:do|does|did)(?:\s+not|n't)\s+(?:(?:directly|explicitly|specifically|really|"
               r"actually|fully|entirely|completely|quite)\s+)?(?:say|mention|compare|give|"
               r"address|discuss|explain|specify|state|cover|provide|answer|tell|describe|list|"
               r"quantify|settle|resolve|agree)")
# Nouns that name the sources only: "the results were not significant" and "the reviews
# are not positive" speak of the world, "the provided data does not" of the sources.
_SRC_ONLY = (r"(?:passages?|texts?|documents?|sources?|contexts?|articles?|excerpts?|snippets?|"
             r"references?|paragraphs?|search\s+results)")
_GIVEN = (r"(?:given|provided|above|supplied|available|following|retrieved|structured|json)\s+"
          r"(?:information|data|details|records?|reviews?|content|descriptions?|listings?)"
          r"|(?:information|data|details)\s+(?:provided|given|above|supplied|available)")
# Nouns by which the sources are numbered or lettered: "passage 2", "document B".
_NUMBERABLE = (r"(?:passages?|documents?|sources?|texts?|excerpts?|snippets?|paragraphs?|"
               r"references?)")
_SILENT_NAMED = (_MOD + r"(?:" + _SRC_ONLY + r"|" + _GIVEN + r")"
                 + r"(?:\s+(?:\d+|#\d+|[A-Z])\b)?(?:\s+(?:provided|given|above|supplied))?")
_SILENT = re.compile(
    r"\b(?:(?:the|these|this|those|both|all|my)\s+" + _SILENT_NAMED
    + r"|" + _NUMBERABLE + r"\s+(?:\d+|#\d+|[A-Z])"
    + r")\s+(?:(?:also|only|even|actually|specifically|really|here)\s+)?(?:" + _NEG_VERB
    + r"|[^.?!\n]{0,60}?\b(?:but|yet|though|although)\s+(?:they\s+)?" + _NEG_REPORT + r")\b"
    + r"|\bnot\s+something\s+(?:the|these|this|those|both|all)\s+" + _SILENT_NAMED
    + r"\s+(?:\w+\s+)?(?:discuss|cover|mention|address|say|explain)"
    + r"|\b(?:the|these|this|those|both|all)\s+" + _SILENT_NAMED
    + r"\s+(?:only\s+)?(?:partly|partially|indirectly)\s+(?:answer|address|cover|explain)"
    + r"|\b(?:none|neither)(?:\s+of\s+(?:the|these|those))?\s+" + _SILENT_NAMED + r"\b"
    + r"|(?:\b(?:not|no|nothing|never)|n't)\b[^.?!]{0,80}?\b(?:in|from|by|within)\s+"
    + r"(?:the|these|this|those|both|any|all|my)\s+" + _SILENT_NAMED + r"\b"
    # "there's no actual probability given": what the sources do not give
    + r"|\bthere(?:'s|\s+is|\s+are|\s+was|\s+were)\s+no\s+(?:[\w-]+\s+){1,3}?"
    + r"(?:given|provided|stated|specified|listed|mentioned)\b",
    re.IGNORECASE)
# What the sources are or how they stand to each other, rather than what they say of the world:
# "the sources differ somewhat on the mechanism", "the passages present it as a theory rather
# than ...", "both sources are written from a US perspective", "neither gives figures" (after
# they are named), "you'd need sources beyond these passages".
_META = re.compile(
    r"\b(?:the|these|those|both|all|two|three)\s+(?:[\w-]+\s+)?" + _SRC_ONLY
    + r"\s+(?:also\s+|only\s+|themselves\s+)?(?:differ|disagree|diverge|weigh|frame|"
    r"present\s+[^.?!\n]{0,80}?\s+as|(?:are|were)\s+(?:both\s+|all\s+)?(?:written|aimed)|"
    r"come\s+from)\b"
    r"|\b" + _SRC_ONLY + r"\b[^.?!\n]{0,120}?\bneither(?:\s+of\s+them)?\s+"
    r"(?:gives|says|mentions|offers|provides|explains|covers|specifies|quantifies|states|"
    r"addresses|discusses)\b"
    r"|\bsources?\s+beyond\s+(?:the|these|this|those)\s+" + _SRC_ONLY
    # ... "the sources pull in slightly different directions", "the passages describe it in
    # fairly general terms", "a comparison goes beyond what these sources cover"
    + r"|\b" + _SRC_ONLY + r"\s+(?:also\s+)?pull\s+in\s+(?:[\w-]+\s+)?different\s+directions"
    + r"|\b" + _SRC_ONLY + r"\b[^.?!\n]{0,60}?\bin\s+(?:fairly\s+|very\s+|only\s+|rather\s+)?"
    r"(?:general|broad|vague)\s+terms\b"
    + r"|\bbeyond\s+what\s+(?:the|these|this|those|both|my)\s+" + _SRC_ONLY
    # where to look instead: "you'd need another source", "a technical source on it would be
    # needed to answer it", "you'd want an optometrist or a more detailed source"
    + r"|\byou(?:'d|\s+would|\s+will|'ll)\s+(?:need|want|have)\s+(?:to\s+(?:consult|check|"
    r"find|look\s+at)\s+)?(?:[\w-]+\s+){0,6}?" + _SRC_ONLY + r"\b"
    + r"|\b" + _SRC_ONLY + r"\b[^.?!\n]{0,60}?\bwould\s+be\s+needed\b"
    # the writer's own step beyond them: "that's an inference from the passages", "linking
    # them to your question is my inference"
    + r"|\b(?:my\s+(?:own\s+)?|an\s+)inference\b(?!\s+(?:that|about|of)\b)"
    # what the source is, of a near-empty one: "This piece is very short (it's a caption)"
    r"|\b(?:this|the)\s+(?:piece|article|text|story|item|excerpt)\s+is\s+(?:(?:very|quite|"
    r"extremely|rather|only|too)\s+)?(?:short|brief)\b",
    re.IGNORECASE)
# After a sentence that names the sources, "They don't explain ...", "It also says nothing
# about ..."; or in one sentence, "Because the source is a definition, it doesn't describe".
# ... and, of "they", how the sources stand to each other: "Here's what the passages say,
# and they don't fully agree with each other"; "They don't settle the question".
_PRONOUN_SILENT = (r"(?:they|it)\s+(?:also\s+|only\s+)?(?:" + _NEG_REPORT
                   + r"|says?\s+nothing|gives?\s+no|offers?\s+no|disagree|differ)\b")
_THEY_SILENT = re.compile(r"^[\W_]*(?:(?:but|and|however|still|yet),?\s+)?" + _PRONOUN_SILENT,
                          re.IGNORECASE)
_SOURCE_THEN_IT = re.compile(r"\b" + _SRC_ONLY + r"\b[^.?!\n]{0,100}?[,;:\u2014]\s*(?:(?:and|but|"
                             r"though|although)\s+)?" + _PRONOUN_SILENT, re.IGNORECASE)
# A source named by its number: "passage 5", "passages 1 and 3", "documents 2-4".
_NUMBERED = (_NUMBERABLE + r"\s+#?\d{1,3}(?:\s*(?:,|and|&|or|to|\u2013|-)\s*#?\d{1,3}\b)*\b")
_LEAD = (r"(?:based\s+(?:solely\s+|only\s+|entirely\s+|purely\s+)?(?:on|upon)|according\s+to|"
         r"as\s+(?:stated|mentioned|described|noted|indicated|shown|explained|reported|outlined|"
         r"given|provided)\s+(?:in|by)|(?:drawing|relying)\s+on)")
_REPORT = (r"(?:(?:only|mainly|mostly|largely|chiefly|both|all)\s+)?"
           r"(?:states?|says?|mentions?|indicates?|suggests?|notes?|explains?|describes?|"
           r"shows?|reports?|reveals?|highlights?|confirms?|specif(?:y|ies)|clarif(?:y|ies)|"
           r"impl(?:y|ies)|"
           r"points?\s+out|hints?\s+at|argues?|observes?|adds?|discuss(?:es)?|stress(?:es)?|"
           r"emphasi[sz]es?|touch(?:es)?\s+on|talks?\s+about|claims?|covers?|warns?|cites?|"
           r"stated|mentioned|noted|explained|described|reported|argued|claimed|observed|"
           r"warned|suggested|cited|said|wrote|added|"
           r"focus(?:es)?(?:\s+(?:instead|mainly|mostly|largely|almost\s+entirely))?\s+on)")
#: What a response takes from the sources: "Key points from the passages:", "One caveat from
#: the sources"; not "from the source of the fault" (a source of something is no passage).
_FROM_SOURCES = (r"from\s+(?:the|these|both)\s+(?:(?:given|provided|above|retrieved)\s+)?"
                 r"(?:passages?|sources?|excerpts?|snippets?|documents?)\b(?!\s+of\b)")
#: ... with the few words before it when they open a line or sentence and a colon follows
#: ("One caveat from the passages:"): the whole introduces what follows.
_FROM = (r"(?:^|(?<=[.!?]\s)|(?<=\n))[ \t*_-]*(?:[\w'-]+[ \t]+){1,4}" + _FROM_SOURCES
         + r"(?=[ \t*_]*:)|\b" + _FROM_SOURCES)
_GIVE = (r"(?:gives?|offers?|lists?|points?\s+to|suggests?|identif(?:y|ies)|highlights?|"
         r"outlines?|describes?|mentions?|explains?|provides?|presents?|discuss(?:es)?|cites?)")
_ATTRIBUTION = re.compile(
    r"\b" + _LEAD + r"\s+(?:the\s+)?(?:[\w&'.-]+\s+)?" + _NAMED + _CHAIN   # based on the passages
    + r"|\b(?:given|provided|mentioned|described|stated|listed|outlined|cited|discussed|noted)"
    + r"\s+(?:in|by)\s+(?:(?:the|these|this|both)\s+)?" + _SILENT_NAMED   # cited in passage 2
    + r"|\b(?:the|these|this|both)\s+" + _NAMED + r"\s+(?:also\s+)?" + _GIVE
    + r"\s+(?:[\w-]+\s+){0,3}?(?:" + POINT_NOUNS
    + r"|examples?|figures|definitions?)\b"    # they give two reasons, it gives a worked example
    + r"|\b(?:the|these|this|both)\s+(?:[\w&'.-]+\s+)?" + _NAMED + r"\s+(?:also\s+)?" + _REPORT
    + r"(?:\s+that)?\b"                                   # the (HuffPost) passage states that
    + r"|\b(?:one|another|a|each|some|several|other|most)\s+(?:of\s+the\s+)?" + _SRC_ONLY
    + r"(?:\s+(?:\d+|[A-Z])\b)?\s+(?:also\s+)?" + _REPORT + r"(?:\s+that)?\b"  # one passage notes
    + r"|(?:^|(?<=[.!?]\s))in\s+" + _NAMED + r"(?=\s*,)"                  # In passage 2, ...
    + r"|\b" + _NUMBERED                                                   # Passage 5, which ...
    + r"|" + _FROM                                                   # key points from the passages
    + r"|\b(?:comes?|came)\s+up\s+in\s+(?:both|all|several|two|three|the|these)\s+"
    + _SRC_ONLY                                                      # this comes up in both sources
    + r"|\[\d{1,3}(?:\s*[,;\u2013-]\s*\d{1,3})*\](?:\[\d{1,3}\])*"             # a citation: [1][3]
    # the answer's own frame: "the (short) answer is that", "the premise needs a small
    # qualification", "your premise is only partly right"
    + r"|\b(?:the|my)\s+(?:(?:short|simple|brief|quick|basic)\s+)?answer\s+is(?:\s+that)?\b"
    + r"|\b(?:the|your|this|its)\s+(?:question's\s+)?premise\s+(?:needs|deserves|calls\s+for|"
    r"requires)\s+(?:a\s+|some\s+)?(?:(?:small|slight|little|minor|bit\s+of)\s+)?"
    r"(?:qualification|correction|nuance|caveat|adjustment)"
    + r"|\b(?:the|your|this|its)\s+(?:question's\s+)?premise\s+(?:is|isn't|is\s+not)\s+"
    r"(?:(?:only|quite|entirely|partly|partially|completely|not\s+quite|not\s+entirely)\s+){0,2}"
    r"(?:right|correct|accurate|true|wrong|mistaken|inaccurate|off)\b",
    re.IGNORECASE | re.MULTILINE)


_SOURCE_NOUN = re.compile(_SRC_ONLY, re.IGNORECASE)

#: Curly apostrophes as the patterns write them (*don’t* is *don't*); one character for
#: one, so offsets into the text hold.
_APOSTROPHES = str.maketrans("\u2018\u2019\u02bc", "'" * 3)


def _plain(text: str) -> str:
    """``text`` with its curly apostrophes straight, the same length.

    >>> _plain("The passages don\u2019t say.")
    "The passages don't say."
    """
    return text.translate(_APOSTROPHES)


def names_sources(word: str) -> bool:
    """Whether ``word`` is a noun that names the sources only (*passages*, *excerpts*).

    >>> [names_sources(w) for w in ("passages", "Excerpt", "results", "recipe")]
    [True, True, False, False]
    """
    return _SOURCE_NOUN.fullmatch(word) is not None


def abstention_sentences(text: str, sents: Sequence[tuple[int, int]]
                         ) -> tuple[tuple[int, int], ...]:
    """The sentences that decline to answer, speak of the sources' silence, or say what the
    sources are and how they stand to each other.

    Such a sentence says the sources are silent ("The passages do not give
    the price", "There is nothing on it in the text"; "They don't explain ..." after a
    sentence that names them), or declines ("I am unable to answer ...", "... is not
    mentioned"), or speaks of the sources themselves ("The sources differ on ...", "The
    passages present it as a theory", "Both sources are written from a US perspective").
    Grounding does not check its words and claims never count it: it states
    nothing about the world the context could support or contradict.

    Examples
    --------
    >>> t = "The passages do not say the price. It is red. I cannot answer that."
    >>> [t[a:b] for a, b in abstention_sentences(t, [(0, 34), (35, 45), (46, 67)])]
    ['The passages do not say the price.', 'I cannot answer that.']
    >>> t = "There isn't a direct answer in them. The passages touch on it but don't compare them."
    >>> [t[a:b] for a, b in abstention_sentences(t, [(0, 36), (37, 87)])]
    ["There isn't a direct answer in them.", "The passages touch on it but don't compare them."]
    >>> abstention_sentences("The passages only partly answer this.", [(0, 37)])
    ((0, 37),)
    >>> abstention_sentences("I can't fully answer that, as none of them discuss it.", [(0, 54)])
    ((0, 54),)
    >>> t = ("Here's what the passages say, though they don't directly compare TV episodes "
    ...      "with films.")
    >>> abstention_sentences(t, [(0, len(t))]) == ((0, len(t)),)
    True
    >>> t = "Whether the EU would do so is not something these passages discuss."
    >>> abstention_sentences(t, [(0, len(t))]) == ((0, len(t)),)
    True
    >>> t = ("The passages focus on waking. They don't explain the biology. It is loud. "
    ...      "They don't explain why.")
    >>> [t[a:b] for a, b in abstention_sentences(t, [(0, 29), (30, 61), (62, 73), (74, 97)])]
    ["They don't explain the biology."]
    >>> t = ("The sources differ somewhat on the mechanism. The passages present it as a theory "
    ...      "rather than a fact. The sources are a dealer and a chain, and neither gives "
    ...      "figures. For that you'd need sources beyond these passages.")
    >>> len(abstention_sentences(t, [(0, 45), (46, 101), (102, 166), (167, 217)]))
    4
    >>> t = "The passages say the sources differ. The studies differ."
    >>> [t[a:b] for a, b in abstention_sentences(t, [(0, 36), (37, 56)])]
    ['The passages say the sources differ.']
    >>> abstention_sentences("The team did not directly compare the drugs.", [(0, 44)])
    ()
    >>> abstention_sentences("The drug only partly explains the decline.", [(0, 42)])
    ()
    >>> abstention_sentences("The text is red.", [(0, 16)])
    ()
    >>> abstention_sentences("The documents were signed but not filed.", [(0, 40)])
    ()
    >>> t = ("The text holds only a date and no actual article content, so there is nothing to "
    ...      "summarize. If you share the full article, I'd be happy to summarize it.")
    >>> len(abstention_sentences(t, [(0, 91), (92, 152)]))
    2
    """
    out = []
    named = False  # whether the sentence before named the sources or spoke of their silence
    for a, b in sents:
        part = _plain(text[a:b])
        if (_ABSTAIN.search(part) or _SILENT.search(part) or _META.search(part)
                or _SOURCE_THEN_IT.search(part) or (named and _THEY_SILENT.search(part))):
            out.append((a, b))
            named = True
        else:
            named = bool(_SOURCE_NOUN.search(part))
    return tuple(out)


def attribution_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Character spans of the phrases that say where the answer comes from.

    Examples
    --------
    >>> def show(t):
    ...     return [t[a:b] for a, b in attribution_spans(t)]
    >>> show("Based on the given passages, the mug costs $35.")
    ['Based on the given passages']
    >>> show("According to the information provided in passage 2, it ships in 3 days.")
    ['According to the information provided in passage 2']
    >>> show("The passage also states that the lid is dishwasher safe.")
    ['The passage also states that']
    >>> show("In passage 3, the author praises the lid.")
    ['In passage 3']
    >>> show("According to the Forbes passage, the reasons given in the passages hold.")
    ['According to the Forbes passage', 'given in the passages']
    >>> show("One passage notes that the lid leaks; another source says it does not.")
    ['One passage notes that', 'another source says']
    >>> show("The HuffPost piece explains why. The sidewalk passage hints at the cause.")
    ['The HuffPost piece explains', 'The sidewalk passage hints at']
    >>> show("The passages give two main reasons: demand grew.")
    ['The passages give two main reasons']
    >>> show("The passages focus instead on dogs. The sources only discuss cats.")
    ['The passages focus instead on', 'The sources only discuss']
    >>> show("One caveat from the passages: it varies. Heat comes from the source of the rift.")
    ['One caveat from the passages']
    >>> show("It is known from the passages that heat rises.")
    ['from the passages']
    >>> show("Passage 5, which is about fries, notes that heat helps [1][3].")
    ['Passage 5', '[1][3]']
    >>> show("Server load comes up in both sources. It came up in the meeting.")
    ['comes up in both sources']
    >>> show("The report says sales rose. The mug is based on a 1990 design.")
    []
    """
    return tuple((m.start(), m.end()) for m in _ATTRIBUTION.finditer(_plain(text)))


_COURTESY = re.compile(r"\s*(?:sure|certainly|of course|absolutely|okay|ok)\b[!.,]*"
                       r"(?:\s*(?:i'd|i would|i'll|i will|i am|i'm)\s+(?:be\s+)?(?:happy|glad)\s+"
                       r"to help\b[^.!?\n]{0,80}[.!?])?", re.IGNORECASE)
_HERE_IS = re.compile(r"\s*(?:here(?:'s|\s+is|\s+are)|below\s+is|the\s+following\s+is)\s+"
                      r"(?:(?:a|an|the|my|some)\s+)?(?:[\w-]+\s+){0,3}?(?:summary|overview|"
                      r"answer|response|description|breakdown|rundown|explanation|list|review|"
                      r"profile|synopsis|recap)\b"
                      r"[^\n:.!?]{0,200}(?::|(?=\n)|\.(?=\s*\n))", re.IGNORECASE)
#: "Based on the article, here is a summary:": the attribution that leads the line.
_LEAD_COMMA = re.compile(r"\s*" + _LEAD + r"\s+(?:the\s+)?(?:[\w&'.-]+\s+)?" + _NAMED
                         + r"\s*,", re.IGNORECASE)


def preamble_span(text: str) -> tuple[tuple[int, int], ...]:
    r"""The opening that introduces the response itself, if any: a courtesy word and a
    "Here is a summary of the article in under 100 words:" line. It says what follows,
    nothing about the world (its "100 words" is no fact to check).

    Examples
    --------
    >>> t = "Sure! Here's a summary of the news in under 100 words:\n\nThe mayor resigned."
    >>> [t[a:b] for a, b in preamble_span(t)]
    ["Sure! Here's a summary of the news in under 100 words:"]
    >>> preamble_span("Here is why: it rained."), preamble_span("Sure, it rained.")
    ((), ((0, 5),))
    >>> t = "Based on the provided data, here is an overview of Stitchworks:\n\nIt sews."
    >>> [t[a:b] for a, b in preamble_span(t)]
    ['Based on the provided data, here is an overview of Stitchworks:']
    """
    end = 0
    c = _COURTESY.match(text)
    if c:
        end = c.end()
    lead = _LEAD_COMMA.match(_plain(text), end)
    h = _HERE_IS.match(text, lead.end() if lead else end)
    if h and (h.group().rstrip().endswith(":") or text[h.end():h.end() + 3].strip() == ""
              or "\n" in text[h.end():h.end() + 3]):
        end = h.end()
    if end == 0:
        return ()
    start = len(text) - len(text.lstrip())
    return ((start, end),)


def source_spans(text: str, sents: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Abstaining sentences, attribution phrases and the response's preamble together,
    in text order."""
    return tuple(sorted((*abstention_sentences(text, sents), *attribution_spans(text),
                         *preamble_span(text))))


#: A source's title line as retrieved web passages give it: its title, then its web address
#: in parentheses ("How Squinting Helps You See Better | WIRED (www.wired.com)").
_TITLE_LINE = re.compile(
    r"(?m)^[ \t]*((?:[^\n()]|\([^\n()]{0,60}\)){0,200}?)[ \t]*"
    r"\((?:https?://)?(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)"
    r"(?:/[^\s()]*)?\)[ \t]*$", re.IGNORECASE)
#: What separates a page's title from its site's name: "Nausea | Healthline", "Why - wikiHow".
_TITLE_PARTS = re.compile(r"\s+[|\u00bb\u2013\u2014-]\s+|\s*[|\u00bb\u2013\u2014]\s*")
#: Second-level labels under which a site's own label is the third: "bbc.co.uk".
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu"})
#: A site name as a response writes it: one to four words, each with a capital letter
#: ("WIRED", "Verywell Health", "Dr. Weil", "wikiHow", "Dictionary.com").
#: Bounded (four words a name, four names) and each word read one way: linear in long texts.
_SITE = (r"(?=[a-z]*[A-Z])[\w'\u2019.-]++(?:[ \t]+(?:(?=[A-Z])[\w'\u2019.-]++|of|the|at|in|on|"
         r"for|&)){0,3}")
#: What a response may call a site after its name: "the Waffles at Noon site".
_SITE_KIND = r"(?:site|website|blog)"
_SITE_CALLED = _SITE + r"(?:[ \t]+" + _SITE_KIND + r")?"
#: A later site of a list may take an article: "Snopes and the Waffles at Noon site".
_SITES = (_SITE_CALLED + r"(?:(?:,[ \t]*|[ \t]+)(?:and|&)[ \t]+(?:the[ \t]+)?" + _SITE_CALLED
          + r"|,[ \t]*(?:the[ \t]+)?" + _SITE_CALLED + r"){0,3}")
_SITE_ATTRIBUTION = re.compile(
    r"\b(?:[Aa]ccording[ \t]+to|[Aa]s[ \t]+(?:stated|noted|explained|described|reported)[ \t]+by"
    r"|[Pp]er)[ \t]+(" + _SITES + r")"                                 # according to WIRED
    r"|\b[Aa]s[ \t]+(" + _SITES + r")[ \t]+(?:puts?|says?|notes?|explains?)\b(?:[ \t]+it)?"
    r"|(?:^|(?<=[.!?:;,\n(])|(?<=\s))(" + _SITES + r")[ \t]+(?:(?:also|likewise|both|similarly|"
    r"further|instead|too|meanwhile|separately)[ \t]+)?(?:" + _REPORT + r"|recommends?|advises?|"
    r"agrees?|defines?|lists?|calls?|puts?[ \t]+it(?:[ \t]+[a-z]+ly)?|goes?[ \t]+further|"
    r"(?:gives?|offers?|provides?)[ \t]+an?[ \t]+"
    r"(?:[\w-]+[ \t]+){0,2}(?:explanation|account|answer|view|take|definition|description|"
    r"summary|overview))"
    r"\b(?:[ \t]+that)?"
    r"|(?:^|(?<=[\s(]))((?=[a-z]*[A-Z])[\w.-]++(?:[ \t]+(?=[A-Z])[\w.-]++){0,3})"
    r"(?=['\u2019]s\b)"                                             # Microsoft's Junk Email Filter
    r"|\b(?:from|at|on)[ \t]+(" + _SITE + r")\b(?![ \t]*['\u2019])"   # a guide from WebMD
    r"|\b(?:[Aa]n?|[Oo]ne|[Aa]nother|[Tt]he)[ \t]+(" + _SITE + r")[ \t]+(?:poster|answer|user|"
    r"commenter|contributor|article|page|post|writer|author|guide|piece|entry|thread|reply|"
    + _SITE_KIND + r")"
    r"[ \t]+(?:also[ \t]+)?(?:" + _REPORT + r"|recommends?|advises?|lists?|calls?)\b"
    r"(?:[ \t]+that)?")                                 # another Physics Forums answer says


#: A listed site's article and kind word, which its name is read without.
_LISTED_WORDS = re.compile(r"^the\s+|\s+" + _SITE_KIND + r"$", re.IGNORECASE)


def _squeeze(name: str) -> str:
    """A name's letters and digits, lower-cased: "Dr. Weil" -> "drweil"."""
    return "".join(c for c in name.lower() if c.isalnum())


def site_names(context: str) -> frozenset[str]:
    """The names of the web sites whose passages the context gives, squeezed
    (:func:`_squeeze`): each title line's web address without its top-level domain, and
    the last part of its title after a separator when it is short (the site's name, not
    the page's: *Germany* in *Germany - Wikipedia* names no site). A title may hold words
    in brackets (*The Real (and Very Normal) Reason*).

    >>> sorted(site_names("How Squinting Helps | WIRED (www.wired.com)\\nLight bends.\\n"
    ...                   "Nausea at Night - Andrew Weil, M.D. (www.drweil.com)\\nLie down.\\n"
    ...                   "Germany - Wikipedia (en.wikipedia.org)\\nIt is in Europe."))
    ['andrewweilmd', 'drweil', 'wikipedia', 'wired']
    >>> site_names("It costs $5 (see www.shop.com).")
    frozenset()
    >>> sorted(site_names("The Real (and Very Normal) Reason (www.realsimple.com)\\nRest."))
    ['realsimple']
    """
    if "(" not in context:
        return frozenset()
    out = set()
    for m in _TITLE_LINE.finditer(context):
        labels = m.group(2).lower().split(".")
        own = labels[-3] if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL else labels[-2]
        out.add(_squeeze(own))
        parts = _TITLE_PARTS.split(m.group(1))
        if len(parts) > 1 and 0 < len(parts[-1].split()) <= 5:
            out.add(_squeeze(parts[-1]))
    out.discard("")
    return frozenset(out)


def _is_site(name: str, sites: frozenset[str]) -> bool:
    """Whether ``name`` (its article and kind word left off) names one of ``sites``: as
    squeezed, without its top-level domain, with the article the address writes (*The Hill*
    for *thehill.com*), by its initials as an address writes them (*New York Times* for
    *nytimes.com*: :func:`initials`), or as the first word of an address of one more word
    (*Verywell* for *verywellhealth.com*, six letters or more: *Health* names no site).

    >>> sites = frozenset({"thehill", "verywellhealth", "wired", "nytimes"})
    >>> [_is_site(n, sites) for n in ("Hill", "Verywell", "WIRED.com", "Very", "Health")]
    [True, True, True, False, False]
    >>> [_is_site(n, sites) for n in ("New York Times", "New York Post", "York Times")]
    [True, False, False]
    """
    key = _squeeze(name)
    if key in sites or _squeeze(re.sub(r"\.[a-z]{2,4}$", "", name)) in sites \
            or "the" + key in sites or not initials(name).isdisjoint(sites):
        return True
    return len(key) >= 6 and any(s.startswith(key) and len(s) - len(key) >= 3 for s in sites)


def initials(name: str) -> frozenset[str]:
    """The ways a web address writes a name of two words or more by its initials, lower
    case: the initials of all but its last word before that word (*nytimes* for *New York
    Times*, *latimes* for *Los Angeles Times*) and, from three words, all its initials
    (*wsj* for *Wall Street Journal*).

    >>> sorted(initials("New York Times")), sorted(initials("Real Simple")), initials("WIRED")
    (['nyt', 'nytimes'], ['rsimple'], frozenset())
    """
    words = re.findall(r"[^\W_]+", name.lower())
    if len(words) < 2:
        return frozenset()
    out = {"".join(w[0] for w in words[:-1]) + words[-1]}
    if len(words) >= 3:
        out.add("".join(w[0] for w in words))
    return frozenset(out)


def site_attributions(text: str, sites: frozenset[str]) -> tuple[tuple[int, int], ...]:
    """Phrases that attribute what follows to web sites the context's passages come from
    (*According to WIRED*, *Verywell Health and Dr. Weil both suggest*, *as Dictionary.com
    puts it*), and a site's name as the owner or the place of what the response describes
    (*Microsoft's Junk Email Filter*, *a guide from WebMD*): each named site must be one of
    ``sites`` (:func:`site_names`), read with or without its top-level domain. Statements
    about the sources, as :func:`attribution_spans` are; a name the context does not give as
    a source's is checked as any name. *Puts it* and *goes further* say what a site says
    (*Atheist Republic puts it bluntly*).

    >>> sites = frozenset({"wired", "verywellhealth", "drweil", "webmd", "dictionary"})
    >>> t = ("According to WIRED, light scatters. Verywell Health and Dr. Weil both suggest "
    ...      "rest. WebMD notes that it helps, as Dictionary.com puts it. According to Dr. "
    ...      "Smith, it rained.")
    >>> [t[a:b] for a, b in site_attributions(t, sites)]
    ['According to WIRED', 'Verywell Health and Dr. Weil both suggest', 'WebMD notes that', \
'as Dictionary.com puts it']
    >>> t = "Atheist Republic puts it bluntly. Lifehack goes further: rest. Smith puts it away."
    >>> [t[a:b] for a, b in site_attributions(t, frozenset({"atheistrepublic", "lifehack"}))]
    ['Atheist Republic puts it bluntly', 'Lifehack goes further']
    >>> t = "WIRED's test and a guide from WebMD agree; Smith's does not."
    >>> [t[a:b] for a, b in site_attributions(t, sites)]
    ['WIRED', 'from WebMD']
    >>> t = "CBS also says it is rare. NBC says so. The New York Times notes it."
    >>> [t[a:b] for a, b in site_attributions(t, frozenset({"cbsnews", "nytimes"}))]
    ['CBS also says', 'The New York Times notes']
    """
    if not sites:
        return ()
    out = []
    for m in _SITE_ATTRIBUTION.finditer(text):
        names = next(g for g in m.groups() if g is not None)
        parts = [_LISTED_WORDS.sub("", p) for p in
                 re.split(r"\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+", names) if p]
        if parts and all(_is_site(p, sites) or _news_acronym(p, sites) for p in parts):
            out.append((m.start(), m.end()))
    return tuple(out)


def _news_acronym(name: str, sites: frozenset[str]) -> bool:
    """Whether ``name`` is an acronym of three letters or more that, with *news*, is one of
    ``sites``: the network a response says something of (*CBS also says* of *cbsnews.com*).

    >>> sites = frozenset({"cbsnews", "nbcnews"})
    >>> [_news_acronym(n, sites) for n in ("CBS", "Cbs", "NB", "NBC", "ABC")]
    [True, False, False, True, False]
    """
    return name.isupper() and len(key := _squeeze(name)) >= 3 and key + "news" in sites


#: What a response calls a site's page or the person writing on it, after the site's name
#: (*the Tom's Guide poster*, *the NBC piece*, *a physics forum post*).
_MENTION_KIND = (r"(?:poster|answer|user|commenter|contributor|article|page|post|writer|author|"
                 r"guide|piece|entry|thread|reply|site|website|blog|forum|report|story|"
                 r"explainer|column|FAQ)s?")
#: A site's name as a response writes it: a run of one to four words with a capital letter
#: (*The Hill*, *Tom's Guide*, *Scripps Research La Jolla*, *HuffPost*), or one to three
#: lower-case words before a kind word (*a physics forum post*). Each word read one way.
_SITE_MENTION = re.compile(
    r"(?<![\w'\u2019.&-])((?=[\w'\u2019.&-]*[A-Z])[\w'\u2019.&-]++"
    r"(?:[ \t]+(?=[\w'\u2019.&-]*[A-Z])[\w'\u2019.&-]++){0,3})"
    r"(?:[ \t]+" + _MENTION_KIND + r"\b)?")
_LOWER_WORD = re.compile(r"(?<![\w'\u2019.&-])[a-z][\w-]*")
_KIND_WORD = re.compile(_MENTION_KIND)


def opens_site(key: str, sites: frozenset[str], shortest: int = 5) -> bool:
    """Whether ``key`` (a name's words written as one, lower case) of ``shortest`` letters
    or more opens the label of one of ``sites`` (*usahockey* of *usahockeyrulebook.com*).

    >>> opens_site("usahockey", frozenset({"usahockeyrulebook"})), opens_site("usa", frozenset(
    ...     {"usahockeyrulebook"})), opens_site("nbc", frozenset({"nbcnews"}), shortest=3)
    (True, False, True)
    """
    return len(key) >= shortest and any(s.startswith(key) for s in sites)


def _names_site(words: Sequence[str], sites: frozenset[str], kind: bool) -> bool:
    """Whether ``words`` name one of ``sites`` (:func:`_is_site`), or as its plural label
    (*physics forum* of *physicsforums.com*), or open its label (:func:`opens_site`: *Scripps
    Research* of *scrippsresearchlajolla.com*; an acronym of three before a kind word, *the
    NBC piece* of *nbcnews.com*)."""
    name = " ".join(words)
    key = _squeeze(name)
    return (_is_site(name, sites) or key + "s" in sites
            or opens_site(key, sites, shortest=3 if kind and name.isupper() else 5))


def site_mentions(text: str, sites: frozenset[str]) -> tuple[tuple[int, int], ...]:
    """A web site the context's passages come from, named wherever a response names it as
    its source (*The Hill puts the tariffs at ...*, *the Tom's Guide poster used a 3 TB
    drive*, *a physics forum post lists ...*): the name and the kind word after it, which
    say where the claim comes from, not what it says. The rest of the claim is checked as
    any claim. A run of capitalised words is read from each of its words on (*In Washington
    State*: a site named *Washington State*); ``sites`` as :func:`site_names` reads them.

    >>> sites = frozenset({"thehill", "tomsguide", "physicsforums", "nbcnews",
    ...                    "scrippsresearchlajolla"})
    >>> t = ("The Hill puts the tariffs at $2 billion. The Tom's Guide poster used a 3 TB "
    ...      "drive, and a physics forum post lists a factor. The NBC piece adds that "
    ...      "Scripps Research says so. Hill Street and NBC agree; a forum post says no.")
    >>> [t[a:b] for a, b in site_mentions(t, sites)]
    ['The Hill', "Tom's Guide poster", 'physics forum post', 'NBC piece', 'Scripps Research']
    """
    if not sites:
        return ()
    out = []
    for m in _SITE_MENTION.finditer(text):
        words = m.group(1).split()
        kind = m.end() > m.end(1)
        at = m.start()
        for k, word in enumerate(words):
            at = text.index(word, at)
            if _names_site([w.rstrip(".,") for w in words[k:]], sites, kind):
                out.append((at, m.end()))
                break
            at += len(word)
    words = [(w.start(), w.end()) for w in _LOWER_WORD.finditer(text)]
    for i in range(len(words)):
        for n in (3, 2, 1):  # lower-case, before a kind word: "a physics forum post"
            run = words[i:i + n + 1]
            if len(run) == n + 1 and _KIND_WORD.fullmatch(text[slice(*run[-1])]) \
                    and all(text[a[1]:b[0]].isspace() for a, b in itertools.pairwise(run)) \
                    and _names_site([text[a:b] for a, b in run[:-1]], sites, True):
                out.append((run[0][0], run[-1][1]))
                break
    return tuple(sorted(out))


def inside(spans: Sequence[tuple[int, int]], pos: int) -> bool:
    """Whether ``pos`` falls in one of ``spans``.

    >>> inside([(0, 5), (10, 12)], 11), inside([(0, 5)], 5)
    (True, False)
    """
    return any(lo <= pos < hi for lo, hi in spans)
