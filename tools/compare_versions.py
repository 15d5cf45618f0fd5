"""Time two installs of msgraphlint on one suite, in turns with the stdlib-ast floor.

    python tools/compare_versions.py BASELINE_MSGRAPHLINT SUITE_DIR [ROUNDS]

BASELINE_MSGRAPHLINT is the `msgraphlint` script of another install (say, an older commit
installed in a venv of its own: `git worktree add /tmp/old REV && python -m venv /tmp/oldvenv &&
/tmp/oldvenv/bin/pip install /tmp/old`); the current one is the `msgraphlint` beside this
interpreter. Each round runs the floor, the baseline and the current CLI once; the figures are
each round's own ratios, so a machine whose speed drifts weighs on all three alike.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

FLOOR = ("import ast, sys\nfrom pathlib import Path\nfor p in Path(sys.argv[1]).rglob('*.py'):\n"
         "    try: ast.parse(p.read_bytes())\n    except (SyntaxError, ValueError): pass\n")


def main(argv: list[str]) -> None:
    from benchmark import compile_bytecode

    compile_bytecode()  # as installed: the baseline's pip install wrote its bytecode too
    baseline, suite = argv[0], argv[1]
    rounds = int(argv[2]) if len(argv) > 2 else 5
    current = str(Path(sys.executable).with_name("msgraphlint"))
    check = ["check", suite, "--no-cache", "--format", "json", "-o", "/dev/null"]
    commands = {"floor": [sys.executable, "-c", FLOOR, suite],
                "baseline": [baseline, *check], "current": [current, *check]}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - start)
    for name in ("baseline", "current"):
        ratios = [t / f for t, f in zip(times[name], times["floor"])]
        print(f"{name}: best {min(times[name]):.2f} s, each round's ratio to the floor: median"
              f" {statistics.median(ratios):.2f}x")
    own = [c / b for c, b in zip(times["current"], times["baseline"])]
    print(f"floor best {min(times['floor']):.2f} s; current / baseline, each round's own ratio:"
          f" median {statistics.median(own):.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
