#!/usr/bin/env bash
# Set up everything evaltools needs on a fresh machine, idempotently.
#   scripts/setup.sh          the package, its dev tools and the offline widget bundle
#   scripts/setup.sh --browser  also Debian's chromium (for the browser tests)
set -euo pipefail
cd "$(dirname "$0")/.."

# apt without its chatter: no prompts, no "debconf: delaying package configuration" or
# "dpkg-preconfigure" lines; real errors still reach stderr.
apt_quiet() {
  DEBIAN_FRONTEND=noninteractive "$@" >/dev/null \
    2> >(grep -v -e '^debconf: ' -e '^dpkg-preconfigure: ' >&2)
}

want_browser=0
[ "${1:-}" = "--browser" ] && want_browser=1

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.evaltools-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  # (this machine's pip config may name extra package folders that do not exist: not our noise)
  quiet() { "$@" 2> >(grep -v "^WARNING: Location" >&2); }
  # --no-cache-dir: a wheel is unpacked into .venv only, not kept a second time in pip's
  # cache (a CI machine once ran out of disk during this install)
  quiet .venv/bin/python -m pip install -q --no-cache-dir --upgrade pip >/dev/null
  quiet .venv/bin/python -m pip install -q --no-cache-dir -e '.[dev]'
  touch "$stamp"
fi

# The JupyterLab widget manager bundle, so exported notebooks render widgets offline.
if [ -x scripts/fetch_widget_bundle.sh ] || [ -f scripts/fetch_widget_bundle.sh ]; then
  bash scripts/fetch_widget_bundle.sh
fi

if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt_quiet apt-get update -qq
    apt_quiet apt-get install -y -qq chromium
    apt_quiet apt-get clean  # the downloaded .deb files are not needed once installed
  else
    echo "setup: /usr/bin/chromium is missing and this is not root: browser tests will skip" >&2
  fi
fi
