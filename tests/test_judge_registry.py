"""The module registry: every module of the spec, as data, and its validation."""

import pytest

from evaltools.errors import ConfigError
from evaltools.judging.registry import default_registry_text, load_registry, parse_registry

SPEC_TYPES = {
    "M01": "extraction", "M01a": "extraction", "M01b": "extraction",
    "M02": "classification", "M04": "boolean", "M05": "extraction", "M06": "extraction",
    "M07": "extraction", "M08": "extraction", "M09": "extraction", "M11": "extraction",
    "M12": "boolean", "M12b": "classification", "M13": "boolean", "M14": "boolean",
    "M15": "boolean", "M16": "boolean",
}

# First and last rule name of each module, as the spec lists them.
SPEC_RULES = {
    "M01": ("Include Original Brand", "Reasonable Count"),
    "M01a": ("Case Variations", "No Invented Brands"),
    "M01b": ("Brand Association", "Relevant to Product"),
    "M02": ("Correct Label", "Partial Match"),
    "M04": ("Competitor Identification", "Brand Variations"),
    "M05": ("No Brand Terms", "No Over-Filtering"),
    "M06": ("Hierarchy Levels", "No Duplicates"),
    "M07": ("Correct Categories", "Complete Extraction"),
    "M08": ("Relevance Ordering", "Reasonable Distribution"),
    "M09": ("Single Primary Use", "Not Too Broad"),
    "M11": ("Deal-Breakers Only", "Not Preferences"),
    "M12": ("Constraint Violation", "Clear Reasoning"),
    "M12b": ("Correct R/S/C/N Label", "Complete Reasoning"),
    "M13": ("Brand Implies Type", "Taxonomy Level 1"),
    "M14": ("Same Type Required", "Audience Consideration"),
    "M15": ("Same Primary Use", "Quality Tier"),
    "M16": ("Co-Purchase Pattern", "Actual Bundle Logic"),
}


def test_all_seventeen_modules_with_their_types_in_spec_order():
    reg = load_registry()
    assert list(reg.modules) == list(SPEC_TYPES)
    assert {m: reg.module(m).type for m in reg.modules} == SPEC_TYPES


@pytest.mark.parametrize("mid", list(SPEC_RULES))
def test_four_rules_named_and_described_as_in_the_spec(mid):
    m = load_registry().module(mid)
    assert len(m.rules) == 4
    assert (m.rules[0].name, m.rules[-1].name) == SPEC_RULES[mid]
    assert all(r.description for r in m.rules)


def test_label_sets_groups_and_normalisation():
    reg = load_registry()
    assert reg.module("M02").labels == ("OWN", "COMPETITOR", "NONE")
    assert reg.module("M12b").labels == ("R", "S", "C", "N")
    assert dict(reg.module("M02").groups) == {"branded": ("OWN", "COMPETITOR")}
    assert dict(reg.module("M12b").groups) == {}
    assert reg.module("M01a").case_sensitive
    assert not any(reg.module(m).case_sensitive for m in reg.modules if m != "M01a")
    assert reg.module("M08").items == "ranked"
    assert reg.module("M01").rules[1].description == "Must include spelling/case variations"


def test_thresholds_are_named_data():
    s = load_registry().settings
    assert (s.correctness.exact, s.correctness.partial, s.correctness.none) == (40, 20, 0)
    assert (s.correctness.full_credit_f1, s.correctness.partial_credit_f1) == (0.8, 0.5)
    assert (s.verdict.pass_at, s.verdict.cap_when_incorrect, s.verdict.max_total) == (70, 60, 100)
    assert (s.rules.points_per_rule, s.rules.max_points) == (10, 40)
    assert [b.start for b in s.reasoning.bands] == [20, 15, 10, 5, 0]
    assert {sub.name: sub.max for sub in s.reasoning.subscores} == {
        "chain_of_thought": 8, "evidence_usage": 8, "confidence_calibration": 4}


def test_unknown_module_names_the_known_ones():
    with pytest.raises(KeyError, match=r"unknown module 'M03'.*M01, M01a"):
        load_registry().module("M03")


def test_a_module_is_added_by_editing_the_data_file_only():
    text = default_registry_text() + '''
[modules.M17]
name = "Gift Check"
type = "boolean"
rules = [
  { name = "A", description = "a" }, { name = "B", description = "b" },
  { name = "C", description = "c" }, { name = "D", description = "d" },
]
'''
    reg = parse_registry(text)
    assert reg.module("M17").type == "boolean"
    from evaltools.judging import judge

    r = judge({"module": "M17", "output": "yes", "expected": True, "rules": [True] * 4},
              registry=reg)
    assert (r.total_score, r.module_type) == (80, "boolean")


@pytest.mark.parametrize("old,new,message", [
    ('type = "boolean"\n\n[[modules.M04.rules]]', 'type = "bool"\n\n[[modules.M04.rules]]',
     "type must be one of"),
    ('check = "no_duplicates"', 'check = "no_dupes"', "unknown check 'no_dupes'"),
    ('check = "label_in_set"', 'check = "no_duplicates"', "applies to extraction"),
    ("pass_at = 70", 'pass_at = "70"', "pass_at' must be a number"),
    ('labels = ["R", "S", "C", "N"]', "labels = []", "needs labels"),
    ("max_total = 100", "max_total = 90", "max_total must be the sum"),
    ('name = "No Duplicates"', 'nom = "No Duplicates"', "key 'name' is missing"),
])
def test_a_broken_registry_file_is_a_config_error(old, new, message):
    text = default_registry_text()
    assert old in text
    with pytest.raises(ConfigError, match=message):
        parse_registry(text.replace(old, new, 1), source="mine.toml")


def test_a_module_needs_exactly_four_rules():
    text = default_registry_text()
    cut = text.index("[[modules.M16.rules]]\nname = \"Actual Bundle Logic\"")
    with pytest.raises(ConfigError, match=r"M16\].*exactly 4 rules, has 3"):
        parse_registry(text[:cut])


def test_load_registry_from_a_file(tmp_path):
    p = tmp_path / "reg.toml"
    p.write_text(default_registry_text().replace("pass_at = 70", "pass_at = 75"), "utf-8")
    assert load_registry(p).settings.verdict.pass_at == 75
    with pytest.raises(ConfigError, match="not found"):
        load_registry(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_text("[judge", "utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_registry(tmp_path / "bad.toml")
