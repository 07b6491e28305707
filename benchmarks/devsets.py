"""Build the labelled development sets of docs/validity.md from public sources.

Reads the upstream repositories at pinned commits (with ``git show``, so a
clone at any later commit works as long as it holds the pinned one) and writes
one JSON Lines file per set, each record::

    {"id", "query", "context", "response", "label", "task", "group", "source"}

``label`` is 1 when people judged the response unfaithful to the context
(hallucinated), 0 when faithful; ``task`` is one of ``qa``, ``summary``,
``data2text``, ``dialogue``; ``group`` is the unit that must not be split by
cross-validation or bootstrap (a question, an article, a data record, a
knowledge snippet). The selection is deterministic: the same sources and seed
give byte-identical files (sha256 printed at the end).

Usage::

    python benchmarks/devsets.py --sources DIR --halueval FILE --out DIR

``--sources`` is a folder holding the upstream repositories, each as a clone
named ``<owner>+<name>``, ``<owner>/<name>`` or ``<name>`` (a bare clone, or
its ``repo`` subfolder, works too). ``--halueval`` is either HaluEval's
``data/qa_data.json`` (the 200-question sample is drawn from its first 1,000
records) or an already drawn ``{id, query, context, response, label}`` file.
"""

from __future__ import annotations

import argparse
import collections
import csv
import hashlib
import io
import json
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.io.benchmarks import begin_records, load_halueval_qa  # noqa: E402

SEED = 20261123

#: upstream repository -> pinned commit
COMMITS = {
    "timchen0618/LFQA-Verification": "4e905be93fbe919082d62faa77ee32c68e90237c",
    "google-research-datasets/xsum_hallucination_annotations":
        "4abdbb2c807cb93c1df1188a1992d20a55cdcc34",
    "tingofurro/summac": "24b49de0cd9621d28aac01456691cc0d3765fa27",
    "google/BEGIN-dataset": "6e65f0d5a1ed1b9574643a7640ff1678d4e979b5",
    "McGill-NLP/FaithDial": "25671c6e3aa7d667943b7744a2b91507e7187f83",
    "WebNLG/challenge-2020": "328b4c252abd9ca36471f390f9fcbd2650798088",
    "orhonovich/q-squared": "cab6027dc9a50cf73d80caf0858da05c2323c433",
    "ryokamoi/wice": "ddeb6c183665e2a20c5f03c5aa07f03888b9870f",
    "amazon-science/Query-Conditioned-NLI": "e255f49bb2e008ba028dd404ab0becb54e33a790",
}
#: the WebNLG 2020 test triples were removed from the repository after this commit
WEBNLG_TRIPLES_COMMIT = "af4f18f01c718592b2358277bc52e955d0d49cf8"

#: records per set at most (whole groups are drawn until the next would exceed it);
#: WebNLG is kept whole: its texts are short and only 7 % of them are unfaithful
CAPS = {"lfqa": 600, "halueval_qa": 600, "xsumfaith": 600, "webnlg": 3000,
        "begin_dev": 600, "faithdial_wow": 600, "q2_wow": 600, "wice": 600,
        "wice_tokens": 600, "factscore": 800}
#: atomic facts drawn per biography (FActScore), before the cap
FACTS_PER_BIO = 8

#: XSum documents that are source texts of FaithBench: kept out of every set here
FAITHBENCH_BBCIDS = frozenset([
    "18644660", "21197406", "27838706", "29604402", "30453069", "30520122", "31920236",
    "33210810", "33721182", "35013353", "35130953", "35265124", "35424211", "35792564",
    "36418721", "36469756", "36989435", "37838086", "38276456", "38765314", "38921269",
    "39202525", "39419795"])

SUMMARY_QUERY = "Summarize this BBC article in one sentence."
DATA2TEXT_QUERY = "Describe the facts in this record in plain English."


# ------------------------------------------------------------------ sources

