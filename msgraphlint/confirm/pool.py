"""The parent side of ``--confirm``: child processes, limits, and what a failure costs.

One child per module (its targets run one after the other in it), at most ``jobs`` at a time.
Children are forked from a multiprocessing fork server that imported MindSpore once, so a child
starts in milliseconds, and neither MindSpore nor the user's code is ever imported into the
linter's own process.

Limits are enforced from here, where a misbehaving child cannot interfere: a time limit for
importing the module and another per target, and a resident-memory limit polled with psutil (an
RLIMIT_AS limit would break MindSpore, which reserves far more address space than it uses). The
child adds a kernel limit under the poll (RLIMIT_DATA, child.py): one allocation of 20 GB fails
at once instead of growing faster than the poll looks. A
child that exits, hangs, crashes or blows the limit costs only the target it was running (or,
during the import, the module's targets): the others are run again in a fresh child.

The fork server is started through sandbox.py's launcher (a scrubbed environment, and
namespaces where the system has them) and stopped when msgraphlint exits; each child leads its
own session, whose process group is killed when its targets end.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import multiprocessing.spawn
import os
import shutil
import signal
import sys
import tempfile
import time
import types
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata, util
from pathlib import Path

from . import sandbox
from .cache import Cache, entry_key
from .child import unverified_result
from ..confirm_settings import DEFAULT_IMPORT_TIMEOUT
from .plan import ConfirmTarget, ImportSpec

INSTALL_HINT = "pip install 'msgraphlint[confirm]'"
POLL_SECONDS = 0.2
IR_PASSES = "MS_DEV_DUMP_IR_PASSES"
PRELOAD = ["mindspore", "numpy", "msgraphlint.confirm.child", "msgraphlint.confirm.referee",
           "msgraphlint.confirm._forkserver_guard"]
SIGNAL_WORDS = {
    signal.SIGSEGV: "a segmentation fault",
    signal.SIGABRT: "an abort",
    signal.SIGKILL: "SIGKILL (out of memory?)",
    signal.SIGBUS: "a bus error",
    signal.SIGFPE: "a floating-point exception",
}


class MindSporeMissing(Exception):
    """MindSpore cannot be imported: --confirm needs the confirm extra."""


def mindspore_version() -> str:
    """From the installed distribution's metadata: never imports MindSpore here."""
    try:
        if util.find_spec("mindspore") is None:
            raise MindSporeMissing("MindSpore is not installed")
        return metadata.version("mindspore")
    except metadata.PackageNotFoundError:
        raise MindSporeMissing("MindSpore is not installed") from None
    except (ImportError, ValueError) as error:
        raise MindSporeMissing(f"MindSpore cannot be imported: {error}") from None


@dataclass
class Job:
    path: Path
    spec: ImportSpec
    targets: list[ConfirmTarget]  # in source order
    keys: dict[int, str | None] = field(default_factory=dict)  # target index -> cache key


@dataclass
class Child:
    job: Job
    process: multiprocessing.Process
    conn: multiprocessing.connection.Connection
    workdir: Path
    deadline: float
    current: int | str | None = None  # None before the import, "import", or a target index
    finished: bool = False
    dependencies: list[str] = field(default_factory=list)
    reported: set[int] = field(default_factory=set)
    next_memory_check: float = 0.0


@dataclass
class RunStats:
    compiled: int = 0  # targets a child ran
    cached: int = 0  # targets answered from the cache
    unverified: int = 0  # targets with no answer from MindSpore (limits, crashes, reasons)
    children: int = 0
    mindspore: str | None = None
    seconds: float = 0.0


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


@contextlib.contextmanager
def _quiet_environment():
    """The fork server (and so every child) starts with MindSpore's logging at ERROR and Python
    warnings off: their output would land in the linter's stderr before a child redirects it."""
    saved = {key: os.environ.get(key) for key in ("GLOG_v", "PYTHONWARNINGS", IR_PASSES)}
    os.environ.setdefault("GLOG_v", "3")
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    # Only the validated graph is read (for PyExecute nodes): saving all ~300 IR files per
    # compile doubles its time, saving one costs next to nothing.
    os.environ[IR_PASSES] = "validate"
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextlib.contextmanager
def _without_main():
    """multiprocessing re-runs the parent's __main__ script in every child (and fails on
    `python -` or an interactive session); the children need nothing from it."""
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = saved


def _unverified(reason: str, target: ConfirmTarget) -> dict:
    return unverified_result(target.level.value, reason)


