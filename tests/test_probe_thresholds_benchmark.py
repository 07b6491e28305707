"""benchmarks/probe_thresholds.py: its shares and F1 by hand, and a threshold varied over
two groups of the probe, one read and one not."""

from __future__ import annotations

import json

import pytest
from benchmark_module import load

CTX = ("The Harbour Museum opened in 1998 in a former grain warehouse on the north quay. Its "
       "collection covers three centuries of shipbuilding in the town, with models, tools and "
       "photographs donated by local families. It is open from Tuesday to Sunday, and "
       "children under twelve get in free. Guided tours run every Saturday morning.")
LONG = ("Based on the passages, the Harbour Museum opened in 1998 in a former grain warehouse "
        "on the north quay. Its collection covers three centuries of shipbuilding in the town, "
        "with models, tools and photographs donated by local families. It is open from "
        "Tuesday to Sunday, children under twelve get in free, and guided tours run every "
        "Saturday morning. In short, it is a museum of the town's shipbuilding.")


@pytest.fixture(scope="module")
def bench():
    return load("probe_thresholds")


def test_shares_f1_and_groups_by_hand(bench):
    # 2 faithful (1 failed), 2 hallucinated (both failed)
    assert bench.rates([(0, True), (0, False), (1, True), (1, True)]) == (0.5, 1.0, 2, 2)
    # even mix, f 0.2, h 0.6: tp 0.3, fp 0.1, fn 0.2 -> 2 * 0.3 / (0.6 + 0.1 + 0.2) = 0.6667
    assert bench.f1_at(0.2, 0.6, 0.5) == pytest.approx(0.6 / 0.9)
    # 42 %: tp 0.252, fp 0.58 * 0.2 = 0.116, fn 0.168 -> 0.504 / (0.504 + 0.116 + 0.168)
    assert bench.f1_at(0.2, 0.6, 0.42) == pytest.approx(0.504 / 0.788)
    assert bench.f1_at(0.3, 0.0, 0.42) == 0.0
    # the groups of three written since batch 137
    assert [bench.group_of(b) for b in (137, 139, 140, 235, 236, 250)] == [
        137, 137, 140, 233, 236, 248]


def test_a_threshold_varied_over_a_read_and_an_unread_group(bench, tmp_path, capsys):
    q = "What is the Harbour Museum like?"
    rows = []
    for n in (1371, 2451):  # batch 138 (group 137, read) and 246 (group 245, not read)
        rows.append({"id": f"qa{n}", "task": "qa", "label": 0, "query": q, "context": CTX,
                     "response": LONG})
        rows.append({"id": f"qa{n}_h", "task": "qa", "label": 1, "query": q, "context": CTX,
                     "response": LONG.replace("1998", "1989")})
    path = tmp_path / "probe.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert len(LONG.split()) >= 60
    bench.main([str(path), "--task", "qa", "--key", "long_answer_fail_probability",
                "--values", "0", "1", "--read-upto", "244"])
    out = capsys.readouterr().out
    # at 0 every long answer fails (P >= 0); at 1 the faithful one passes (its P is under the
    # calibration's 0.75) and the wrong year still fails
    assert "| 0 | read | 1 | 100.0 % | 100.0 % | 66.7 | 59.2 |" in out
    assert "| 1 | read | 1 | 0.0 % | 100.0 % | 100.0 | 100.0 |" in out
    assert "| 1 | unread | 1 | 0.0 % | 100.0 % | 100.0 | 100.0 |" in out
    # held out, group 245 gets the lowest value keeping group 137 at or under 25 %: 1
    assert "| 245-247 | 1 | 0.0 % | 100.0 % |" in out