class Sources:
    """Finds the upstream repositories under one folder and reads pinned files."""

    def __init__(self, root: Path):
        self.root = root

    def _repo(self, name: str) -> Path:
        owner, repo = name.split("/")
        for cand in (f"{owner}+{repo}", f"{owner}/{repo}", repo):
            for path in (self.root / cand / "repo", self.root / cand):
                if path.is_dir():
                    return path
        raise SystemExit(f"devsets: repository {name} not found under {self.root} "
                         f"(clone https://github.com/{name} there)")

    def read(self, name: str, path: str, commit: str | None = None) -> bytes:
        commit = commit or COMMITS[name]
        res = subprocess.run(["git", "-C", str(self._repo(name)), "show", f"{commit}:{path}"],
                             capture_output=True, check=False)
        if res.returncode != 0:
            raise SystemExit(f"devsets: {name}@{commit[:8]}:{path}: "
                             f"{res.stderr.decode(errors='replace').strip()}")
        return res.stdout

    def text(self, name: str, path: str, commit: str | None = None) -> str:
        return self.read(name, path, commit).decode("utf-8")


def knowledge_group(text: str) -> str:
    """A group key for a knowledge snippet: the same text (case and spacing folded) in any set."""
    norm = " ".join(text.lower().split())
    return "k:" + hashlib.sha1(norm.encode("utf-8")).hexdigest()[:12]


def cap_groups(records: list[dict], cap: int, seed: int) -> list[dict]:
    """Whole groups in a seeded random order until ``cap`` records; file order kept."""
    by_group: dict[str, list[dict]] = collections.defaultdict(list)
    for r in records:
        by_group[r["group"]].append(r)
    if len(records) <= cap:
        return records
    order = sorted(by_group)
    random.Random(seed).shuffle(order)
    keep, n = set(), 0
    for g in order:
        if n + len(by_group[g]) > cap:
            continue
        keep.add(g)
        n += len(by_group[g])
    return [r for r in records if r["group"] in keep]


# ------------------------------------------------------------------ QA

LFQA_FILES = {  # annotation file -> the documents the answer is judged against
    "webgpt": "docs-webgpt", "gpt3_wdoc": "docs-webgpt", "alpaca_wdoc": "docs-webgpt",
    "gpt3_whudoc": "docs-human", "gpt3": "docs-webgpt", "alpaca": "docs-webgpt",
}


def sentence_label(votes: list[str]) -> int | None:
    """1 if at least two of three votes are not_supported, 0 if two are supported, else None."""
    c = collections.Counter(votes)
    if c["not_supported"] >= 2:
        return 1
    if c["supported"] >= 2:
        return 0
    return None


def build_lfqa(src: Sources) -> list[dict]:
    repo = "timchen0618/LFQA-Verification"
    docs = {}
    for name in set(LFQA_FILES.values()):
        docs[name] = {d["question_id"]: d["docs"] for d in
                      json.loads(src.text(repo, f"data/docs/{name}.json"))}
    out = []
    for setting, doc_name in LFQA_FILES.items():
        for item in json.loads(src.text(repo, f"data/annotations/annotations-{setting}.json")):
            labels = [sentence_label(a["labels"]) for a in item["annotations"]]
            if not labels or None in labels:
                continue
            qid = item["question_id"]
            context = "\n\n".join(f"{d['title']}\n{d['text']}" for d in docs[doc_name][qid])
            sentences = [a["answer"].strip() for a in item["annotations"]]
            spans, at = [], 0
            for sent, lab in zip(sentences, labels, strict=True):
                if lab:  # an unsupported sentence is a hallucinated span
                    spans.append([at, at + len(sent)])
                at += len(sent) + 1
            out.append({
                "id": f"lfqa/{setting}/{qid}", "query": item["question"], "context": context,
                "response": " ".join(sentences),
                "label": int(max(labels)), "task": "qa", "group": f"lfqa:{qid}",
                "source": f"lfqa/{setting}", "spans": spans,
            })
    return out


def build_halueval(path: Path) -> list[dict]:
    first = next((line for line in path.read_text(encoding="utf-8").splitlines()
                  if line.strip()), "")
    if "knowledge" in (json.loads(first) if first else {}):
        # HaluEval's qa_data.json, read by evaltools.io (two records a question, in
        # order): draw the sample
        pairs = load_halueval_qa(path)
        out = []
        for i in sorted(random.Random(20240601).sample(range(1000), 200)):
            for kind, r in zip(("right", "halluc"), pairs[2 * i:2 * i + 2], strict=True):
                out.append({"id": f"halueval_qa_{i:04d}_{kind}", "query": r["query"],
                            "context": r["context"], "response": r["response"],
                            "label": r["label_hallucinated"]})
    else:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip()]
        out = [{k: r[k] for k in ("id", "query", "context", "response", "label")} for r in rows]
    for r in out:
        r.update(task="qa", group="halueval:" + r["id"].rsplit("_", 1)[0].rsplit("_", 1)[1],
                 source="halueval_qa")
    return out


