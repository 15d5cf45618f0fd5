"""What the children of ``--confirm`` may see and touch (issue 33, "Safe to run anywhere").

The fork server the children are forked from (pool.py) is started through a small launcher
script written into the run's scratch folder: it starts Python with a scrubbed environment (an
allowlist, plus what ``pass-env`` in ``[tool.msgraphlint.confirm]`` names), HOME and TMPDIR in the
scratch folder, the scratch folder as working directory and, where the system offers it, in Linux
namespaces: no network, and the file system read-only outside the scratch folder (``bwrap`` when
installed, else ``unshare`` with the mounts made in _enter_sandbox.py). A sandbox that does not
start is not an error: the run goes on without it and says so once on stderr.

Every child makes itself the leader of its own session (:func:`own_session`), so the processes
the user's code starts stay in its process group, and the parent kills the whole group when the
child's targets end, on Ctrl-C, on SIGTERM/SIGHUP and at exit (:func:`kill_group`,
:func:`kill_all`).
"""

from __future__ import annotations

import atexit
import contextlib
import fnmatch
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

# Exact names and prefixes passed to the children: what Python, MindSpore, its devices and the
# maths libraries read. Anything else only through pass-env.
ALLOWED = frozenset({
    "PATH", "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONHASHSEED",
    "PYTHONWARNINGS", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV",
    "DEVICE_ID", "RANK_ID", "RANK_SIZE", "RANK_TABLE_FILE", "OMP_NUM_THREADS",
})
ALLOWED_PREFIXES = ("LC_", "MS_", "GLOG_", "ASCEND_", "CUDA_", "NVIDIA_", "HCCL_", "OMP_",
                    "OPENBLAS_", "MKL_", "KMP_", "GOMP_")
NOTICE = ("msgraphlint: note: --confirm runs without a sandbox here ({why}): the compiled code can"
          " write outside its scratch folder and reach the network. Its environment is still"
          " scrubbed (pass more variables with pass-env in [tool.msgraphlint.confirm]), and its"
          " processes are still killed when it ends.")
ENTER = Path(__file__).with_name("_enter_sandbox.py")

_noticed = False
_groups: set[int] = set()
_lock = threading.Lock()


def passes(name: str, pass_env: tuple[str, ...] = ()) -> bool:
    """Whether the variable ``name`` reaches the children."""
    if name in ALLOWED or name.startswith(ALLOWED_PREFIXES):
        return True
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in pass_env)


def child_environment(scratch: Path, pass_env: tuple[str, ...] = (),
                      source: dict[str, str] | None = None) -> dict[str, str]:
    """The children's whole environment."""
    source = dict(os.environ if source is None else source)
    env = {key: value for key, value in source.items() if passes(key, pass_env)}
    env.setdefault("PATH", os.defpath)
    for key in ("HOME", "TMPDIR", "TMP", "TEMP"):
        env.pop(key, None)
    env["HOME"] = str(scratch / "home")
    env["TMPDIR"] = env["TMP"] = env["TEMP"] = str(scratch / "tmp")
    return env


def _sandbox_commands(scratch: Path) -> list[tuple[str, list[str]]]:
    """(name, command prefix) of every sandbox this system has, best first."""
    found = []
    if not sys.platform.startswith("linux"):
        return found
    root = str(scratch)
    if bwrap := shutil.which("bwrap"):
        found.append(("bwrap", [bwrap, "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev",
                                "--bind", root, root, "--unshare-net", "--die-with-parent",
                                "--chdir", root, "--"]))
    if unshare := shutil.which("unshare"):
        user = [] if os.geteuid() == 0 else ["--map-root-user"]
        found.append(("unshare", [unshare, "--net", "--mount", *user, "--propagation", "private",
                                  "--", sys.executable, "-I", "-S", str(ENTER), root]))
    return found


def _launcher(path: Path, scratch: Path, env: dict[str, str], prefix: list[str]) -> Path:
    assignments = " ".join(shlex.quote(f"{key}={value}") for key, value in sorted(env.items()))
    command = " ".join(shlex.quote(part) for part in [*prefix, sys.executable])
    path.write_text(f"#!/bin/sh\ncd {shlex.quote(str(scratch))} || exit 1\n"
                    f"exec env -i {assignments} {command} \"$@\"\n", "utf-8")
    path.chmod(0o700)
    return path


