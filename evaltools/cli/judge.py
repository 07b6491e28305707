"""``evaltools judge INPUT [-o OUTPUT]``: judge every record and print a per-module summary.

Each output record is the input record with the judge result's keys added
(``evaltools.judge`` ``to_dict()``: ``evaluation``, ``total_score``,
``verdict``, ``issues``, ``audit``, ...). A record that breaks the contract
stops the run (exit status 2, nothing written) unless ``--skip-invalid``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evaltools.cli import scale
from evaltools.cli.output import (
    add_map_argument,
    columns_of,
    output_help,
    summary_stream,
    tell_no_output,
)
from evaltools.cli.progress import progress
from evaltools.config import load_config
from evaltools.errors import ConfigError
from evaltools.io import (
    count_records,
    read_records,
    row_unit,
    write_or_drain,
)
from evaltools.judging.registry import load_registry
from evaltools.judging.stream import judge_stream
from evaltools.judging.summary import JudgeSummary

EXAMPLES = """\
examples:
  evaltools judge data/judgments.jsonl -o judged.jsonl     # or .csv, .parquet
  evaltools judge data/judgments.jsonl                      # the per-module summary only
  evaltools judge judgments.csv -o - | jq .verdict          # JSON Lines on stdout
  evaltools judge --registry my_modules.toml runs.jsonl -o judged.jsonl
  evaltools judge 'runs/*.parquet' -o judged/ --workers 4   # 4 processes, Parquet parts
  # ask an LLM judge for records without a 'judge' (any OpenAI-compatible server), then audit
  evaltools judge --llm qwen2.5-7b-instruct --base-url http://127.0.0.1:8080/v1 \
      data/judgments.jsonl -o judged.jsonl
  OPENAI_API_KEY=... evaltools judge --llm gpt-4o-mini --base-url https://api.openai.com/v1 \
      --rejudge data/judgments.jsonl -o judged.jsonl
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", nargs="+",
                   help="records: .jsonl, .csv or .parquet; several files, a glob or a folder"
                        " of parts are read in order")
    p.add_argument("-o", "--output", help=output_help("judged"))
    p.add_argument("--registry", type=Path,
                   help="a TOML file replacing the shipped module registry (modules.toml)")
    p.add_argument("--skip-invalid", action="store_true",
                   help="record invalid records with 'error' set instead of stopping")
    p.add_argument("--config", type=Path,
                   help="a TOML file overriding default settings (here: the [input] limits)")
    p.add_argument("--csv-raw", action="store_true",
                   help="CSV output: write cells starting with = + - @ as they are "
                        "(by default they get a leading ' so spreadsheets do not run them)")
    add_map_argument(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("-q", "--quiet", action="store_true", help="print no summary")
    g = p.add_argument_group(
        "asking an LLM judge", "With --llm, each record without a 'judge' is sent to the\n"
        "model (its module's prompt); the answer is read, cached and audited. Without\n"
        "--llm nothing touches the network. Limits and prices: [llm] of the config\n"
        "(docs/judge.md, 'Asking an LLM judge').")
    g.add_argument("--llm", metavar="MODEL", help="the model to ask, e.g. gpt-4o-mini")
    g.add_argument("--base-url", metavar="URL", default="https://api.openai.com/v1",
                   help="the OpenAI-compatible API root (vLLM, Ollama, llama.cpp server, "
                        "LiteLLM: e.g. http://127.0.0.1:8080/v1); default: %(default)s")
    g.add_argument("--api-key-env", metavar="NAME", default="OPENAI_API_KEY",
                   help="the environment variable holding the API key (default "
                        "%(default)s; unset is fine for a local server)")
    g.add_argument("--rejudge", action="store_true",
                   help="ask for every record, replacing any 'judge' it has")
    g.add_argument("--cache", type=Path, metavar="PATH",
                   help="the SQLite answer cache (default: "
                        "$XDG_CACHE_HOME/evaltools/judge.sqlite)")
    g.add_argument("--no-cache", action="store_true", help="neither read nor store answers")
    g.add_argument("--refresh", action="store_true",
                   help="ask again even when the cache has an answer, and store the new one")
    g.add_argument("--concurrency", type=int, metavar="N",
                   help="requests in flight (config: [llm] concurrency)")
    g.add_argument("--rpm", type=int, metavar="N",
                   help="requests per minute, retries included (config: [llm] "
                        "requests_per_minute)")
    g.add_argument("--timeout", type=float, metavar="S",
                   help="seconds per request (config: [llm] timeout)")
    g.add_argument("--total-timeout", type=float, metavar="S",
                   help="seconds per record, retries included (config: [llm] total_timeout)")
    g.add_argument("--max-retries", type=int, metavar="N",
                   help="retries on HTTP 429/5xx and timeouts (config: [llm] max_retries)")
    scale.add_arguments(p)


#: The ``--llm`` options that override ``[llm]`` keys of the configuration.
_LLM_OVERRIDES = {"concurrency": "concurrency", "rpm": "requests_per_minute",
                  "timeout": "timeout", "total_timeout": "total_timeout",
                  "max_retries": "max_retries"}
_LLM_ONLY = ("rejudge", "cache", "no_cache", "refresh", *_LLM_OVERRIDES)


def format_summary(summary: JudgeSummary, order: tuple[str, ...] = ()) -> str:
    """The per-module table: records, PASS, FAIL, invalid, mean total, judges audited,
    judges with findings, inconsistent judges (arithmetic or verdict findings), findings.

    >>> s = JudgeSummary()
    >>> s.add({"module": "M04", "verdict": "PASS", "total_score": 80, "audit": []})
    >>> s.add({"module": "M04", "verdict": "FAIL", "total_score": 65,
    ...        "audit": [{"code": "total_mismatch"}]})
    >>> print(format_summary(s))
    module  records  PASS  FAIL  invalid  mean total  judges  with findings  inconsistent  findings
    M04           2     1     1        0        72.5       2              1             1         1
    all           2     1     1        0        72.5       2              1             1         1
    """
    head = ("module", "records", "PASS", "FAIL", "invalid", "mean total", "judges",
            "with findings", "inconsistent", "findings")
    rank = {m: i for i, m in enumerate(order)}
    keys = sorted(summary.modules, key=lambda m: (rank.get(m, len(rank)), m))
    rows = []
    for m in [*keys, "all"]:
        st = summary.modules[m] if m != "all" else summary.overall()
        mean = f"{st.mean_total:.1f}" if st.mean_total is not None else "-"
        rows.append((m, st.records, st.passed, st.failed, st.errors, mean, st.judged,
                     st.with_findings, st.inconsistent, st.findings))
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = []
    for r in [head, *rows]:
        cells = [str(r[0]).ljust(widths[0])] + [str(c).rjust(w) for c, w in
                                                zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _asker(args: argparse.Namespace, config, registry):
    """The :class:`~evaltools.judging.asking.Asker` for ``--llm``, or None without it."""
    if not args.llm:
        given = [n for n in _LLM_ONLY if getattr(args, n) not in (None, False)]
        if given:
            raise ConfigError(f"{_option(given[0])} needs --llm MODEL")
        return None
    if scale.scaled(args):
        raise ConfigError("--llm asks from one process and reads one input file; drop "
                          "--workers / --scheduler and give one file (the cache makes a "
                          "second run over the rest cheap)")
    if args.no_cache and (args.cache is not None or args.refresh):
        raise ConfigError(f"--no-cache and {'--cache' if args.cache else '--refresh'} "
                          f"contradict each other")
    from evaltools.judging.asking import Asker
    from evaltools.judging.judge_cache import JudgeCache, default_cache_path
    from evaltools.judging.llm_client import JudgeClient
    from evaltools.prompt import render_prompt

    changes = {key: getattr(args, opt) for opt, key in _LLM_OVERRIDES.items()
               if getattr(args, opt) is not None}
    for opt, key in _LLM_OVERRIDES.items():
        if getattr(args, opt) is not None:
            try:
                config.replace(llm={key: getattr(args, opt)})
            except ConfigError as exc:
                raise ConfigError(f"{_option(opt)}: "
                                  f"{str(exc).split('] ', 1)[-1]}") from None
    llm = config.replace(llm=changes).llm if changes else config.llm
    client = JudgeClient(args.llm, args.base_url, api_key_env=args.api_key_env, config=llm)
    cache = None if args.no_cache else JudgeCache(args.cache or default_cache_path())
    return Asker(client, render_prompt, registry=registry, cache=cache,
                 rejudge=args.rejudge, refresh=args.refresh)


def run(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    registry = load_registry(args.registry)
    summary = JudgeSummary()
    asker = _asker(args, config, registry)
    if asker is None:
        return _run(args, config, registry, summary, None)
    try:
        return _run(args, config, registry, summary, asker)
    finally:
        if asker.cache is not None:
            asker.cache.close()


def _run(args, config, registry, summary: JudgeSummary, asker) -> int:
    columns = columns_of(args)
    if scale.scaled(args):
        scale.refuse_map(columns)
        from evaltools.dask import JUDGE_KINDS, judge_part

        scale.run(args, task=judge_part, contract=JUDGE_KINDS, summary=summary,
                  desc="judging", registry=registry, skip_invalid=args.skip_invalid,
                  limits=config.input, stall_seconds=config.scale.stall_seconds)
        return _print(args, summary, registry)
    path = Path(args.input[0])
    source, unit = path.name, row_unit(path)

    def outputs():
        records = read_records(path, skip_invalid=args.skip_invalid, limits=config.input,
                               columns=columns)
        if asker is not None:
            records = asker.stream(records)
        stream = judge_stream(records, registry=registry, source=source, unit=unit,
                              skip_invalid=args.skip_invalid)
        for _, rec, result in progress(stream, "judging", total=count_records(path),
                                       disabled=args.no_progress,
                                       status=asker.stats.status if asker else None):
            out = {**rec, **result.to_dict()}
            summary.add(out)
            yield out

    write_or_drain(outputs(), args.output, csv_raw=args.csv_raw)
    return _print(args, summary, registry, asker)


def _print(args: argparse.Namespace, summary: JudgeSummary, registry, asker=None) -> int:
    if not args.quiet:
        out = summary_stream(args.output)
        print(f"evaltools judge: {' '.join(args.input)}" +
              (f" -> {args.output}" if args.output else ""), file=out)
        print(format_summary(summary, registry.ids), file=out)
        if asker is not None:
            print(asker.stats.line(), file=out)
    tell_no_output("judge", args)
    return 0