# ------------------------------------------------------------------ summaries

def build_xsumfaith(src: Sources) -> list[dict]:
    table = src.text("google-research-datasets/xsum_hallucination_annotations",
                     "hallucination_annotations_xsum_summaries.csv")
    flagged: dict[tuple, set] = collections.defaultdict(set)
    workers: dict[tuple, set] = collections.defaultdict(set)
    summary: dict[tuple, str] = {}
    marks: dict[tuple, list] = collections.defaultdict(list)  # per worker, (start, end)
    for row in csv.DictReader(io.StringIO(table)):
        key = (row["bbcid"], row["system"])
        summary[key] = row["summary"]
        workers[key].add(row["worker_id"])
        if row["hallucination_type"] not in ("", "NULL"):
            flagged[key].add(row["worker_id"])
            start, end = row["hallucinated_span_start"], row["hallucinated_span_end"]
            if start.isdigit() and end.isdigit():  # 1-based, end inclusive
                marks[key].append((row["worker_id"], int(start) - 1, int(end)))
    docs = {v["bbcid"]: v["document"] for v in
            json.loads(src.text("tingofurro/summac", "data/xsumfaith.json")).values()}
    out = []
    for (bbcid, system), text in sorted(summary.items()):
        if bbcid in FAITHBENCH_BBCIDS or bbcid not in docs or system == "Gold":
            continue
        out.append({
            "id": f"xsumfaith/{bbcid}/{system}", "query": SUMMARY_QUERY, "context": docs[bbcid],
            "response": text, "label": int(len(flagged[(bbcid, system)]) >= 2),
            "task": "summary", "group": f"xsum:{bbcid}", "source": "xsumfaith",
            "spans": majority_spans(text, marks[(bbcid, system)]),
        })
    return out


def majority_spans(text: str, marks: list[tuple[str, int, int]], votes: int = 2
                   ) -> list[list[int]]:
    """Character runs of ``text`` that at least ``votes`` workers marked as hallucinated."""
    count = [set() for _ in text]
    for worker, start, end in marks:
        for i in range(max(start, 0), min(end, len(text))):
            count[i].add(worker)
    out: list[list[int]] = []
    for i, who in enumerate(count):
        if len(who) >= votes and not text[i].isspace():
            if out and out[-1][1] >= i - 1:
                out[-1][1] = i + 1
            else:
                out.append([i, i + 1])
    return out


# ------------------------------------------------------------------ data-to-text

def _entity(text: str) -> str:
    text = text.strip().strip('"').replace("''", "").replace("_", " ")
    return re.sub(r'"?@en$', "", text).strip().strip('"').strip()


def webnlg_triples(src: Sources) -> dict[str, list[tuple[str, str, str]]]:
    xml = src.read("WebNLG/challenge-2020",
                   "data/en/test/rdf-to-text-generation-test-data-with-refs-en.xml",
                   WEBNLG_TRIPLES_COMMIT)
    out = {}
    for entry in ET.fromstring(xml).iter("entry"):
        sid = entry.get("eid").removeprefix("Id")
        triples = []
        for t in entry.find("modifiedtripleset").iter("mtriple"):
            s, p, o = (x.strip() for x in t.text.split("|"))
            triples.append((_entity(s), p, _entity(o)))
        out[sid] = triples
    return out


def triples_as_record(triples: list[tuple[str, str, str]]) -> str:
    """The triples as a JSON list of entity records: ``[{"name": s, p: o, ...}, ...]``.

    One object per subject, in first-seen order; a predicate given twice for
    one subject holds a list.
    """
    ents: dict[str, dict] = {}
    for s, p, o in triples:
        rec = ents.setdefault(s, {"name": s})
        if p in rec:
            rec[p] = (rec[p] if isinstance(rec[p], list) else [rec[p]]) + [o]
        else:
            rec[p] = o
    return json.dumps(list(ents.values()), ensure_ascii=False)


def triples_as_text(triples: list[tuple[str, str, str]]) -> str:
    return "\n".join(f"{s} | {p} | {o}" for s, p, o in triples)


