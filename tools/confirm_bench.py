"""Benchmark: what ``--confirm`` costs over a bare MindSpore compile of the same Cells.

    python tools/confirm_bench.py [PATHS...] [--jobs N] [--level lax|strict|compatible]

Default paths: the bundled samples of a few families. In one run it measures, on the same targets:

1. bare: one fresh Python process imports MindSpore and calls every target once in GRAPH_MODE
   (compile and run), nothing else: the least any confirmation could cost;
2. confirm, cold: ``--confirm=all`` with an empty cache and ``--jobs 1``, then with ``--jobs N``
   (each target: GRAPH_MODE twice with its IR saved, the gradient, PyNative for comparison);
3. confirm, cached: the same again with the cache the cold run filled.

and prints the times and the ratios to the bare compile (docs/confirm.md records a run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from msgraphlint.pipeline import new_engine
from msgraphlint.knowledge.catalogue import Level
from msgraphlint.config import Config
from msgraphlint.syntax.project import walk_python_files
from msgraphlint.confirm.plan import Planner
from msgraphlint.confirm.run import ConfirmOptions, confirm_findings, default_jobs

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PATHS = [ROOT / "samples" / family for family in
                 ("syntax", "third_party", "frozen", "gradient", "concurrency", "compiler")]

BARE = textwrap.dedent("""
    import importlib.util, json, sys, time
    started = time.perf_counter()
    import mindspore as ms
    import numpy as np
    imported = time.perf_counter()
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, sys.argv[1]))
    x = ms.Tensor((np.arange(1, 5).reshape(2, 2) / 4).astype(np.float32))
    count = 0
    for index, (path, names) in enumerate(json.loads(sys.stdin.read())):
        spec = importlib.util.spec_from_file_location(f"bench_{index}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            continue
        for name in names:
            count += 1
            try:
                target = getattr(module, name)
                target = target() if isinstance(target, type) else target
                target(x)
            except Exception:
                pass
    print(json.dumps({"import": imported - started, "compile": time.perf_counter() - imported,
                      "targets": count}))
""")


def plan(paths: list[Path], level: Level) -> dict[str, list[str]]:
    """Every module-level Cell and jit function with one input: what both sides run."""
    engine = new_engine()
    engine.check_paths(paths)
    planner = Planner(engine.model, Config().confirm, level, Path.cwd())
    for path in sorted({f for p in paths for f in walk_python_files(p)}):
        if (module := engine.project.module(path)) is not None:
            planner.add_module(module)
    chosen: dict[str, list[str]] = {}
    for target in planner.targets.values():
        if target.reason is None and len(target.inputs) == 1 and "." not in target.attr:
            chosen.setdefault(str(target.path), []).append(target.attr)
    return chosen


def bare_compile(targets: dict[str, list[str]], level: Level) -> dict:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", BARE, level.name], input=json.dumps(
        sorted(targets.items())), capture_output=True, text=True, check=True,
        env={"GLOG_v": "3", "PYTHONWARNINGS": "ignore", **os.environ})
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["wall"] = time.perf_counter() - started
    return figures


def confirm_once(paths, level, cache: Path, jobs: int, use_cache: bool = True) -> tuple[float, object]:
    engine = new_engine()
    run = engine.check_paths(paths)
    files = [f for p in paths for f in walk_python_files(p)]
    started = time.perf_counter()
    outcome = confirm_findings(engine, run.findings, Config(level=level), files,
                               ConfirmOptions(all_targets=True, jobs=jobs, use_cache=use_cache,
                                              progress=False, cache_dir=cache))
    return time.perf_counter() - started, outcome


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python tools/confirm_bench.py")
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--level", default="lax", choices=[level.value for level in Level])
    options = parser.parse_args(argv)
    paths = options.paths or DEFAULT_PATHS
    level = Level(options.level)
    targets = plan(paths, level)
    count = sum(len(names) for names in targets.values())
    print(f"{count} targets in {len(targets)} modules at {level.name}; {options.jobs} jobs")
    bare = bare_compile(targets, level)
    print(f"bare compile (1 process):  {bare['wall']:6.1f} s wall"
          f" ({bare['import']:.1f} s importing MindSpore, {bare['compile']:.1f} s compiling"
          f" and running {bare['targets']} targets once)")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        serial, outcome = confirm_once(paths, level, Path(folder) / "serial", 1)
        rows.append(("confirm, cold, --jobs 1", serial, outcome))
        if options.jobs > 1:
            parallel, outcome = confirm_once(paths, level, Path(folder) / "parallel", options.jobs)
            rows.append((f"confirm, cold, --jobs {options.jobs}", parallel, outcome))
        cached, outcome = confirm_once(paths, level, Path(folder) / "serial", 1)
        rows.append(("confirm, cached re-run", cached, outcome))
    for label, seconds, outcome in rows:
        stats = outcome.stats
        print(f"{label:<26} {seconds:6.1f} s  = {seconds / bare['wall']:5.2f} x bare"
              f"  ({stats.compiled} compiled, {stats.cached} cached, {stats.unverified}"
              f" unverified, {stats.children} child processes)")


if __name__ == "__main__":
    main()
