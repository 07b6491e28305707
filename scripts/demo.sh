#!/usr/bin/env bash
# The main job on the sample data in data/: scores, judgments, the HTML report
# and the executed notebooks, all under reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
B=.venv/bin
mkdir -p reports

$B/evaltools score data/responses.jsonl -o reports/responses.scored.jsonl
echo
if $B/evaltools judge --help >/dev/null 2>&1; then
  $B/evaltools judge data/judgments.jsonl -o reports/judgments.judged.jsonl
  echo
fi
if $B/evaltools report --help >/dev/null 2>&1; then
  $B/evaltools report data/responses.jsonl data/judgments.jsonl -o reports/report.html
fi
if [ -f scripts/export_notebooks.py ]; then
  $B/python scripts/export_notebooks.py
fi
if [ -f scripts/run_module_audits.py ]; then
  $B/python scripts/run_module_audits.py
fi
$B/python -m evaltools.report.index reports data/responses.jsonl data/judgments.jsonl
echo
echo "reports/ holds: $(cd reports && find . -maxdepth 2 -name '*.html' | sort | tr '\n' ' ')"
