"""Flat memory: every parse batch runs in spaCy's memory zone; features outlive it as plain data."""

import dataclasses

from evaltools.config import DEFAULT_CONFIG
from evaltools.scoring.features import FeatureCache
from evaltools.scoring.stream import score_stream


def _new_texts(tag: str, n: int) -> list[str]:
    return [f"The Qz{tag}{i}x kettle from Vbl{tag}{i}town costs ${i}.99 and ships on "
            f"May {1 + i % 28}." for i in range(n)]


def _spacy_objects(obj, seen=None) -> list[str]:
    """Types from spaCy or thinc reachable through dataclass fields, slots and containers."""
    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None))):
        return []
    seen.add(id(obj))
    mod = type(obj).__module__ or ""
    if mod.startswith(("spacy", "thinc")):
        return [f"{mod}.{type(obj).__name__}"]
    if isinstance(obj, dict):
        children = [*obj.keys(), *obj.values()]
    elif isinstance(obj, (list, tuple, set, frozenset)):
        children = list(obj)
    elif dataclasses.is_dataclass(obj):
        children = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
    else:
        slots = [s for k in type(obj).__mro__ for s in getattr(k, "__slots__", ())]
        children = [getattr(obj, s) for s in slots if hasattr(obj, s)]
        children += list(getattr(obj, "__dict__", {}).values())
    return [t for c in children for t in _spacy_objects(c, seen)]


def test_parsing_new_words_leaves_the_string_store_as_it_was(nlp):
    nlp("warm up the pipeline's own strings")
    before = len(nlp.vocab.strings)
    nlp(" ".join(_new_texts("out", 20)))  # outside a zone, new words stay for good
    grown = len(nlp.vocab.strings)
    assert grown > before

    cache = FeatureCache(nlp, DEFAULT_CONFIG)
    texts = _new_texts("in", 200)
    cache.prepare((role, t) for t in texts for role in FeatureCache.ROLES)
    assert cache.parsed == 200
    assert len(nlp.vocab.strings) == grown


def test_cached_features_hold_no_spacy_objects_and_score_after_the_zone(nlp):
    cache = FeatureCache(nlp, DEFAULT_CONFIG)
    texts = _new_texts("feat", 5)
    cache.prepare((role, t) for t in texts for role in FeatureCache.ROLES)
    for role in FeatureCache.ROLES:
        for t in texts:
            assert _spacy_objects(cache.get(role, t)) == []
    recs = [(i + 1, {"query": f"What does the Qzfeat{i}x kettle cost?", "context": t,
                     "response": t}) for i, t in enumerate(texts)]
    results = [r for *_, r in score_stream(recs, cache=cache)]
    assert [r.anchors_unsupported for r in results] == [0] * 5  # the response is the context
    assert all(r.anchors_total >= 2 for r in results)