class ChildPool:
    def __init__(self, device: str, jobs: int, timeout: float, memory_limit_mb: int,
                 cache: Cache, progress: Callable[[int], None] = lambda n: None,
                 import_timeout: float = DEFAULT_IMPORT_TIMEOUT, pass_env: tuple[str, ...] = (),
                 notice: Callable[[str], None] | None = None):
        self.device = device
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.import_timeout = import_timeout
        self.memory_limit = memory_limit_mb * 1024 * 1024
        self.cache = cache
        self.progress = progress
        self.stats = RunStats()
        self.context = _context()
        self._root: Path | None = None
        self.pass_env = tuple(pass_env)
        self.notice = notice  # where the no-sandbox notice goes (None: stderr)
        self.sandbox = "none"  # what the children run in: "bwrap", "unshare" or "none"
        self._env: dict[str, str] | None = None

    # ----- planning and the cache ---------------------------------------------------------

    def run(self, targets: list[ConfirmTarget], specs: dict[Path, ImportSpec]) -> RunStats:
        started = time.monotonic()
        version = mindspore_version()
        self.stats.mindspore = version
        jobs: dict[Path, Job] = {}
        for target in targets:
            if target.reason is not None:
                target.result = _unverified(target.reason, target)
                self.stats.unverified += 1
                self.progress(1)
                continue
            spec = target.spec
            key = entry_key(spec, target.path, version, self.device)
            if (found := self.cache.get(key)) is not None:
                target.result = found
                self.stats.cached += 1
                self.progress(1)
                continue
            job = jobs.setdefault(target.path, Job(target.path, specs[target.path], []))
            job.keys[len(job.targets)] = key
            job.targets.append(target)
        if jobs:
            self._run_jobs([jobs[path] for path in sorted(jobs)])
        self.stats.seconds = time.monotonic() - started
        return self.stats

    # ----- children -----------------------------------------------------------------------

    def _run_jobs(self, jobs: list[Job]) -> None:
        if self.context.get_start_method() == "forkserver":
            self.context.set_forkserver_preload(PRELOAD)
        pending = deque((job, list(range(len(job.targets)))) for job in jobs)
        active: list[Child] = []
        saved_executable = multiprocessing.spawn.get_executable()
        try:
            with _quiet_environment(), sandbox.signals_kill_children():
                # The fork server starts through the launcher (when it is not running yet).
                root, launcher, self.sandbox, self._env = sandbox.session(self.pass_env,
                                                                          self.notice)
                self._root = Path(tempfile.mkdtemp(prefix="run-", dir=root))
                if launcher is not None:
                    multiprocessing.spawn.set_executable(str(launcher))
                while pending or active:
                    while pending and len(active) < self.jobs:
                        active.append(self._start(*pending.popleft()))
                    waitables = [c.conn for c in active] + [c.process.sentinel for c in active]
                    multiprocessing.connection.wait(waitables, timeout=POLL_SECONDS)
                    for child in list(active):
                        retry = self._service(child)
                        if child.finished:
                            active.remove(child)
                            self._cleanup(child)
                            if retry:
                                pending.appendleft((child.job, retry))
        finally:  # MindSpore missing, Ctrl-C, SIGTERM, a bug: no child outlives the run
            for child in active:
                self._cleanup(child)
            multiprocessing.spawn.set_executable(saved_executable)
            if self._root is not None:
                shutil.rmtree(self._root, ignore_errors=True)

    def _start(self, job: Job, indices: list[int]) -> Child:
        workdir = Path(tempfile.mkdtemp(prefix="job-", dir=self._root))
        specs = []
        for index in indices:
            spec = dict(job.targets[index].spec, index=index)
            specs.append(spec)
        payload = {
            "workdir": str(workdir),
            "device": self.device,
            "import_name": job.spec.name,
            "sys_path": list(job.spec.sys_path),
            "module_path": str(job.path),
            "targets": specs,
            "env": self._env,
            "memory_limit": self.memory_limit,
        }
        from .child import run_job  # noqa: PLC0415 - imports nothing heavy; pickled by name

        receiver, sender = self.context.Pipe(duplex=False)
        process = self.context.Process(target=run_job, args=(payload, sender), daemon=True)
        with _without_main():
            process.start()
        sender.close()
        sandbox.track(process.pid)
        self.stats.children += 1
        # Until the child says the module is imported, the import limit applies.
        return Child(job, process, receiver, workdir, time.monotonic() + self.import_timeout)

    def _service(self, child: Child) -> list[int]:
        """Read what the child said, enforce the limits; returns targets to run again."""
        while not child.finished:
            try:
                if not child.conn.poll():
                    break
                message = child.conn.recv()
            except (EOFError, OSError):
                break
            self._handle(child, message)
        if child.finished:
            return []
        if not child.process.is_alive():
            child.process.join(1)
            return self._failed(child, self._exit_reason(child.process.exitcode))
        now = time.monotonic()
        if now > child.deadline:
            self._kill(child)
            if self._importing(child):
                return self._failed(child, f"did not finish within the {self.import_timeout:g} s"
                                    " import limit (import-timeout in [tool.msgraphlint.confirm])")
            return self._failed(child, f"did not finish within the {self.timeout:g} s time limit"
                                " (timeout in [tool.msgraphlint.confirm])")
        if now >= child.next_memory_check:
            child.next_memory_check = now + 0.5
            used = _resident_memory(child.process.pid)
            if used > self.memory_limit:
                self._kill(child)
                return self._failed(
                    child, f"used {used / 2**20:.0f} MB, over the {self.memory_limit / 2**20:.0f} MB"
                    " memory limit (memory-limit-mb in [tool.msgraphlint.confirm])")
        return []

    def _handle(self, child: Child, message: tuple) -> None:
        kind = message[0]
        if kind == "version":
            self.stats.mindspore = message[1]
        elif kind == "fatal-mindspore":
            raise MindSporeMissing(f"MindSpore cannot be imported: {message[1]}")
        elif kind == "import-start":
            child.current = "import"
        elif kind == "imported":
            child.dependencies = list(message[1])
            child.current = None
            child.deadline = time.monotonic() + self.timeout
        elif kind == "import-limit":  # out of memory or sys.exit while importing: no answer
            self._finish_all(child, message[1])
        elif kind in ("import-failed", "fatal"):
            # Not cached: an import error may be a missing package the user installs next.
            if kind == "import-failed":
                for target in child.job.targets:  # a file only imported: that is its answer
                    if target.kind == "module" and target.result is None:
                        location = message[2] if len(message) > 2 else None
                        target.result = dict(_unverified(message[1], target), status="rejected",
                                             error=message[1], message=message[1],
                                             locations=[location] if location else [],
                                             primary=location)
                        self.stats.compiled += 1
                        self.progress(1)
                        # The file's own syntax error depends on its content alone: cached.
                        if (location and "raised SyntaxError" in message[1]
                                and os.path.realpath(location[0]) == os.path.realpath(target.path)):
                            self.cache.put(child.job.keys.get(child.job.targets.index(target)),
                                           target.result, [str(target.path)])
            self._finish_all(child, message[1])
        elif kind == "start":
            child.current = message[1]
            child.deadline = time.monotonic() + self.timeout
        elif kind == "result":
            index, result = message[1], message[2]
            target = child.job.targets[index]
            target.result = result
            child.reported.add(index)
            self.stats.compiled += 1
            self.cache.put(child.job.keys.get(index), result,
                           child.dependencies or [str(child.job.path)])
            self.progress(1)
            child.current = None
        elif kind == "done":
            child.finished = True
            child.process.join(5)

    def _finish_all(self, child: Child, reason: str) -> None:
        """Every target of the child not yet answered gets ``reason``."""
        for target in child.job.targets:
            if target.result is None:
                target.result = _unverified(reason, target)
                self.stats.unverified += 1
                self.progress(1)
        child.finished = True

    @staticmethod
    def _importing(child: Child) -> bool:
        """Whether the child is still importing its module (or never said it had)."""
        return child.current == "import" or (
            child.current is None and not child.reported and not child.dependencies)

    def _failed(self, child: Child, what: str) -> list[int]:
        """The child died or was stopped: blame the target it was running, retry the rest."""
        current = child.current
        if self._importing(child):
            self._finish_all(child, f"importing the module: the child process {what}")
            return []
        child.finished = True
        if current is None:  # between two targets: blame the next one, so that retries end
            current = next((i for i, t in enumerate(child.job.targets) if t.result is None), None)
        retry = []
        for index, target in enumerate(child.job.targets):
            if target.result is not None:
                continue
            if index == current:
                target.result = _unverified(f"the child process {what} while running it", target)
                self.stats.unverified += 1
                self.progress(1)
            else:
                retry.append(index)
        return retry

    def _exit_reason(self, code: int | None) -> str:
        if code is None:
            return "stopped"
        if code < 0:
            try:
                number = signal.Signals(-code)
            except ValueError:
                return f"was killed by signal {-code}"
            return f"crashed with {number.name} ({SIGNAL_WORDS.get(number, 'a signal')})"
        return f"exited with status {code} (os._exit or sys.exit in the code?)"

    def _kill(self, child: Child) -> None:
        sandbox.kill_group(child.process.pid)  # the child's session: all it started
        try:
            import psutil

            for grandchild in psutil.Process(child.process.pid).children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    grandchild.kill()
        except Exception:  # noqa: BLE001 - psutil missing or the process already gone
            pass
        with contextlib.suppress(Exception):
            child.process.kill()
        child.process.join(5)

    def _cleanup(self, child: Child) -> None:
        with contextlib.suppress(Exception):
            child.conn.close()
        if child.process.is_alive():
            self._kill(child)
        # Its targets are over: whatever it started (a double-forked daemon too) goes with it.
        sandbox.kill_group(child.process.pid)
        shutil.rmtree(child.workdir, ignore_errors=True)


def _resident_memory(pid: int) -> int:
    """Resident bytes of the child and its own children; 0 when it cannot be read."""
    try:
        import psutil

        process = psutil.Process(pid)
        total = process.memory_info().rss
        for grandchild in process.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                total += grandchild.memory_info().rss
        return total
    except Exception:  # noqa: BLE001 - psutil missing, or the process just ended
        return 0
