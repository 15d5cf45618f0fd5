"""Memory in a long-lived process: analysing again and again keeps what one analysis keeps.

Each measurement runs in a fresh interpreter, so that what the rest of the test session holds
neither hides a leak nor counts as one.
"""

from __future__ import annotations

import json
import subprocess
import sys

from .samples_index import ROOT

SAMPLE = ROOT / "samples" / "models" / "resnet_port" / "model.py"

# The engine as the language server drives it: the same buffer, edited, checked 300 times.
ENGINE_RUNS = """
import gc, json, sys
from pathlib import Path
from msgraphlint.pipeline import new_engine

path = Path(sys.argv[1])
text = path.read_bytes()
engine = new_engine()
samples = []
for run in range(1, 301):
    checked = engine.check_files([path], {path: text + b"# edit %d\\n" % run})
    assert not checked.internal_errors, checked.internal_errors
    if run % 10 == 0:
        frozen = gc.get_freeze_count()
        samples.append((run, frozen, frozen + len(gc.get_objects())))
print(json.dumps({"samples": samples, "findings": len(checked.findings)}))
"""

# The pylint plugin as an editor's pylint server runs it: pylint in one process, run after run
# on an unsaved buffer (--from-stdin).
PLUGIN_RUNS = """
import gc, io, json, sys
from pathlib import Path
from pylint.lint import Run
from pylint.reporters.text import TextReporter

path = Path(sys.argv[1])
text = path.read_text("utf-8")
samples = []
for run in range(1, 61):
    sys.stdin = io.TextIOWrapper(io.BytesIO(f"{text}# edit {run}\\n".encode()))
    out = io.StringIO()
    Run(["--load-plugins=msgraphlint", "--disable=all", "--enable=msgraphlint", "--persistent=n",
         "--from-stdin", str(path)], reporter=TextReporter(out), exit=False)
    if run % 5 == 0:
        modules = sum(1 for o in gc.get_objects() if type(o).__name__ == "ModuleInfo")
        samples.append((run, gc.get_freeze_count(), modules))
print(json.dumps({"samples": samples, "messages": out.getvalue().count("\\n")}))
"""


def measured(script: str) -> dict:
    done = subprocess.run([sys.executable, "-c", script, str(SAMPLE)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_engine_analysing_again_and_again_stays_flat():
    result = measured(ENGINE_RUNS)
    assert result["findings"] > 0
    samples = result["samples"]
    frozen = [count for _, count, _ in samples]
    # Frozen objects are never collected: each analysis used to freeze the garbage of the buffer
    # it replaced.
    assert frozen[-1] <= frozen[0], frozen
    objects = {run: count for run, count, _ in samples}
    early = max(count for run, count in objects.items() if run <= 100)
    late = max(count for run, count in objects.items() if run > 150)
    assert late <= 1.5 * early, samples


def test_the_pylint_plugin_run_after_run_keeps_no_old_buffers():
    result = measured(PLUGIN_RUNS)
    assert result["messages"] > 0
    samples = result["samples"]
    assert all(frozen == 0 for _, frozen, _ in samples), samples
    # One ModuleInfo per module the engine holds (a few): the old buffers' ones must be collected,
    # not kept one per run.
    assert max(modules for _, _, modules in samples) < 30, samples
