"""A folder of hostile modules confirmed through the CLI, as a user or a CI job runs it (issue 33).

Each module has a Cell with findings; the module exits (sys.exit, os._exit), hangs (at import,
in construct), segfaults, asks for 20 GB, double-forks a grandchild that sleeps, writes outside
its folder, or reads a canary secret from the environment and writes it where the test can see
it. The run must end; every other module's findings keep a verdict; the hostile ones get a clear
reason; no process of the run is left (found by a marker every process of the run has in its
environment, passed with pass-env, and by the children's process groups); nothing is written
outside the scratch folder (where a sandbox exists) and the secret reaches nobody.

Also the kill tests: one second after ``timeout -s TERM 3 msgraphlint check ...`` ends, with
``--jobs 2`` and with ``--confirm``, no process of that run is left.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
psutil = pytest.importorskip("psutil")

from .samples_index import SAMPLES  # noqa: E402

pytestmark = pytest.mark.compiler
ENTRY_POINT = Path(sys.executable).with_name("msgraphlint")
MARKER_VARIABLE = "MSGRAPHLINT_HOSTILE_MARKER"
SECRET_VARIABLE = "MSGRAPHLINT_HOSTILE_SECRET"
# A hang costs its limit: the import limit is the default (60 s), construct's is set here, as a
# user would for a folder of small Cells (the default, 300 s, leaves room for a large model).
TIMEOUT = 45
MEMORY_LIMIT_MB = 2048
# The bound for a hostile folder on this machine (2 shared cores): measured at about
# 62 s (docs/confirm.md); generous, it checks that the run ends, not how fast.
WALL_LIMIT = 150

CELL = """
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.where(x.asnumpy() > 0, 1.0, 0.0).astype(np.float32))
"""


def hostile_modules(outside: Path) -> dict[str, str]:
    return {
        "exits.py": "import sys\nsys.exit(3)\n" + CELL,
        "exits_hard.py": "import os\nos._exit(4)\n" + CELL,
        "hangs_at_import.py": "import time\ntime.sleep(3600)\n" + CELL,
        "hangs_in_construct.py": CELL + textwrap.dedent("""
            import time


            class Sleeps(nn.Cell):
                def construct(self, x):
                    time.sleep(3600)
                    return x + Tensor(np.where(x.asnumpy() > 0, 1.0, 0.0).astype(np.float32))
        """),
        "segfaults.py": "import ctypes\nctypes.string_at(0)\n" + CELL,
        "hogs.py": "heap = bytearray(20 * 2**30)  # 20 GB, touched at once\n" + CELL,
        "forks.py": textwrap.dedent("""
            import os
            import sys


            def daemon():
                if os.fork() == 0:  # a double fork: the grandchild is nobody's child
                    if os.fork() == 0:
                        os.setsid()  # and leaves the child's process group
                        os.execv(sys.executable, [sys.executable, "-c",
                                                  "import time; time.sleep(600)"])
                    os._exit(0)


            daemon()
        """) + CELL,
        "writes.py": textwrap.dedent(f"""
            try:
                with open({str(outside / "escaped.txt")!r}, "w") as file:
                    file.write("written from a module under --confirm")
            except OSError:
                pass
        """) + CELL,
        "reads_secret.py": textwrap.dedent(f"""
            import os

            seen = os.environ.get({SECRET_VARIABLE!r})
            for place in ({str(outside / "secret.txt")!r}, os.path.expanduser("~/secret.txt")):
                try:
                    with open(place, "w") as file:
                        file.write(f"secret={{seen}}")
                except OSError:
                    pass
        """) + CELL,
        "normal.py": CELL,
    }


def marked(marker: str) -> list[psutil.Process]:
    """Every process whose command line or environment holds ``marker`` (but this one)."""
    found = []
    needle = marker.encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        for part in ("cmdline", "environ"):
            try:
                with open(f"/proc/{entry}/{part}", "rb") as file:
                    if needle in file.read():
                        found.append(psutil.Process(int(entry)))
                        break
            except (OSError, psutil.Error):
                continue
    return found


def living(processes) -> list[psutil.Process]:
    alive = []
    for process in processes:
        try:
            if process.status() != psutil.STATUS_ZOMBIE:
                alive.append(process)
        except psutil.Error:
            pass
    return alive


def in_groups(groups: set[int]) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter():
        try:
            if os.getpgid(process.pid) in groups and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
        except (OSError, psutil.Error):
            pass
    return found


def kill(processes) -> None:
    for process in processes:
        try:
            process.kill()
        except psutil.Error:
            pass


class Watch(threading.Thread):
    """While the run goes: the process groups of its processes and their largest total RSS."""

    def __init__(self, marker: str, cli_pid: int):
        super().__init__(daemon=True)
        self.marker, self.cli_pid = marker, cli_pid
        self.groups: set[int] = set()
        self.peak = 0
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            total = 0
            for process in marked(self.marker):
                try:
                    group = os.getpgid(process.pid)
                    if group != os.getpgid(self.cli_pid):
                        self.groups.add(group)  # a child's own session
                    total += process.memory_info().rss
                except (OSError, psutil.Error):
                    pass
            self.peak = max(self.peak, total)
            self.done.wait(0.2)


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile")
    folder, outside = base / "project", base / "outside"
    folder.mkdir()
    outside.mkdir()
    marker, secret = f"marker-{uuid.uuid4().hex}", f"canary-{uuid.uuid4().hex}"
    (folder / "pyproject.toml").write_text(textwrap.dedent(f"""
        [project]
        name = "hostile"

        [tool.msgraphlint.confirm]
        timeout = {TIMEOUT}
        memory-limit-mb = {MEMORY_LIMIT_MB}
        pass-env = ["{MARKER_VARIABLE}"]
    """))
    for name, text in hostile_modules(outside).items():
        (folder / name).write_text(text)
    before = sorted(p.relative_to(base) for p in base.rglob("*"))
    started = time.monotonic()
    cli = subprocess.Popen(
        [str(ENTRY_POINT), "check", "--confirm", "--no-cache", "--format", "json", "-j", "2", "."],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "MSGRAPHLINT_CACHE_DIR": str(base / "cache"), MARKER_VARIABLE: marker,
             SECRET_VARIABLE: secret})
    watch = Watch(marker, cli.pid)
    watch.start()
    try:
        stdout, stderr = cli.communicate(timeout=600)
    finally:
        cli.kill()
        watch.done.set()
        watch.join()
    elapsed = time.monotonic() - started
    time.sleep(1.0)  # what is left one second after the run ended
    left = living(marked(marker)) + in_groups(watch.groups)
    kill(left)
    after = sorted(p.relative_to(base) for p in base.rglob("*")
                   if "__pycache__" not in p.parts and p.parts[len(base.parts)] != "cache")
    records = json.loads(stdout)
    print(f"hostile folder: {elapsed:.1f} s, peak RSS of its processes {watch.peak / 2**20:.0f} MB")
    return {"records": records, "stderr": stderr, "stdout": stdout, "elapsed": elapsed,
            "left": left, "before": before, "after": after, "base": base, "outside": outside,
            "secret": secret, "peak": watch.peak, "groups": watch.groups,
            "sandboxed": "runs without a sandbox" not in stderr, "code": cli.returncode}


def verdicts(run, name: str) -> list[dict]:
    return [r for r in run["records"] if Path(r["path"]).name == name]


def test_the_run_ends_within_the_bound(hostile_run):
    assert hostile_run["code"] == 1, hostile_run["stderr"]  # findings, not a crash of the CLI
    assert "Traceback" not in hostile_run["stderr"]
    assert hostile_run["elapsed"] < WALL_LIMIT, hostile_run["elapsed"]


@pytest.mark.parametrize("name, reason", [
    ("exits.py", "importing the module: the module exited (sys.exit(3))"),
    ("exits_hard.py", "importing the module: the child process exited with status 4"),
    ("hangs_at_import.py", "importing the module: the child process did not finish within the"
                           " 60 s import limit (import-timeout in [tool.msgraphlint.confirm])"),
    ("segfaults.py", "importing the module: the child process crashed with SIGSEGV"
                     " (a segmentation fault)"),
    ("hogs.py", "importing the module: the child process ran out of memory"),
])
def test_a_hostile_module_gets_a_clear_verdict(hostile_run, name, reason):
    found = verdicts(hostile_run, name)
    assert found
    for record in found:
        assert record["confirmation"] == "unverified"
        assert reason in record["evidence"][0]["detail"], record["evidence"]


def test_a_hang_in_construct_is_cut_off_by_the_time_limit(hostile_run):
    found = verdicts(hostile_run, "hangs_in_construct.py")
    sleeps = [r for r in found if r["target"] == "Sleeps.construct"]
    fine = [r for r in found if r["target"] == "Net.construct"]
    assert sleeps and {r["confirmation"] for r in sleeps} == {"unverified"}
    assert all(f"did not finish within the {TIMEOUT} s time limit" in r["evidence"][0]["detail"]
               for r in sleeps)
    # the Cell beside it runs again in a fresh child
    assert fine and {r["confirmation"] for r in fine} == {"confirmed"}


@pytest.mark.parametrize("name", ["normal.py", "forks.py", "writes.py", "reads_secret.py"])
def test_every_other_module_is_still_confirmed(hostile_run, name):
    found = verdicts(hostile_run, name)
    assert found and {r["confirmation"] for r in found} == {"confirmed"}, found


def test_no_process_is_left(hostile_run):
    assert hostile_run["groups"], "the children's process groups were never seen"
    assert hostile_run["left"] == []


def test_the_20_gb_allocation_never_took_the_memory(hostile_run):
    # The kernel's data limit refuses it at once; the poll alone would stop it at 2 GB resident.
    assert hostile_run["peak"] < 3 * MEMORY_LIMIT_MB * 2**20, hostile_run["peak"]


def test_the_secret_reaches_nobody(hostile_run):
    secret = hostile_run["secret"]
    assert secret not in hostile_run["stdout"] + hostile_run["stderr"]
    for path in hostile_run["base"].rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
    leaked = hostile_run["outside"] / "secret.txt"
    if leaked.exists():  # no sandbox: written, but the scrubbed environment had no secret
        assert leaked.read_text() == "secret=None"


def test_nothing_is_written_outside_the_scratch_folder(hostile_run):
    if not hostile_run["sandboxed"]:
        pytest.skip("neither bwrap nor unshare works here: only the environment is scrubbed")
    assert hostile_run["after"] == hostile_run["before"]


# ----- timeout -s TERM 3 msgraphlint ... ---------------------------------------------------------

@pytest.fixture(scope="module")
def big_folder(tmp_path_factory) -> Path:
    """Enough files that the analysis (two workers) outlasts 3 s; a module that hangs while
    imported, with a child of its own, keeps --confirm busy as long."""
    folder = tmp_path_factory.mktemp("big")
    (folder / "pyproject.toml").write_text(textwrap.dedent(f"""
        [project]
        name = "big"

        [tool.msgraphlint.confirm]
        pass-env = ["{MARKER_VARIABLE}"]
    """))
    for index in range(60):
        shutil.copytree(SAMPLES / "models", folder / f"copy{index}")
    # Identical files are analysed once: each copy made its own file.
    for number, path in enumerate(sorted(folder.rglob("*.py"))):
        with path.open("a") as file:
            file.write(f"\n# copy {number}\n")
    return folder


def timed_out(command: list[str], cwd: Path, marker: str, cache: Path,
              seconds: int = 3) -> tuple[list[psutil.Process], dict[int, str]]:
    """``timeout -s TERM <seconds> <command>``: what is left of it one second after timeout
    returns, and the command lines of the processes seen while it ran."""
    seen: dict[int, str] = {}
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            for process in marked(marker):
                try:
                    seen[process.pid] = " ".join(process.cmdline())
                except psutil.Error:
                    pass
            stop.wait(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        done = subprocess.run(["timeout", "-s", "TERM", str(seconds), *command], cwd=cwd,
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, MARKER_VARIABLE: marker,
                                   "MSGRAPHLINT_CACHE_DIR": str(cache)})
    finally:
        stop.set()
        watcher.join()
    assert done.returncode == 124, (done.returncode, done.stderr)  # it was still running
    time.sleep(1.0)
    left = living(marked(marker))
    kill(left)
    return left, seen


@pytest.mark.skipif(shutil.which("timeout") is None, reason="coreutils' timeout is not installed")
def test_timeout_term_leaves_no_worker(big_folder, tmp_path):
    marker = f"marker-{uuid.uuid4().hex}"
    left, seen = timed_out([str(ENTRY_POINT), "check", "--jobs", "2", "--no-cache", "."],
                           big_folder, marker, tmp_path)
    print(*sorted(seen.values()), sep="\n")
    assert len(seen) >= 4, seen  # timeout, the CLI and its two workers were at work
    assert left == []


@pytest.mark.skipif(shutil.which("timeout") is None, reason="coreutils' timeout is not installed")
def test_timeout_term_leaves_nothing_of_confirm(tmp_path):
    marker = f"marker-{uuid.uuid4().hex}"
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent(f"""
        [project]
        name = "hangs"

        [tool.msgraphlint.confirm]
        pass-env = ["{MARKER_VARIABLE}"]
    """))
    # Forkserver, resource tracker, the child, its child and a double-forked grandchild: all
    # carry the marker (pass-env), and all must be gone.
    (tmp_path / "hangs.py").write_text(textwrap.dedent("""
        import os
        import subprocess
        import sys
        import time

        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        if os.fork() == 0:
            if os.fork() == 0:
                time.sleep(300)
            os._exit(0)
        time.sleep(300)
    """) + CELL)
    (tmp_path / "net.py").write_text(CELL)
    # 3 s as the issue says; where MindSpore's import has not let the children start by then
    # (a loaded machine), again with more time, so that TERM finds them all at work.
    for seconds in (3, 6, 12):
        left, seen = timed_out([str(ENTRY_POINT), "check", "--confirm", "--no-cache", "--jobs",
                                "2", "."], tmp_path, marker, tmp_path / "cache", seconds)
        print(seconds, *sorted(seen.values()), sep="\n")
        assert left == []
        if any("time.sleep(300)" in line for line in seen.values()):
            break
    lines = list(seen.values())
    assert any("multiprocessing.forkserver" in line for line in lines)
    assert any("multiprocessing.resource_tracker" in line for line in lines)
    assert any("time.sleep(300)" in line for line in lines)


def test_sigkill_of_the_cli_ends_its_fork_server_and_children(tmp_path):
    """SIGKILL runs no handler: the fork server ends with msgraphlint and each child with the fork
    server (PR_SET_PDEATHSIG), taking down its process group and whatever left it with the run's
    scratch HOME: the module's subprocess and its double-forked daemon too."""
    marker = f"marker-{uuid.uuid4().hex}"
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent(f"""
        [project]
        name = "hangs"

        [tool.msgraphlint.confirm]
        pass-env = ["{MARKER_VARIABLE}"]
    """))
    (tmp_path / "hangs.py").write_text(textwrap.dedent("""
        import os
        import subprocess
        import sys
        import time

        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        if os.fork() == 0:  # a daemon in a session of its own
            os.setsid()
            if os.fork() == 0:
                time.sleep(300)
            os._exit(0)
        time.sleep(300)
    """) + CELL)
    cli = subprocess.Popen([str(ENTRY_POINT), "check", "--confirm", "--no-cache", "."], cwd=tmp_path,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env={**os.environ, MARKER_VARIABLE: marker,
                                "MSGRAPHLINT_CACHE_DIR": str(tmp_path / "cache")})
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:  # until the child runs the module
            lines = []
            for process in marked(marker):
                try:
                    lines.append(" ".join(process.cmdline()))
                except psutil.Error:
                    pass
            if any("time.sleep(300)" in line for line in lines):
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the children never started: {lines}")
        time.sleep(2.0)  # the child is in the module's sleep
    finally:
        cli.send_signal(signal.SIGKILL)
        cli.wait()
    time.sleep(2.0)
    left = living(marked(marker))
    kill(left)
    assert left == []
