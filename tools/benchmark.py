"""Speed, as ratios against baselines measured in the same run (never a timed unit test).

    python tools/benchmark.py [--suite models] [--repeat 3] [--pylint] [--write FILE]

Suites are real code nobody on this team wrote: the PyPI wheels of MindSpore model zoos, fetched
with ``pip download --no-deps`` into a cache (never committed). Each figure is the best of
``--repeat`` runs:

- CLI / ast floor: ``msgraphlint check`` (a child process, start-up included) against a child that
  only reads and ``ast.parse``-s the same files, run in turns (one of each per round), so that each
  round's ratio compares the two in the same phase of a machine whose speed drifts;
- one file: ``msgraphlint check FILE`` wall time, interpreter start-up included (what pre-commit and
  editors pay);
- plugin / bare pylint (``--pylint``): ``pylint --disable=all --enable=msgraphlint`` against
  ``pylint --disable=all --enable=line-too-long`` (a token-based check: the baseline still builds
  every astroid tree but infers nothing; with everything disabled pylint lints nothing and exits 32),
  as the pylint command's wall time and again up to the end of each run (exit excluded: the plugin
  spares the pylint command's exit the interpreter's last collections, bare pylint's trees too);
- peak memory of the CLI child.

``--robustness`` times nothing: it checks the suites, MindSpore's installed package and the
standard library (Python 2 files, BOMs, bad encodings, syntax errors) and fails on any internal
error.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from msgraphlint.syntax.project import walk_python_files

SUITES = {
    "models": ("mindcv", "mindocr", "mindyolo", "mindformers"),
    "mindone": ("mindone",),
}
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "msgraphlint-bench"
FLOOR_SCRIPT = (
    "import ast, sys\n"
    "from pathlib import Path\n"
    "for p in Path(sys.argv[1]).rglob('*.py'):\n"
    "    try: ast.parse(p.read_bytes())\n"
    "    except (SyntaxError, ValueError): pass\n"
)


def fetch_suite(suite: str, cache: Path) -> Path:
    """Download (once) and unpack the suite's wheels; returns the folder holding their sources."""
    wheels, root = cache / "wheels", cache / suite
    for name in SUITES[suite]:
        target = root / name
        if target.is_dir():
            continue
        wheels.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(wheels), name],
            check=True,
            stderr=subprocess.DEVNULL,
        )
        wheel = max(wheels.glob(f"{name.replace('-', '_')}-*.whl"), key=lambda p: p.stat().st_mtime)
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(target)
    return root


def best_wall(command: list[str], repeat: int) -> tuple[float, int]:
    """Best wall time of a child process, and the peak RSS (KiB) of the children so far."""
    best = float("inf")
    for _ in range(repeat):
        best = min(best, wall(command))
    return best, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


# pylint in a child that reports how long its run took, then exits without the interpreter's
# teardown: the plugin freezes what is alive for the pylint command's exit (msgraphlint/plugin.py),
# which spares bare pylint's own trees too, so the wall ratio alone would credit the plugin with
# pylint's exit. This measures the two up to the end of their runs.
PYLINT_RUN_ONLY = (
    "import os, sys, time\n"
    "from pylint.lint import Run\n"
    "start = time.perf_counter()\n"
    "Run(sys.argv[1:], exit=False)\n"
    "print(f'run-seconds {time.perf_counter() - start}', file=sys.stderr, flush=True)\n"
    "os._exit(0)\n"
)


def run_seconds(command: list[str]) -> float:
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    lines = [line for line in done.stderr.splitlines() if line.startswith("run-seconds ")]
    if not lines:
        raise SystemExit(f"pylint did not finish its run:\n{done.stderr[-2000:]}")
    return float(lines[-1].split()[1])


