#!/usr/bin/env bash
# Adds a MindSpore release's API snapshot: installs that release in a venv of its own (CPU wheel,
# NumPy 1.x as its wheel needs), reads its API with msgraphlint's snapshot command and writes
# msgraphlint/knowledge/data/api/mindspore-<major>.<minor>.json, and its Cell classes' attributes
# (msgraphlint/knowledge/data/cells/). Then run the tests.
#   tools/add_mindspore_version.sh 2.11.0
set -euo pipefail
version="${1:?usage: tools/add_mindspore_version.sh VERSION (e.g. 2.11.0)}"
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${MSGRAPHLINT_SNAPSHOT_VENVS:-$HOME/.cache/msgraphlint-dev/venvs}/mindspore-$version"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "mindspore==$version" "numpy<2" psutil
fi
# msgraphlint's knowledge layer imports nothing else of msgraphlint: no install needed there.
cd "$(mktemp -d)"
PYTHONPATH="$root" "$venv/bin/python" -m msgraphlint.knowledge.api_snapshot
PYTHONPATH="$root" "$venv/bin/python" -m msgraphlint.knowledge.cell_classes
echo "now run: pytest tests/test_api_snapshot.py tests/test_family_mindspore_api.py"