def _works(launcher: Path, scratch: Path) -> tuple[bool, str]:
    """Starts Python through ``launcher`` once: it must run, and write in the scratch folder."""
    probe = scratch / "tmp" / "probe"
    try:
        done = subprocess.run([str(launcher), "-c", f"open({str(probe)!r}, 'w').close()"],
                              capture_output=True, text=True, timeout=30, cwd=scratch,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as error:
        return False, str(error)
    if done.returncode != 0 or not probe.exists():
        lines = (done.stderr or "").strip().splitlines()
        return False, lines[-1] if lines else f"exit status {done.returncode}"
    probe.unlink()
    return True, ""


def prepare(scratch: Path, pass_env: tuple[str, ...] = (), notice=None) -> tuple[Path | None, str]:
    """Writes the launcher into ``scratch`` (the run's scratch folder) and returns it with the
    sandbox's name ("bwrap", "unshare", or "none"); None when not even the unsandboxed launcher
    runs (a noexec /tmp): the children then scrub their environment themselves."""
    global _noticed
    for sub in ("home", "tmp"):
        (scratch / sub).mkdir(exist_ok=True)
    env = child_environment(scratch, pass_env)
    why = []
    for name, prefix in _sandbox_commands(scratch):
        launcher = _launcher(scratch / f"python-{name}", scratch, env, prefix)
        ok, error = _works(launcher, scratch)
        if ok:
            return launcher, name
        why.append(f"{name} failed: {error}")
    if not why:
        why.append("neither bwrap nor unshare is installed" if sys.platform.startswith("linux")
                   else "namespaces are Linux's")
    if not _noticed:
        _noticed = True
        (notice or (lambda text: print(text, file=sys.stderr)))(NOTICE.format(why="; ".join(why)))
    launcher = _launcher(scratch / "python-plain", scratch, env, [])
    return (launcher, "none") if _works(launcher, scratch)[0] else (None, "none")


# ----- in the child ---------------------------------------------------------------------------

def own_session(env: dict[str, str] | None) -> None:
    """First thing in a child: its own session (so its process group holds every process it
    starts) and, when given, exactly ``env`` as its environment."""
    with contextlib.suppress(OSError):
        os.setsid()
    if env is not None:
        os.environ.clear()
        os.environ.update(env)


# ----- in the parent --------------------------------------------------------------------------

def track(pid: int) -> None:
    with _lock:
        _groups.add(pid)


def kill_group(pid: int) -> None:
    """SIGKILL to the process group the child ``pid`` leads (it and whatever it started)."""
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(pid, signal.SIGKILL)
    with _lock:
        _groups.discard(pid)


def kill_all() -> None:
    for pid in list(_groups):
        kill_group(pid)
    if _session is not None:
        sweep(_session["root"])
    stop_servers()


def sweep(root: Path) -> None:
    """SIGKILL to every process whose environment has HOME in ``root``: each child and all it
    starts inherit it, so this finds a daemon that left its child's process group too (a double
    fork with setsid). It must go before the servers stop: it holds the resource tracker's pipe,
    and msgraphlint would wait at exit for the tracker as long as the daemon lives. Where /proc
    cannot be read, the process groups are all there is."""
    needle = f"HOME={root / 'home'}".encode() + b"\0"
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as file:
                if needle in file.read() + b"\0":
                    os.kill(int(entry), signal.SIGKILL)
        except OSError:
            continue


_tracker_was_running: bool | None = None
_session: dict | None = None


def session(pass_env: tuple[str, ...] = (), notice=None) -> tuple[Path, Path | None, str, dict]:
    """The process' scratch folder, launcher, sandbox name and the children's environment.

    Made once per msgraphlint process (a fork server imports MindSpore once, then serves every
    run of the process) and again when the environment to give the children changes; the fork
    server, the resource tracker it started and the folder go at exit (:func:`kill_all`)."""
    global _session, _tracker_was_running
    if _session is None:
        from multiprocessing import resource_tracker

        _tracker_was_running = getattr(resource_tracker._resource_tracker, "_fd", None) is not None
        stop_forkserver()  # one started before, outside a session, is not sandboxed
        root = Path(os.path.realpath(tempfile.mkdtemp(prefix="msgraphlint-confirm-")))
        _session = {"root": root, "key": None}
    root = _session["root"]
    env = child_environment(root, pass_env)
    key = tuple(sorted(env.items()))
    if _session["key"] != key:
        stop_forkserver()
        launcher, name = prepare(root, pass_env, notice)
        _session.update(key=key, launcher=launcher, name=name, env=env)
    return root, _session["launcher"], _session["name"], _session["env"]


def stop_forkserver() -> None:
    with contextlib.suppress(Exception):
        from multiprocessing import forkserver

        forkserver._forkserver._stop()


def stop_servers() -> None:
    """The fork server (and the resource tracker it started) must not outlive msgraphlint;
    nor the scratch folder."""
    global _tracker_was_running, _session
    stop_forkserver()
    if _tracker_was_running is False:
        with contextlib.suppress(Exception):
            from multiprocessing import resource_tracker

            resource_tracker._resource_tracker._stop()
    _tracker_was_running = None
    if _session is not None:
        shutil.rmtree(_session["root"], ignore_errors=True)
        _session = None


_installed = False


@contextlib.contextmanager
def signals_kill_children():
    """From the first run on, SIGTERM and SIGHUP kill the children's groups, stop the fork server
    and remove the scratch folder before the default action (or the handler that was there);
    Ctrl-C raises KeyboardInterrupt, whose unwinding kills them, then atexit does the rest."""
    global _installed
    if not _installed and threading.current_thread() is threading.main_thread():
        _installed = True
        for number in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if number is not None:
                with contextlib.suppress(ValueError, OSError):
                    _chain(number, signal.getsignal(number))
    yield


def _chain(number: int, previous) -> None:
    def handler(signum, frame):
        kill_all()
        if callable(previous):
            previous(signum, frame)
        elif previous != signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    signal.signal(number, handler)


atexit.register(kill_all)