def build_webnlg(src: Sources) -> tuple[list[dict], list[dict]]:
    repo = "WebNLG/challenge-2020"
    ratings = json.loads(src.text(
        repo, "evaluation/human-evaluation/results/en/english_humeval_data_all_teams.json"))
    triples = webnlg_triples(src)
    outputs: dict[str, list[str]] = {}
    as_json, as_text = [], []
    for r in ratings:
        team = r["submission_id"]
        if team == "WebNLG-2020-reference":
            continue
        if team not in outputs:
            outputs[team] = src.text(
                repo, f"submissions/rdf2text/en/{team}/primary.en").splitlines()
        m = min(r["Correctness"], r["Relevance"])
        if 50 <= m < 90:
            continue
        sid = r["sample_id"]
        rec = {"id": f"webnlg/{sid}/{team}", "query": DATA2TEXT_QUERY,
               "context": triples_as_record(triples[sid]),
               "response": outputs[team][int(sid) - 1].strip(), "label": int(m < 50),
               "task": "data2text", "group": f"webnlg:{sid}", "source": "webnlg"}
        as_json.append(rec)
        as_text.append({**rec, "id": rec["id"] + "/triples",
                        "context": triples_as_text(triples[sid]), "source": "webnlg_triples"})
    return as_json, as_text


# ------------------------------------------------------------------ dialogue

BEGIN_FILES = ("wow/begin_dev_wow.tsv", "cmu-dog/begin_dev_cmu.tsv",
               "topicalchat/begin_dev_tc.tsv")


def build_begin_dev(src: Sources) -> list[dict]:
    out = []
    for path in BEGIN_FILES:  # dev files only: the test split is never read
        text = src.text("google/BEGIN-dataset", path)
        # read by evaltools.io's BEGIN reader; "Generic" turns carry no label
        for row in begin_records(io.StringIO(text, newline=""), source=path, generic="drop"):
            n = int(row["id"].removeprefix("begin_"))
            out.append({
                "id": f"begin_dev/{path.split('/')[0]}/{n}", "query": row["query"],
                "context": row["context"], "response": row["response"],
                "label": row["label_hallucinated"], "task": "dialogue",
                "group": knowledge_group(row["context"]),
                "source": f"begin_dev/{row['data_source']}",
            })
    return out


FAITHDIAL_FILES = {  # file -> (knowledge, history, response, label) columns
    "data-audit/CTRL/ctrl_processed_wow.csv": ("knowledge", "history", "ctrl", "begin_label"),
    "data-audit/DoHA/doha_processed_wow.csv": ("knowledge", "history", "doha", "begin_label"),
    "data-audit/GPT2/gpt2_processed_wow.csv": ("knowledge", "history", "gpt2", "begin_label"),
    "data-audit/gold/wow.csv": ("evidence", "history", "response", "BEGIN"),
}
FAITHDIAL_LABELS = {"entailment": 0, "hallucination": 1, "partial hallucination": 1,
                    "entailment,hallucination": 1}


def faithdial_label(text: str) -> int | None:
    norm = re.sub(r"\s*[,;/]\s*", ",", " ".join(text.lower().split()))
    return FAITHDIAL_LABELS.get(norm)


def build_faithdial_wow(src: Sources) -> list[dict]:
    out = []
    for path, (k, h, r, lab) in FAITHDIAL_FILES.items():
        table = src.text("McGill-NLP/FaithDial", path)
        for n, row in enumerate(csv.DictReader(io.StringIO(table)), 1):
            label = faithdial_label(row.get(lab) or "")
            if label is None or not (row.get(r) or "").strip():
                continue
            out.append({
                "id": f"faithdial/{path.split('/')[1]}/wow/{n}", "query": row.get(h) or "",
                "context": row[k], "response": row[r].strip(), "label": label,
                "task": "dialogue", "group": knowledge_group(row[k]),
                "source": f"faithdial/{path.split('/')[1].lower()}",
            })
    return out


Q2_FILES = {  # file -> label: the annotators' verdict on the response against the knowledge
    "third_party/data/dodeca_consistent.csv": 0, "third_party/data/dodeca_inconsistent.csv": 1,
    "third_party/data/memnet_consistent.csv": 0, "third_party/data/memnet_inconsistent.csv": 1,
}


