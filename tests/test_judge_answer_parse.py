"""The tolerant parse of an LLM judge's answer, the rate limit and the backoff, by hand."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.config import DEFAULT_CONFIG, load_config
from evaltools.errors import ConfigError
from evaltools.judging.answer_parse import read_answer
from evaltools.judging.llm_client import RateLimiter, backoff_delay


@pytest.mark.parametrize("text, obj, repairs", [
    ('{"a": 1}', {"a": 1}, []),
    ('  \ufeff{"a": 1}\n', {"a": 1}, []),
    ('```json\n{"a": 1}\n```', {"a": 1}, ["code fence"]),
    ('```\n{"a": 1}\n```', {"a": 1}, ["code fence"]),
    ('Sure!\n```json\n{"a": "x}y"}\n```\nHope this helps.', {"a": "x}y"}, ["code fence"]),
    ('```python\nprint(1)\n```\n```json\n{"a": 1}\n```', {"a": 1}, ["code fence"]),
    ('```json\n{"a": 1}', {"a": 1}, ["code fence"]),                     # fence never closed
    ('My evaluation: {"a": 1}', {"a": 1}, ["text before the JSON"]),
    ('{"a": 1} I hope this helps {"b": 2}', {"a": 1}, ["text after the JSON"]),
    ('{"a": [1, 2,], "b": 3,}', {"a": [1, 2], "b": 3}, ["trailing comma"]),
    ('{"a": "1,}"}', {"a": "1,}"}, []),                                  # inside a string
    ('{"a": "q\\"}", "b": 2}', {"a": 'q"}', "b": 2}, []),                 # escaped quote
    ('{"a": 1, "b": {"c": 2, "d', {"a": 1, "b": {"c": 2}},
     ["truncated: cut back to the last complete value"]),
    ('{"a": 1, "b": 12', {"a": 1}, ["truncated: cut back to the last complete value"]),
    ('{"a": 1, "b": 12 ', {"a": 1, "b": 12}, ["truncated: cut back to the last complete value"]),
    ('{"a": [1, 2, {"x": tr', {"a": [1, 2, {}]},
     ["truncated: cut back to the last complete value"]),
    ('{"a": "unfinished str', {}, ["truncated: cut back to the last complete value"]),
    ('{"a": 1,', {"a": 1}, ["truncated: cut back to the last complete value"]),
    ("{", {}, ["truncated: cut back to the last complete value"]),
    ('```json\n{"e": "see ```x```"}\n```', {"e": "see ```x```"}, ["code fence"]),
])
def test_what_is_read(text, obj, repairs):
    a = read_answer(text)
    assert (a.obj, list(a.repairs), a.error) == (obj, repairs, None)


@pytest.mark.parametrize("text, error", [
    ("", "the answer is empty"),
    ("   \n", "the answer is empty"),
    ("PASS, score 85", "no JSON object in the answer"),
    ("[1, 2]", "no JSON object in the answer"),
    ("{'a': 1}", "Expecting property name enclosed in double quotes at line 1 column 2"),
    ('{"a": 1 /* note */}', "Expecting ',' delimiter at line 1 column 9"),
    ('{"a": yes}', "Expecting value at line 1 column 7"),
])
def test_what_is_not_read(text, error):
    a = read_answer(text)
    assert (a.obj, a.error) == (None, error)


def test_not_text():
    assert read_answer(None).error == "the answer is NoneType, not text"


JSONS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids,
                                                              max_size=4),
    max_leaves=20)
OBJECTS = st.dictionaries(st.text(max_size=6), JSONS, max_size=5)


@settings(max_examples=200, deadline=None)
@given(OBJECTS, st.sampled_from(["{}", "```json\n{}\n```", "Answer: {} Done.", "```\n{}"]),
       st.booleans())
def test_an_object_is_read_back_whatever_wraps_it(obj, wrapper, indent):
    text = json.dumps(obj, indent=2 if indent else None)
    assert read_answer(wrapper.replace("{}", text)).obj == obj


@settings(max_examples=200, deadline=None)
@given(OBJECTS, st.data())
def test_a_truncated_object_never_crashes_and_never_invents(obj, data):
    text = json.dumps(obj)
    cut = data.draw(st.integers(1, max(1, len(text) - 1)))
    a = read_answer(text[:cut])
    assert (a.obj is None) != (a.error is None)
    if a.obj is not None:   # every top-level key kept holds a value the answer had, or a part
        assert set(a.obj) <= set(obj)
        for k, v in a.obj.items():
            if not isinstance(v, (dict, list)):
                assert v == obj[k]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_an_object_or_an_error(text):
    a = read_answer(text)
    assert (a.obj is None) != (a.error is None)
    assert a.obj is None or isinstance(a.obj, dict)


def test_rate_limiter_waits_by_hand():
    now = [0.0]
    rl = RateLimiter(3, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    waits = []
    for t in (0.0, 10.0, 20.0, 25.0, 30.0):
        now[0] = max(now[0], t)
        waits.append(rl.acquire())
    # starts at 0, 10, 20; the 4th (t=25) waits for t=60 (0 + 60), the 5th for t=70
    assert waits == [0.0, 0.0, 0.0, 35.0, 10.0]
    assert now[0] == 70.0


def test_backoff_by_hand():
    class Top(random.Random):
        def uniform(self, a, b):
            return b

    assert [backoff_delay(n, base=1.0, cap=30.0, rng=Top()) for n in range(7)] == \
        [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert backoff_delay(0, base=1.0, cap=30.0, retry_after=120.0) == 30.0
    rng = random.Random(1)
    assert all(2.0 <= backoff_delay(1, base=2.0, cap=30.0, rng=rng) <= 4.0 for _ in range(50))


def test_llm_config_and_prices(tmp_path):
    assert DEFAULT_CONFIG.llm.temperature == 0.0 and DEFAULT_CONFIG.llm.response_format == \
        "json_schema"
    assert "llm" not in DEFAULT_CONFIG.to_dict()   # reports show scoring settings only
    p = tmp_path / "c.toml"
    p.write_text('[llm]\nconcurrency = 8\n[llm.prices]\n"local" = { input = 0, output = 0 }\n')
    cfg = load_config(p)
    assert cfg.llm.concurrency == 8 and cfg.llm.price("local") == (0.0, 0.0)
    assert cfg.llm.price("gpt-4o-mini") is None   # a user's table replaces the shipped one
    hash(cfg)
    for text, msg in [('[llm.prices]\n"m" = { input = -1, output = 0 }\n', "must be {input"),
                      ('[llm.prices]\n"m" = 3\n', "must be {input"),
                      ('[llm]\nresponse_format = "xml"\n', "response_format must be one of"),
                      ("[llm]\nconcurrency = 0\n", "concurrency must be a whole number"),
                      ("[llm]\ntimeout = 0\n", "timeout must be a float")]:
        p.write_text(text)
        with pytest.raises(ConfigError, match=msg.replace("{", r"\{")):
            load_config(p)
