"""The compiler tests' in-process judgements, made ahead in a second process.

tests/test_compiler.py judges every target of every compiled sample at the three levels with the
referee in the pytest process: minutes of one core, while most other tests leave the second core
idle. When the session selects the compiler tests, conftest.py starts this module as a child at
the start of the session (``python -m tests.prejudge FOLDER PARENT_PID``) and moves the tests
that read the judgements to the end; the child judges the same targets in the same order,
exactly as ``referee_judgement`` would, and writes each judgement to FOLDER as it is made.
``referee_judgement`` takes a judgement from FOLDER when the child planned it, waiting for it if
it is not made yet, and judges in process otherwise (the child failed, died or was not started).

The child writes ``plan.json`` first (every key it will judge), then one pickle per key, each by
an atomic rename. A judgement that raised is not written: the test judges it again, in process,
and shows the error itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

SAMPLES = "samples.json"  # the ids of the samples the session's selected tests judge
PLAN = "plan.json"
DONE = "done"
# Compiler tests that read the judgements: conftest.py runs them last when the child is started.
READERS = ("test_compiler.py", "test_one_referee.py")


def key_file(folder: Path, key: tuple[str, str]) -> Path:
    return folder / (hashlib.sha1(json.dumps(key).encode()).hexdigest() + ".pickle")


def _write_atomically(path: Path, data: bytes) -> None:
    partial = path.with_suffix(".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def judge_all(folder: Path, parent: int) -> None:
    """Judge every compiled sample's targets at every level, in tests/test_compiler.py's order;
    stop when the pytest process that started this one is gone."""
    from msgraphlint.confirm.referee import judge, load_module
    from msgraphlint.knowledge.catalogue import Level

    from .test_compiler import COMPILED_SAMPLES, judgement_key, planned_targets

    wanted = set(json.loads((folder / SAMPLES).read_text()))
    work = []
    for sample in (sample for sample in COMPILED_SAMPLES if sample.id in wanted):
        module = load_module(sample.path)
        for level in Level:
            for target in planned_targets(sample.path, level, module):
                work.append((sample.path, judgement_key(sample.path, target), target.spec))
    _write_atomically(folder / PLAN, json.dumps([key for _, key, _ in work]).encode())
    loaded = None
    for path, key, spec in work:
        if os.getppid() != parent:
            return
        if loaded != path:
            # Loaded again just before its targets are judged, as the test does: a sample's
            # module-level code (a context it sets) runs where it runs in the test.
            module, loaded = load_module(path), path
        try:
            judgement = judge(module, spec)
            data = pickle.dumps(judgement)
        except Exception:  # the test judges it again in process and shows the error
            continue
        _write_atomically(key_file(folder, key), data)
    (folder / DONE).touch()


class Prejudged:
    """The pytest side: the child, and the judgements it has written."""

    def __init__(self, folder: Path, child: subprocess.Popen | None):
        self.folder = folder
        self.child = child
        self._planned: set[tuple[str, str]] | None = None

    @classmethod
    def start(cls, folder: Path, root: Path, sample_ids: list[str]) -> Prejudged:
        (folder / SAMPLES).write_text(json.dumps(sample_ids))
        with open(folder / "child.log", "wb") as log:
            child = subprocess.Popen(
                [sys.executable, "-m", "tests.prejudge", str(folder), str(os.getpid())],
                cwd=root, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        return cls(folder, child)

    def _running(self) -> bool:
        return self.child is not None and self.child.poll() is None

    def planned(self) -> set[tuple[str, str]]:
        if self._planned is None:
            plan = self.folder / PLAN
            while not plan.exists() and self._running():
                time.sleep(0.2)
            self._planned = ({tuple(key) for key in json.loads(plan.read_text())}
                             if plan.exists() else set())
        return self._planned

    def take(self, key: tuple[str, str]):
        """The child's judgement for ``key``, or None: not planned, or the child gave none."""
        if key not in self.planned():
            return None
        path = key_file(self.folder, key)
        while not path.exists() and self._running() and not (self.folder / DONE).exists():
            time.sleep(0.2)
        if not path.exists():
            return None
        return pickle.loads(path.read_bytes())

    def stop(self) -> None:
        if self._running():
            self.child.terminate()
            try:
                self.child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.wait()


# The session's child, when conftest.py started one.
ACTIVE: Prejudged | None = None


if __name__ == "__main__":
    judge_all(Path(sys.argv[1]), int(sys.argv[2]))