def build_q2_wow(src: Sources) -> list[dict]:
    out = []
    for path, label in Q2_FILES.items():
        name = path.rsplit("/", 1)[1].removesuffix(".csv")
        table = src.text("orhonovich/q-squared", path)
        for n, row in enumerate(csv.DictReader(io.StringIO(table)), 1):
            if not (row.get("response") or "").strip():
                continue
            out.append({
                "id": f"q2/{name}/{n}", "query": row.get("message") or "",
                "context": row["knowledge"], "response": row["response"].strip(),
                "label": label, "task": "dialogue", "group": knowledge_group(row["knowledge"]),
                "source": f"q2/{name.split('_')[0]}",
            })
    return out


# ------------------------------------------------------------------ claims against sources

def token_spans(text: str, tokens: list[str], flags: list[bool]) -> list[list[int]]:
    """Character runs of ``text`` covered by the flagged tokens (found in order)."""
    out: list[list[int]] = []
    at = 0
    for tok, flag in zip(tokens, flags, strict=True):
        i = text.find(tok, at)
        if i < 0:
            continue
        at = i + len(tok)
        if flag:
            if out and not text[out[-1][1]:i].strip():
                out[-1][1] = at
            else:
                out.append([i, at])
    return out


def build_wice(src: Sources) -> list[dict]:
    """WiCE claims (Wikipedia sentences) against the web pages they cite.

    ``not_supported`` and ``partially_supported`` -> 1 (some of the claim is not in
    the evidence), ``supported`` -> 0.
    """
    repo = "ryokamoi/wice"
    out = []
    for split in ("dev", "test"):
        for n, line in enumerate(src.text(repo, f"data/entailment_retrieval/claim/{split}.jsonl")
                                 .splitlines(), 1):
            r = json.loads(line)
            label = {"supported": 0, "partially_supported": 1, "not_supported": 1}[r["label"]]
            meta = r.get("meta") or {}
            title = meta.get("claim_title") or ""
            out.append({
                "id": f"wice/{split}/{meta.get('id', n)}",
                "query": f"{title} - {meta.get('claim_section') or ''}".strip(" -"),
                "context": "\n".join(r["evidence"]), "response": r["claim"], "label": label,
                "task": "citation", "group": f"wice:{title}", "source": f"wice/{split}",
            })
    return out


def build_wice_tokens(src: Sources) -> list[dict]:
    """WiCE's partially supported sub-claims with their unsupported tokens (span labels only).

    Every record is unfaithful (label 1); ``spans`` are the character runs of the
    tokens annotators marked unsupported. Used to fit and measure the span model,
    not the response-level detector (its evidence is WiCE's own).
    """
    repo = "ryokamoi/wice"
    out = []
    for split in ("train", "dev", "test"):
        for n, line in enumerate(src.text(repo, f"data/non_supported_tokens/{split}.jsonl")
                                 .splitlines(), 1):
            r = json.loads(line)
            meta = r.get("meta") or {}
            title = meta.get("claim_title") or ""
            out.append({
                "id": f"wice_tokens/{split}/{meta.get('id', n)}",
                "query": f"{title} - {meta.get('claim_section') or ''}".strip(" -"),
                "context": "\n".join(r["evidence"]), "response": r["claim"], "label": 1,
                "task": "citation", "group": f"wice:{title}", "source": f"wice_tokens/{split}",
                "spans": token_spans(r["claim"], r["claim_tokens"], r["non_supported_spans"]),
            })
    return out


FACTSCORE_FILES = ("chatgpt", "instructgpt", "perplexityai")
FACT_LABELS = {"entailment": 0, "contradiction": 1}


def build_factscore(src: Sources, seed: int) -> list[dict]:
    """FActScore biographies' atomic facts against the Wikipedia passages retrieved for them.

    Only the three ``data/factscore_*.json`` files are read (the repository holds
    excluded data besides them). Response = one atomic fact; ``contradiction`` -> 1,
    ``entailment`` -> 0; up to :data:`FACTS_PER_BIO` facts per biography.
    """
    repo = "amazon-science/Query-Conditioned-NLI"
    out = []
    for name in FACTSCORE_FILES:
        for n, line in enumerate(src.text(repo, f"data/factscore_{name}.json").splitlines(), 1):
            r = json.loads(line)
            passages, _bio = r["tuple1"]["tuple"]
            context = "\n".join(p.strip() for p in re.split(r"</?s>", passages) if p.strip())
            facts = [(f, lab) for pairs in (r.get("additional_notes") or {}).values()
                     for f, lab in pairs if lab in FACT_LABELS]
            facts = sorted(set(facts))
            random.Random(f"{seed}/{name}/{n}").shuffle(facts)
            group = "fs:" + hashlib.sha1(context.encode("utf-8")).hexdigest()[:12]
            for k, (fact, lab) in enumerate(facts[:FACTS_PER_BIO]):
                out.append({
                    "id": f"factscore/{name}/{n}/{k}", "query": "Tell me a bio of this person.",
                    "context": context, "response": fact, "label": FACT_LABELS[lab],
                    "task": "biography", "group": group, "source": f"factscore/{name}",
                })
    return out


