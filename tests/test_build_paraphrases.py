"""scripts/build_paraphrases.py on a hand-made fragment of WordNet's database files."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import build_paraphrases  # noqa: E402


def _dict_dir(tmp_path: Path) -> Path:
    # lexnames: file number, name, part of speech
    (tmp_path / "lexnames").write_text("06\tnoun.artifact\t1\n07\tnoun.attribute\t1\n"
                                       "09\tnoun.cognition\t1\n", encoding="latin-1")
    # index.noun: lemma pos synset_cnt p_cnt sense_cnt tagsense_cnt offsets (most frequent first)
    (tmp_path / "index.noun").write_text(
        "  1 this is a licence line\n"
        "hindsight n 1 0 1 0 00000001\n"
        "sauna n 1 0 1 0 00000002\n"
        "warmth n 2 0 2 0 00000003 00000004\n"
        "patch n 2 0 2 0 00000004 00000003\n", encoding="latin-1")
    # data.noun: offset lex_filenum ss_type w_cnt word lex_id p_cnt | gloss
    (tmp_path / "data.noun").write_text(
        "  1 this is a licence line\n"
        "00000001 09 n 01 hindsight 0 000 | understanding after the fact\n"
        "00000002 06 n 01 sauna 0 000 | a room heated to make you sweat\n"
        "00000003 07 n 01 warmth 0 000 | the quality of being warm\n"
        "00000004 06 n 01 patch 0 000 | a piece of cloth\n", encoding="latin-1")
    return tmp_path


def test_abstract_nouns_are_those_whose_first_sense_is_an_abstract_file(tmp_path):
    """hindsight (cognition) and warmth (first sense an attribute) are abstract; sauna (an
    artifact) is not, nor patch, whose first sense is an artifact though its second is the
    attribute of warmth's first."""
    d = _dict_dir(tmp_path)
    assert build_paraphrases.abstract_nouns(d, 0.0, 8.0) == ["hindsight", "warmth"]
    # the Zipf window applies as to every table: hindsight is Zipf 3.3, warmth 3.8
    assert build_paraphrases.abstract_nouns(d, 3.5, 8.0) == ["warmth"]


def test_ing_things_are_the_ing_nouns_whose_first_sense_is_no_act(tmp_path):
    """painting (first sense an artifact) is a thing; booking (an act) is not, nor is
    sighting, whose first sense is an act though its second is an artifact's; sauna does not
    end in -ing."""
    (tmp_path / "lexnames").write_text("04\tnoun.act\t1\n06\tnoun.artifact\t1\n",
                                       encoding="latin-1")
    (tmp_path / "index.noun").write_text(
        "  1 this is a licence line\n"
        "painting n 1 0 1 0 00000001\n"
        "booking n 1 0 1 0 00000002\n"
        "sighting n 2 0 2 0 00000002 00000001\n"
        "sauna n 1 0 1 0 00000003\n", encoding="latin-1")
    (tmp_path / "data.noun").write_text(
        "  1 this is a licence line\n"
        "00000001 06 n 01 painting 0 000 | a picture\n"
        "00000002 04 n 01 booking 0 000 | the act of reserving\n"
        "00000003 06 n 01 sauna 0 000 | a room heated to make you sweat\n", encoding="latin-1")
    assert build_paraphrases.ing_things(tmp_path) == ["painting"]


def test_not_nouns_are_adjectives_and_verbs_with_their_forms_that_no_noun_spells(tmp_path):
    """curt and pricey (adjectives), diagnose (a verb) and their regular forms are no
    nouns; calm is an adjective and a noun, so only its comparative is listed; cool is an
    adjective, but cooler is a noun (an ice chest), so cool and coolest are listed and cooler
    is not; forms wordfreq does not know (curtest has Zipf 0) are left out."""
    (tmp_path / "index.noun").write_text(
        "  1 this is a licence line\n"
        "calm n 1 0 1 0 00000001\n"
        "cooler n 1 0 1 0 00000002\n", encoding="latin-1")
    (tmp_path / "index.adj").write_text(
        "  1 this is a licence line\n"
        "curt a 1 0 1 0 00000003\n"
        "pricey a 1 0 1 0 00000004\n"
        "calm a 1 0 1 0 00000005\n"
        "cool a 1 0 1 0 00000006\n", encoding="latin-1")
    (tmp_path / "index.adv").write_text("  1 this is a licence line\n", encoding="latin-1")
    (tmp_path / "index.verb").write_text(
        "  1 this is a licence line\n"
        "diagnose v 1 0 1 0 00000007\n", encoding="latin-1")
    got = set(build_paraphrases.not_nouns(tmp_path, 8.0))
    assert {"curt", "pricey", "pricier", "calmer", "diagnose", "diagnosed",
            "diagnoses", "coolest"} <= got
    assert not {"calm", "cooler", "curtest"} & got
    # the Zipf window: cool is Zipf 5.2
    assert "cool" not in build_paraphrases.not_nouns(tmp_path, 5.0)



def test_lower_words_are_those_wordnet_never_capitalises(tmp_path):
    """turnaround and presenter are written in lower case wherever WordNet holds them; wales
    is also the place Wales, so it is left out; a phrase (grand_jury) is no single word, and
    an adjective's position marker (big(a)) is dropped."""
    (tmp_path / "data.noun").write_text(
        "  1 this is a licence line\n"
        "00000001 04 n 01 turnaround 0 000 | time for a round trip\n"
        "00000002 18 n 01 presenter 0 000 | someone who presents\n"
        "00000003 06 n 01 wale 0 000 | a raised stripe\n"
        "00000004 06 n 01 wales 0 000 | raised stripes\n"
        "00000005 15 n 01 Wales 0 000 | a region of Britain\n"
        "00000006 14 n 01 grand_jury 0 000 | a jury\n", encoding="latin-1")
    (tmp_path / "data.adj").write_text(
        "  1 this is a licence line\n"
        "00000007 00 a 01 big(a) 0 000 | large\n", encoding="latin-1")
    assert build_paraphrases.lower_words(tmp_path, 0.0) == [
        "big", "presenter", "turnaround", "wale"]
    # the Zipf floor applies as to every table: wale is Zipf 2.7, turnaround 3.4
    assert build_paraphrases.lower_words(tmp_path, 3.0) == ["big", "presenter", "turnaround"]
