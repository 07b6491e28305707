"""benchmarks/devsets.py: a capped set keeps whole groups, and the groups it leaves out are the
held-out remainder (``begin_dev_rest.jsonl``)."""

from __future__ import annotations

from benchmark_module import load


def _records(groups: str) -> list[dict]:
    return [{"id": str(i), "group": g} for i, g in enumerate(groups)]


def test_cap_keeps_whole_groups_and_the_rest_is_the_other_groups():
    devsets = load("devsets")
    records = _records("aabbbcd")  # groups a (2), b (3), c (1), d (1)
    chosen = devsets.cap_groups(records, cap=4, seed=1)
    taken = {r["group"] for r in chosen}
    # every group is whole or absent, and no more than the cap is kept
    assert all(sum(r["group"] == g for r in chosen) == sum(r["group"] == g for r in records)
               for g in taken)
    assert len(chosen) <= 4
    rest = devsets.groups_left_out(records, chosen)
    assert {r["group"] for r in rest} == set("abcd") - taken
    assert sorted(r["id"] for r in chosen + rest) == [str(i) for i in range(7)]


def test_groups_left_out_by_hand():
    devsets = load("devsets")
    records = _records("aabc")
    assert devsets.groups_left_out(records, [records[0]]) == [records[2], records[3]]
    assert devsets.groups_left_out(records, []) == records
    assert devsets.groups_left_out(records, records) == []
