"""Build the written probe: modern-LLM-style outputs of the three RAG task shapes.

    python benchmarks/probe.py --devdata devdata --out devdata/probe.jsonl

The development sets hold few outputs of the kind a current RAG pipeline
writes: fluent overviews of a business record given as JSON, news summaries
written from an instruction, answers that open with "Based on the given
passages". ``benchmarks/probe_responses.jsonl`` holds 15,286 such outputs written
for this project (not by people labelling a model's outputs, so it is
development data, not a held-out test), in two hundred and sixty-two batches (the
writers' brief of the last twenty-four: ``benchmarks/probe_brief.md``).
docs/validity.md says, round by round, who wrote each batch and on which build it was first
measured (every batch from the second on was measured once before any rule
changed for it); the first twenty-two:

- the first (50; ids ``biz01``-``biz10``, ``news01``-``news10``, ``qa01``-``qa10``
  and their ``_h`` variants), written for the sixth round of docs/validity.md;
- the second (64; ids ``biz11``-``biz22``, ``news11``-``news20``, ``qa11``-``qa20``
  and their ``_h`` variants), written in the seventh round by writers who had not
  seen the scorer's rules, and measured once before any rule was changed for it
  (docs/validity.md, "Seventh round": the figures of that first look);
- the third (64; ids ``biz23``-``biz34``, ``news21``-``news30``, ``qa21``-``qa30``
  and their ``_h`` variants) and the fourth (64; ``biz35``-``biz46``, ``news31``-``news40``,
  ``qa31``-``qa40``), written the same way in the eighth round, each measured once before
  any rule changed for it (docs/validity.md, "Eighth round");
- the fifth (64; ``biz47``-``biz58``, ``news41``-``news50``, ``qa41``-``qa50``) and the
  sixth (64; ``biz59``-``biz70``, ``news51``-``news60``, ``qa51``-``qa60``), written the same
  way in the ninth round, each measured once before any rule changed for it
  (docs/validity.md, "Ninth round");
- the seventh (64; ``biz71``-``biz82``, ``news61``-``news70``, ``qa61``-``qa70``), written the
  same way in the tenth round and measured once on the ninth round's final build, before any
  rule changed (docs/validity.md, "Tenth round"). Its writers were asked to make about a
  third of the overviews' edits contradict a record's attribute;
- the eighth (64; ``biz83``-``biz94``, ``news71``-``news80``, ``qa71``-``qa80``), written the
  same way in the eleventh round with the edits in the mix LLMs make (about half invented
  details, then wrong values, swapped entities, contradictions), and measured once on the
  build that introduced the long responses' threshold and on the tenth round's final build,
  before any rule changed (docs/validity.md, "Eleventh round");
- the ninth (64; ``biz95``-``biz106``, ``news81``-``news90``, ``qa81``-``qa90``), written the
  same way in the sixteenth round and measured once on that round's build and on the
  fifteenth round's, before any rule changed (docs/validity.md, "Sixteenth round");
- the tenth (64; ``biz107``-``biz118``, ``news91``-``news100``, ``qa91``-``qa100``), written the
  same way in the seventeenth round and measured once on the sixteenth round's final build,
  before any rule changed (docs/validity.md, "Seventeenth round");
- the eleventh (64; ``biz119``-``biz130``, ``news101``-``news110``, ``qa101``-``qa110``), written
  the same way in the eighteenth round, its writers asked to paraphrase freely and add the
  inferences a careful judge would accept, and measured once on the seventeenth round's final
  build, before any rule changed (docs/validity.md, "Eighteenth round");
- the twelfth (64; ``biz131``-``biz142``, ``news111``-``news120``, ``qa111``-``qa120``), written
  the same way in the nineteenth round in the voices of current chat models, each edit one
  subtle invented detail, wrong value or misattribution, or a plain contradiction, and measured
  once on the eighteenth round's final build, before any rule changed (docs/validity.md,
  "Nineteenth round");
- the thirteenth (64; ``biz143``-``biz154``, ``news121``-``news130``, ``qa121``-``qa130``),
  written the same way in the same round and measured once on that round's build before the
  amenity clause (docs/validity.md, "Nineteenth round");
- the fourteenth (64; ``biz155``-``biz166``, ``news131``-``news140``, ``qa131``-``qa140``),
  written the same way at the end of that round and measured once on its final build, with
  nothing changed after (docs/validity.md, "Nineteenth round");
- the fifteenth (64; ``biz167``-``biz178``, ``news141``-``news150``, ``qa141``-``qa150``),
  written the same way in the twentieth round (the news from the shortest articles left) and
  measured once on the nineteenth round's final build, before any rule changed
  (docs/validity.md, "Twentieth round");
- the sixteenth (64; ``biz179``-``biz190``, ``news151``-``news160``, ``qa151``-``qa160``),
  written the same way at the end of that round and measured once on its final build
  (docs/validity.md, "Twentieth round");
- the seventeenth (64; ``biz191``-``biz202``, ``news161``-``news170``, ``qa161``-``qa170``),
  written the same way in the twenty-first round (the news from articles used once, the
  questions from those used once) and measured once on the twentieth round's final build,
  before any rule changed (docs/validity.md, "Twenty-first round");
- the eighteenth (64; ``biz203``-``biz214``, ``news171``-``news180``, ``qa171``-``qa180``),
  written the same way at the start of that round and measured once on its build with the
  clause for words the context never uses (docs/validity.md, "Twenty-first round");
- the nineteenth (64; ``biz215``-``biz226``, ``news181``-``news190``, ``qa181``-``qa190``),
  written the same way later in that round and measured once on its final build
  (docs/validity.md, "Twenty-first round");
- the twentieth (64; ``biz227``-``biz238``, ``news191``-``news200``, ``qa191``-``qa200``),
  written the same way at the start of the twenty-second round (the news from articles used
  once, the questions from those never used) and measured once on the twenty-first round's
  final build, before any rule changed, and once on this round's first build;
- the twenty-first (64; ``biz239``-``biz250``, ``news201``-``news210``, ``qa201``-``qa210``),
  written the same way later in that round and measured once on the build before its
  threshold for long RAG answers, and once on the final build;
- the twenty-second (64; ``biz251``-``biz262``, ``news211``-``news220``, ``qa211``-``qa220``),
  written the same way last in that round and measured once on its final build
  (docs/validity.md, "Twenty-second round").

Each batch has

- ``data2text`` — faithful overviews of invented Yelp-style business
  records (the record is in the file), and for each a hallucinated variant
  with one or two edits of the kinds LLMs make (an invented fact, a wrong
  value, a contradicted attribute, a swapped entity, an unsupported
  generalisation; field ``edit`` says which);
- ``summary`` — faithful summaries of XSumFaith articles and their
  hallucinated variants;
- ``qa`` — faithful answers to LFQA questions from their passages (and, in the
  second batch on, hallucinated variants).

Records of the last two shapes name their source record (``source``: file
and id) instead of holding its text; this script joins them with the
development sets built by ``benchmarks/devsets.py`` and writes records
``{id, query, context, response, label, task, group, source}``, ready for
``benchmarks/claims_quality.py`` and ``benchmarks/verdict_rates.py``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.io.atomic import atomic_path  # noqa: E402

PROBE = Path(__file__).resolve().with_name("probe_responses.jsonl")
_TOKEN = re.compile(r"\S+")


def edit_spans(faithful: str, hallucinated: str) -> list[list[int]]:
    """The character spans of ``hallucinated`` that its edit wrote: the runs of
    whitespace-separated tokens that a word-level diff against the faithful response
    replaced or inserted (a pure deletion marks nothing).

    >>> edit_spans("It opens at 9 am daily.", "It opens at 10 am daily, with free WiFi.")
    [[12, 14], [18, 40]]
    >>> edit_spans("No ransom was paid.", "No ransom was paid.")
    []
    """
    old = _TOKEN.findall(faithful)
    new = list(_TOKEN.finditer(hallucinated))
    diff = difflib.SequenceMatcher(a=old, b=[m.group() for m in new], autojunk=False)
    return [[new[j1].start(), new[j2 - 1].end()]
            for op, _, _, j1, j2 in diff.get_opcodes() if op in ("replace", "insert")]


def gold_spans(records: list[dict]) -> list[dict]:
    """``{id, spans}`` per record, as ``benchmarks/devsets.py`` writes ``spans.jsonl``: a
    faithful response marks nothing; a hallucinated variant marks its edits
    (:func:`edit_spans` against its faithful original). Variants without an original are
    left out."""
    by_id = {r["id"]: r for r in records}
    out = []
    for r in records:
        if r["label"] == 0:
            out.append({"id": r["id"], "spans": []})
        elif r["id"].endswith("_h") and r["id"][:-2] in by_id:
            out.append({"id": r["id"],
                        "spans": edit_spans(by_id[r["id"][:-2]]["response"], r["response"])})
    return out


def write_jsonl(rows: list[dict], path: Path) -> None:
    """Write ``rows`` as JSON Lines, never half-written (``evaltools.io.atomic``)."""
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def build(devdata: Path, probe: Path = PROBE) -> list[dict]:
    """The probe's records with their contexts (see the module docstring)."""
    rows = [json.loads(line) for line in probe.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    wanted: dict[str, set[str]] = {}
    for row in rows:
        if "source" in row:
            wanted.setdefault(row["source"]["file"], set()).add(row["source"]["id"])
    contexts: dict[tuple[str, str], str] = {}
    for name, ids in wanted.items():
        path = devdata / name
        with path.open(encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                if record["id"] in ids:
                    contexts[(name, record["id"])] = record["context"]
        missing = ids - {i for (n, i) in contexts if n == name}
        if missing:
            raise SystemExit(f"{path}: no record with id {sorted(missing)[0]!r} "
                             "(build it with benchmarks/devsets.py)")
    out = []
    for row in rows:
        src = row.get("source")
        context = row["context"] if src is None else contexts[(src["file"], src["id"])]
        base = row["id"].removesuffix("_h")
        out.append({"id": row["id"], "query": row["query"], "context": context,
                    "response": row["response"], "label": row["label"], "task": row["task"],
                    "group": base, "source": f"probe/{src['file'] if src else 'written'}"})
    return out


def batch_of(record_id: str) -> int:
    """The batch a probe record belongs to: every batch holds ten news and ten qa numbers
    (1-10 the first, 11-20 the second, ...); overviews are ``biz1``-``biz10`` in the first,
    ``biz11``-``biz22`` in the second, then twelve a batch (``biz23``-``biz34`` the third).

    >>> batch_of("biz07_h"), batch_of("news11"), batch_of("qa20_h"), batch_of("biz22")
    (1, 2, 2, 2)
    >>> batch_of("biz23"), batch_of("news21_h"), batch_of("qa30"), batch_of("biz35")
    (3, 3, 3, 4)
    >>> batch_of("biz322_h"), batch_of("qa270"), batch_of("biz323"), batch_of("news271_h")
    (27, 27, 28, 28)
    >>> batch_of("biz346_h"), batch_of("qa290"), batch_of("biz347"), batch_of("news291_h")
    (29, 29, 30, 30)
    """
    name = record_id.removesuffix("_h")
    n = int("".join(c for c in name if c.isdigit()))
    if not name.startswith("biz"):
        return (n - 1) // 10 + 1
    return 1 if n <= 10 else 2 if n <= 22 else (n - 23) // 12 + 3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devdata", type=Path, required=True,
                    help="folder with the development sets (xsumfaith.jsonl, lfqa.jsonl)")
    ap.add_argument("--out", type=Path, required=True, help="JSON Lines file to write")
    ap.add_argument("--batch", type=int, choices=range(1, 263), nargs="+",
                    help="only these batches (default: all; 1 2 3 4 5 6 7 8: the probe of the "
                         "fifteenth and sixteenth rounds' figures, before the ninth)")
    ap.add_argument("--spans", type=Path,
                    help="also write the characters each hallucinated variant's edit wrote "
                         "({id, spans} per record, as spans.jsonl) for benchmarks/span_model.py")
    args = ap.parse_args(argv)
    records = [r for r in build(args.devdata)
               if args.batch is None or batch_of(r["id"]) in args.batch]
    write_jsonl(records, args.out)
    print(f"{args.out}: {len(records)} records", file=sys.stderr)
    if args.spans:
        spans = gold_spans(records)
        write_jsonl(spans, args.spans)
        print(f"{args.spans}: {len(spans)} records", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