# ------------------------------------------------------------------ main

def groups_left_out(records: list[dict], chosen: list[dict]) -> list[dict]:
    """The records of ``records`` whose group has no record in ``chosen``, in file order."""
    taken = {r["group"] for r in chosen}
    return [r for r in records if r["group"] not in taken]


def dedupe(records: list[dict], seen: set) -> list[dict]:
    out = []
    for r in records:
        key = (" ".join(r["context"].lower().split()), " ".join(r["response"].lower().split()))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def write(records: list[dict], path: Path) -> str:
    data = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    path.write_text(data, encoding="utf-8")
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sources", type=Path, required=True,
                    help="folder with the upstream repositories (clones)")
    ap.add_argument("--halueval", type=Path,
                    help="HaluEval data/qa_data.json, or the drawn 400-record sample")
    ap.add_argument("--out", type=Path, required=True, help="folder for the JSON Lines files")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    src = Sources(args.sources)
    args.out.mkdir(parents=True, exist_ok=True)
    webnlg, webnlg_text = build_webnlg(src)
    sets = {"lfqa": build_lfqa(src), "xsumfaith": build_xsumfaith(src), "webnlg": webnlg,
            "begin_dev": build_begin_dev(src), "faithdial_wow": build_faithdial_wow(src),
            "q2_wow": build_q2_wow(src), "wice": build_wice(src),
            "wice_tokens": build_wice_tokens(src),
            "factscore": build_factscore(src, args.seed)}
    if args.halueval:
        sets["halueval_qa"] = build_halueval(args.halueval)
    seen: set = set()
    chosen = {}
    for name in ("lfqa", "halueval_qa", "xsumfaith", "webnlg", "begin_dev", "faithdial_wow",
                 "q2_wow", "wice", "wice_tokens", "factscore"):
        if name in sets:
            unique = dedupe(sets[name], seen)
            chosen[name] = cap_groups(unique, CAPS[name], args.seed)
            if name == "begin_dev":  # the knowledge groups the cap left out: measured only
                chosen["begin_dev_rest"] = groups_left_out(unique, chosen[name])
    if "q2_wow" in chosen:  # FaithDial is measured on, never tuned on: no knowledge shared
        held = {r["group"] for r in chosen["faithdial_wow"]}
        chosen["q2_wow"] = [r for r in chosen["q2_wow"] if r["group"] not in held]
    # the triple-text rendering of exactly the same WebNLG records
    ids = {r["id"] + "/triples" for r in chosen["webnlg"]}
    chosen["webnlg_triples"] = [r for r in webnlg_text if r["id"] in ids]
    # annotated hallucinated spans (character offsets in the response) live apart, so the
    # response-level files stay as they were: {id, spans}
    chosen["spans"] = [{"id": r["id"], "spans": r.pop("spans")}
                       for name in ("lfqa", "xsumfaith", "wice_tokens")
                       for r in chosen.get(name, []) if "spans" in r]
    for r in chosen.get("webnlg_triples", []):
        r.pop("spans", None)
    print(f"{'file':<22} {'records':>7} {'unfaithful':>10} {'groups':>6}  sha256")
    for name, recs in chosen.items():
        if name == "spans":
            digest = write(recs, args.out / "spans.jsonl")
            print(f"{'spans.jsonl':<22} {len(recs):>7} {'':>10} {'':>6}  {digest}")
            continue
        digest = write(recs, args.out / f"{name}.jsonl")
        print(f"{name + '.jsonl':<22} {len(recs):>7} {sum(r['label'] for r in recs):>10} "
              f"{len({r['group'] for r in recs}):>6}  {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