def walls_in_turns(commands: dict[str, list[str]], repeat: int,
                   timer: Callable[[list[str]], float] = wall) -> dict[str, list[float]]:
    """Every command once per round, ``repeat`` rounds: on a machine whose speed drifts (a shared
    virtual machine), a baseline and the command compared with it see the same phases. ``timer``
    times one command (its wall time, or what it reports of itself)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            times[name].append(timer(command))
    return times


def count_code(root: Path) -> tuple[int, int, int]:
    files = lines = constructs = 0
    for path in root.rglob("*.py"):
        files += 1
        text = path.read_bytes()
        lines += text.count(b"\n")
        constructs += text.count(b"def construct(")
    return files, lines, constructs


def tool(name: str) -> list[str]:
    script = Path(sys.executable).with_name(name)
    return [str(script)] if script.exists() else [sys.executable, "-m", name]


def measure(root: Path, repeat: int, with_pylint: bool) -> list[tuple[str, str]]:
    msgraphlint = tool("msgraphlint")
    check_all = [*msgraphlint, "check", str(root), "--format", "json", "-o", os.devnull]
    times = walls_in_turns(
        {
            "floor": [sys.executable, "-c", FLOOR_SCRIPT, str(root)],
            "check": [*check_all, "--no-cache"],
            "serial": [*check_all, "--no-cache", "--jobs", "1"],
        },
        repeat,
    )
    floor, check, serial = (min(times[name]) for name in ("floor", "check", "serial"))
    # Each round's own ratio compares the two in the same phase of the machine; the ratio of
    # the best times can pair a lucky floor with an unlucky check.
    paired = sorted(c / f for c, f in zip(times["check"], times["floor"]))
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with tempfile.TemporaryDirectory() as cache:  # never the user's cache
        os.environ["MSGRAPHLINT_CACHE_DIR"] = cache
        best_wall(check_all, 1)  # fills the cache
        cached, _ = best_wall(check_all, repeat)
        del os.environ["MSGRAPHLINT_CACHE_DIR"]
    one_file = max(root.rglob("*.py"), key=lambda p: p.read_bytes().count(b"def construct("))
    single, _ = best_wall([*msgraphlint, "check", str(one_file), "--no-cache"], repeat)
    cores = os.cpu_count()
    rows = [
        ("ast floor (child process, one core)", f"{floor:.2f} s"),
        (f"msgraphlint check, --jobs {cores} (the default), no cache", f"{check:.2f} s"),
        (
            "**CLI / ast floor** (target <= 3x), each round's own ratio: median (best, worst)",
            f"**{statistics.median(paired):.2f}x** ({paired[0]:.2f}x, {paired[-1]:.2f}x)",
        ),
        ("CLI / ast floor, ratio of the best times", f"{check / floor:.2f}x"),
        ("msgraphlint check --jobs 1, no cache", f"{serial:.2f} s ({serial / floor:.2f}x)"),
        ("msgraphlint check, unchanged re-run (result cache)", f"{cached:.2f} s ({cached / floor:.2f}x)"),
        (f"one file ({one_file.name}), start-up included, no cache (target < 1 s)", f"{single:.2f} s"),
        ("peak memory of a child", f"{peak / 1024:.0f} MiB"),
    ]
    if with_pylint:
        pylint = tool("pylint")
        # --recursive: the suites are folders of packages, not packages themselves.
        common = ["--persistent=n", "--score=n", "--jobs=1", "--recursive=y", str(root)]
        probe = subprocess.run([*pylint, "--disable=all", "--enable=line-too-long", *common],
                               capture_output=True, text=True, check=False)
        if probe.returncode & 33:  # fatal or usage error: a time of nothing
            raise SystemExit(f"pylint failed on the suite:\n{probe.stdout[-2000:]}{probe.stderr[-2000:]}")
        pair_args = {
            "bare": ["--disable=all", "--enable=line-too-long", *common],
            "plugin": ["--load-plugins=msgraphlint", "--disable=all", "--enable=msgraphlint", *common],
        }
        pair = walls_in_turns({name: [*pylint, *args] for name, args in pair_args.items()}, repeat)
        bare, plugin = min(pair["bare"]), min(pair["plugin"])
        run_only = [sys.executable, "-c", PYLINT_RUN_ONLY]
        runs = walls_in_turns({name: [*run_only, *args] for name, args in pair_args.items()}, repeat,
                              timer=run_seconds)
        bare_run, plugin_run = min(runs["bare"]), min(runs["plugin"])
        rows += [
            ("pylint --disable=all --enable=line-too-long", f"{bare:.2f} s"),
            ("pylint --disable=all --enable=msgraphlint", f"{plugin:.2f} s"),
            ("**plugin / bare pylint** (target <= 1.25x)", f"**{plugin / bare:.2f}x**"),
            ("plugin / bare pylint, each up to the end of its run (exit excluded)",
             f"{plugin_run / bare_run:.2f}x ({plugin_run:.2f} s against {bare_run:.2f} s)"),
        ]
    return rows


def robustness(roots: list[Path]) -> tuple[str, bool]:
    """Check each corpus with the CLI: every file must end as findings, never as a crash."""
    msgraphlint = tool("msgraphlint")
    rows, clean = [], True
    for root in roots:
        done = subprocess.run(
            [*msgraphlint, "check", str(root), "--format", "json", "--no-cache", "--fail-on", "error"],
            capture_output=True, text=True, check=False,
        )
        findings = json.loads(done.stdout) if done.stdout.strip().startswith("[") else []
        inputs = sum(1 for f in findings if f["family"] == "input")
        crashes = done.stderr.count("internal error")
        ok = done.returncode in (0, 1) and crashes == 0
        clean &= ok
        rows.append(f"| {root} | {len(walk_python_files(root))} | {inputs} | {crashes} | {done.returncode} |"
                    f" {'ok' if ok else 'FAILED'} |")
    table = "\n".join(rows)
    header = "| corpus | files | input findings (syntax, encoding, BOM) | internal errors | exit | |\n| --- | --- | --- | --- | --- | --- |"
    return f"{header}\n{table}\n", clean


def report(suite: str, root: Path, rows: list[tuple[str, str]], command: str) -> str:
    files, lines, constructs = count_code(root)
    mindspore = "installed" if _has_mindspore() else "not installed"
    table = "\n".join(f"| {name} | {value} |" for name, value in rows)
    return (
        f"## Suite `{suite}`: {files} files, {lines:,} lines, {constructs} construct methods\n\n"
        f"Command: `{command}`\n\n"
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()},"
        f" MindSpore {mindspore} in the environment.\n\n"
        f"| measure | best of runs |\n| --- | --- |\n{table}\n"
    )


def _has_mindspore() -> bool:
    from importlib.util import find_spec

    return find_spec("mindspore") is not None


def compile_bytecode() -> None:
    """Write the tool's bytecode before timing, as a pip install does: with
    PYTHONDONTWRITEBYTECODE set (some CI images set it) an editable install would otherwise
    recompile every module at each start and the timings would measure the compiler."""
    import compileall
    import importlib.util

    for package in ("msgraphlint", "msgraphlint.checkers"):
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=1, maxlevels=2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=sorted(SUITES), default="models")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pylint", action="store_true", help="also time the pylint plugin")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--write", type=Path, help="append the report to this Markdown file")
    parser.add_argument(
        "--robustness",
        action="store_true",
        help="instead of timing: check the suites, MindSpore's package (if installed) and the"
        " standard library, and fail on any internal error",
    )
    args = parser.parse_args(argv)
    compile_bytecode()
    if args.robustness:
        import sysconfig
        from importlib.util import find_spec

        roots = [fetch_suite(suite, args.cache) for suite in sorted(SUITES)]
        spec = find_spec("mindspore")
        if spec is not None and spec.submodule_search_locations:
            roots.append(Path(next(iter(spec.submodule_search_locations))))
        roots.append(Path(sysconfig.get_paths()["stdlib"]))
        text, clean = robustness(roots)
        print(text)
        return 0 if clean else 1
    root = fetch_suite(args.suite, args.cache)
    command = "python tools/benchmark.py " + " ".join(argv if argv is not None else sys.argv[1:])
    text = report(args.suite, root, measure(root, args.repeat, args.pylint), command.strip())
    print(text)
    if args.write:
        with args.write.open("a", encoding="utf-8") as out:
            out.write("\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
