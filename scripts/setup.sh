#!/usr/bin/env bash
# Create .venv (if missing) and install Teahouse into it. Usage: scripts/setup.sh [--dev]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
extra=""
[ "${1:-}" = "--dev" ] && extra="[dev]"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extra}"
