"""Static word vectors as paraphrases (evaltools.scoring.word_vectors, config
``grounding.paraphrase_cosine``): read offline from wordllama's wheel, a word's vector
computed by hand from the shipped files, the cosine rule, and a supported and an
unsupported case through the one scorer with the grounding's credit hand-computed."""

import socket
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.config import load_config
from evaltools.errors import ConfigError
from evaltools.scoring import word_vectors
from evaltools.scoring.matcher import ANTONYMS, SentenceIndex, rarity, words_of
from evaltools.text import load_pipeline

ON, OFF = {"paraphrase_cosine": 0.5}, {"paraphrase_cosine": 0.0}


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def test_vectors_load_from_the_wheel_with_no_network(monkeypatch):
    def no_network(*args, **kwargs):
        raise OSError("no network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    word_vectors._table.cache_clear()
    word_vectors.vector.cache_clear()
    v = word_vectors.vector("purchased")
    assert v.shape == (256,) and float(v @ v) == pytest.approx(1.0, abs=1e-5)
    assert not v.flags.writeable  # shared through the cache


def test_a_words_vector_is_its_tokens_mean_scaled_to_one():
    import wordllama
    from safetensors import safe_open
    from tokenizers import Tokenizer

    home = Path(wordllama.__file__).parent
    with safe_open(str(home / word_vectors.WEIGHTS), framework="np") as f:
        table = f.get_tensor("embedding.weight").astype(np.float32)
    tok = Tokenizer.from_file(str(home / word_vectors.TOKENIZER))
    for word in ("fatalities", "toxic", "crackling"):
        ids = tok.encode(word, add_special_tokens=False).ids
        mean = table[ids].mean(axis=0)
        assert np.allclose(word_vectors.vector(word), mean / np.linalg.norm(mean), atol=1e-6)


def test_near_keeps_candidates_at_or_above_the_cosine_in_their_order(monkeypatch):
    # hand-made unit vectors: cos(buy, purchase) = 0.8, cos(buy, sell) = 0.6, cat 0
    vecs = {"buy": [1.0, 0.0], "purchase": [0.8, 0.6], "sell": [0.6, 0.8], "cat": [0.0, 1.0]}
    monkeypatch.setattr(word_vectors, "vector", lambda k: np.array(vecs[k]))
    word_vectors.matrix.cache_clear()  # rows of these hand-made vectors only, and after
    cands = ["sell", "cat", "purchase"]
    assert word_vectors.near("buy", cands, 0.6) == ("sell", "purchase")  # 0.6 is enough
    assert word_vectors.near("buy", cands, 0.7) == ("purchase",)
    assert word_vectors.near("buy", cands, 0.9) == ()
    assert word_vectors.near("buy", [], 0.5) == ()
    word_vectors.matrix.cache_clear()


def test_the_index_finds_near_words_but_not_antonyms_names_or_numbers(nlp):
    idx = SentenceIndex(nlp("Mold on bread is harmful. Parking is illegal. Mole said 12."))
    toxic = next(w for w in words_of(nlp("It is toxic.")) if w.key == "toxic")
    assert idx.paraphrase_positions(toxic) == ()  # WordNet's table has no toxic/harmful
    assert idx.paraphrase_positions(toxic, 0.5) == idx.positions("harmful")
    assert idx.paraphrase_positions(toxic, 0.7) == ()  # cos(toxic, harmful) is 0.596
    legal = next(w for w in words_of(nlp("It is legal.")) if w.key == "legal")
    assert "illegal" in ANTONYMS["legal"]
    assert float(word_vectors.vector("legal") @ word_vectors.vector("illegal")) > 0.8
    assert idx.paraphrase_positions(legal, 0.5) == ()  # close in vectors, and the opposite
    name = next(w for w in words_of(nlp("She met Barack Obama in Chicago.")) if w.text == "Obama")
    assert name.pos == "PROPN" and idx.paraphrase_positions(name, 0.1) == ()


def test_scorer_supports_a_near_word_in_claims_and_grounding(nlp):
    q, ctx = "Is mold dangerous?", "Mold on bread is harmful to eat."
    said = "Mold on bread is toxic."
    off = evaltools.score(q, ctx, said, config=load_config().replace(grounding=OFF))
    on = evaltools.score(q, ctx, said, config=load_config().replace(grounding=ON))
    assert [a.supported for a in off.anchors] == [False]
    assert [a.supported for a in on.anchors] == [True]
    # grounding, hand-computed: mold and bread found exactly (credit 1), toxic only as a
    # paraphrase (grounding.paraphrase_credit 0.8); "is" and "on" carry no content
    wm, wb, wt = rarity("mold"), rarity("bread"), rarity("toxic")
    assert off.support == pytest.approx((wm + wb) / (wm + wb + wt))
    assert on.support == pytest.approx((wm + wb + 0.8 * wt) / (wm + wb + wt))
    # the switch that turns every paraphrase off turns this one off too
    none = evaltools.score(q, ctx, said, config=load_config().replace(
        grounding={**ON, "paraphrase": False}))
    assert none.support == pytest.approx(off.support) and none.anchors_unsupported == 1


def test_scorer_keeps_an_antonym_unsupported(nlp):
    q, ctx = "Is it legal?", "Parking on the bridge is illegal."
    said = "Parking on the bridge is legal."
    on = evaltools.score(q, ctx, said, config=load_config().replace(grounding=ON))
    assert on.anchors_unsupported == 1
    assert "says 'illegal' where it says 'legal'" in on.anchors[0].note


def test_paraphrase_cosine_is_checked_as_a_setting():
    assert load_config().grounding.paraphrase_cosine == 0.5  # on by default
    with pytest.raises(ConfigError, match="paraphrase_cosine"):
        load_config().replace(grounding={"paraphrase_cosine": 1.5})


def _word(nlp, text, key):
    return next(w for w in words_of(nlp(text)) if w.key == key)


def test_related_words_are_not_paraphrases(nlp):
    cos = {(a, b): float(word_vectors.vector(a) @ word_vectors.vector(b))
           for a, b in (("shipwright", "shipbuilding"), ("expensive", "price"),
                        ("wife", "husband"), ("stable", "unstable"))}
    assert all(c >= 0.5 for c in cos.values()), cos  # each close enough on cosine alone
    # a shared token of the tokenizer ("▁ship") makes shipwright close to shipbuilding
    assert word_vectors.tokens("shipwright") & word_vectors.tokens("shipbuilding")
    idx = SentenceIndex(nlp("A shipbuilding yard. The price range is moderate. "
                            "Her husband spoke. The bridge is unstable."))
    for text, key in (("He was a shipwright.", "shipwright"),
                      ("The place is expensive.", "expensive"),  # ADJ; price is a NOUN
                      ("His wife spoke.", "wife"), ("The bridge is stable.", "stable")):
        assert idx.paraphrase_positions(_word(nlp, text, key), 0.5) == (), key


def test_opposed_pairs():
    from evaltools.scoring.matcher import opposed

    assert opposed("legal", "illegal") and opposed("illegal", "legal")  # ANTONYMS
    assert opposed("stable", "unstable") and opposed("honest", "dishonest")  # a prefix
    assert opposed("husband", "wife") and opposed("hundred", "million")  # one kind
    assert opposed("toxic", "toxic")  # the word itself
    assert not opposed("toxic", "harmful") and not opposed("ink", "k")  # "k" is too short


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30), st.lists(st.text(alphabet="abcdefghij", min_size=3, max_size=8),
                                      max_size=6, unique=True),
       st.floats(min_value=0.0, max_value=1.0))
def test_vectors_never_crash_and_stay_in_range(word, candidates, cosine):
    from evaltools.scoring.matcher import opposed

    v = word_vectors.vector(word)
    norm = float(np.linalg.norm(v))
    assert v.shape == (256,) and (norm == 0.0 or abs(norm - 1.0) < 1e-3)
    found = word_vectors.near(word, candidates, cosine)
    assert set(found) <= set(candidates)
    assert all(float(word_vectors.vector(c) @ v) >= cosine - 1e-6 for c in found)
    for c in candidates:
        assert opposed(word, c) == opposed(c, word)  # symmetric
