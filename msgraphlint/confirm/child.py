"""The child side of ``--confirm``: import one user module and run its targets with MindSpore.

A thin shell around referee.py, which runs and judges each target: here are the process setup,
the import of the user's module, the messages to the parent and the result dicts. Runs only in a
child process (forked from a server that imported MindSpore once), never in the linter's own
process. It talks to the parent through a multiprocessing Connection with plain
tuples, one message per step, so the parent knows which target was running when the child hung,
crashed or ran out of memory:

    ("version", ms_version) ("import-start",) ("imported", [project files loaded])
    ("import-failed", reason) ("start", index) ("result", index, result_dict) ("done",)
    ("fatal", reason)  -- MindSpore missing, or the device cannot be set

A result dict: status "compiled" | "rejected" | "unverified", plus level, error (one line),
message (the compiler's text, trimmed), locations ([path, line] in user code, in the order
MindSpore names them), primary ([path, line] or None), evidence ([[kind, detail], ...]) and
fallback ([[path, line], ...]: PyExecute nodes, code the graph hands to the Python interpreter),
and note (what was seen but is not evidence) when there is one.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import re
import sys
import traceback
from pathlib import Path

from ..engine.analyze import end_with_parent
from ..knowledge.catalogue import Verdict
from .sandbox import own_session
from .referee import (
    IN_FILE, Judgement, Unrunnable, gradient_summary, is_user_file, judge, one_line,
)

MESSAGE_LIMIT = 4000  # characters of the compiler's message kept
# The kernel's limit on the child's writable memory (RLIMIT_DATA) is this many times the
# resident limit above what it holds at start: the parent's poll (pool.py) is the limit, this
# the backstop for an allocation faster than the poll (bytearray(20 * 2**30) takes no time to
# ask for). Twice, because MindSpore maps writable memory it never touches (a small compile:
# +1.1 GB of data, +30 MB resident), which the poll does not count and this does.
DATA_LIMIT_FACTOR = 2


def user_locations(text: str) -> list[tuple[str, int]]:
    """(path, line) of every "In file" MindSpore names in user code, in order, each once."""
    found: list[tuple[str, int]] = []
    for path, line in IN_FILE.findall(text):
        if is_user_file(path) and (path, int(line)) not in found:
            found.append((path, int(line)))
    return found


IN_FILE_COLUMNS = re.compile(r"In file (.+?\.py):(\d+), (\d+)~")


def primary_location(text: str) -> tuple[str, int, int] | None:
    """Where the error is (path, line, 0-based column): the "In file" right after the message,
    else the deepest user frame of "The Traceback of Net Construct Code"."""
    head, _, traceback_part = text.partition("The Traceback of")
    head_locations = user_locations(head.split("C++ Call Stack")[0])
    frames = user_locations(traceback_part)
    chosen = head_locations[0] if head_locations else (frames[-1] if frames else None)
    if chosen is None:
        return None
    column = 0
    for path, line, start in IN_FILE_COLUMNS.findall(text):
        if (path, int(line)) == chosen:
            column = int(start)
            break
    return (*chosen, column)


def trim_message(text: str) -> str:
    """The compiler's message without the framework developers' C++ stack and the IR hint."""
    text = re.sub(r"-{20,}\n- C\+\+ Call Stack:.*?(?=-{20,}\n- The Traceback|\Z)", "", text,
                  flags=re.S)
    text = re.sub(r"\s*\(See file '[^']*analyze_fail\.ir'.*?\)\s*$", "", text, flags=re.S)
    return text.strip()[:MESSAGE_LIMIT]


def unverified_result(level: str, reason: str | None = None) -> dict:
    """A result before (or instead of) running a target: nothing measured yet."""
    result = {"status": "unverified", "level": level, "evidence": [], "fallback": [],
              "locations": [], "primary": None}
    if reason is not None:
        result["reason"] = reason
    return result


def run_target(module, target: dict, workdir: Path) -> dict:
    """One target judged by the referee, as the result dict the parent caches and matches."""
    result = unverified_result(target["level"])
    if target["kind"] == "module":  # only imported, and it was
        return dict(result, status="compiled")
    # JIT Fallback (PyExecute) exists only above STRICT: no IR to read there; nor when only
    # whether it compiles is asked (writing the IR is a good part of a small graph's compile).
    ir_dir = workdir / f"ir_{target['index']}" \
        if target["level"] != "strict" and not target.get("compile_only") else None
    try:
        judgement = judge(module, target, ir_dir)
    except Unrunnable as error:
        result["reason"] = str(error)
        return result
    return result_of(judgement, result)


def result_of(judgement: Judgement, result: dict) -> dict:
    """A judgement into ``result`` (an unverified_result): what the parent needs, as plain data."""
    if judgement.verdict is Verdict.REJECTED:
        text = judgement.message or ""
        result.update(status="rejected", error=judgement.error,
                      message=trim_message(f"{judgement.error.split(':')[0]}: {text}"),
                      locations=[list(loc) for loc in user_locations(text)],
                      primary=list(primary_location(text) or []) or None)
        return result
    result.update(status="compiled", evidence=[list(pair) for pair in judgement.evidence],
                  fallback=[list(loc) for loc in judgement.fallback],
                  gradient=gradient_summary(judgement.graph.gradient if judgement.graph else None))
    if judgement.note is not None:
        result["note"] = judgement.note
    return result


def _quiet(workdir: Path) -> None:
    """The child's own output (MindSpore's logging, the user's prints) goes to a log file."""
    log = os.open(workdir / "child.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.chdir(workdir)  # MindSpore writes rank_0/ and analyze_fail.ir into the working folder


def _vm_data() -> int | None:
    """Bytes of writable private memory the process holds (what RLIMIT_DATA counts)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def limit_memory(limit: int | None) -> int | None:
    """RLIMIT_DATA at DATA_LIMIT_FACTOR x ``limit`` bytes above the current data size, soft and
    hard (the user's code cannot raise it); returns that budget, None where it cannot be set."""
    data = _vm_data()
    if not limit or data is None:
        return None
    try:
        import resource

        ceiling = data + DATA_LIMIT_FACTOR * limit
        resource.setrlimit(resource.RLIMIT_DATA, (ceiling, ceiling))
    except (ImportError, ValueError, OSError):
        return None
    return DATA_LIMIT_FACTOR * limit


def out_of_memory(budget: int | None) -> str:
    where = (f" ({budget / 2**20:.0f} MB more than it started with: twice memory-limit-mb in"
             " [tool.msgraphlint.confirm])") if budget else ""
    return f"the child process ran out of memory: an allocation failed at its memory limit{where}"


def run_job(job: dict, conn) -> None:
    """Entry point in the child (multiprocessing target)."""
    # Its own session first: the parent kills the whole group when its targets end. And it
    # ends with its parent, the fork server, which ends with msgraphlint, even by SIGKILL.
    end_with_parent(os.getppid())
    own_session(job.get("env"))
    workdir = Path(job["workdir"])
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a segfault leaves no core file
    except (ImportError, ValueError, OSError):
        pass
    _quiet(workdir)
    # The parent starts children as daemons (they die with it); the user's code may start
    # processes of its own, which Python refuses to a daemon: here it runs as in a script.
    multiprocessing.current_process().daemon = False
    # Forked from the fork server, the child's default start method is "forkserver": a Process
    # the user's code starts would start a fork server of its own, which fails in the sandbox
    # (EROFS). A script gets the platform's default.
    multiprocessing.set_start_method(None, force=True)
    try:
        import mindspore as ms
    except Exception as error:  # noqa: BLE001 - ImportError, or a broken install
        conn.send(("fatal-mindspore", one_line(error)))
        return
    conn.send(("version", ms.__version__))
    try:
        ms.set_device(job["device"])
    except Exception as error:  # noqa: BLE001
        conn.send(("fatal", f"MindSpore cannot use device {job['device']}: {one_line(error)}"))
        return
    budget = limit_memory(job.get("memory_limit"))
    before = set(sys.modules)
    for entry in reversed(job["sys_path"]):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    conn.send(("import-start",))
    try:
        module = importlib.import_module(job["import_name"])
    except MemoryError:
        conn.send(("import-limit", f"importing the module: {out_of_memory(budget)}"))
        return
    except SystemExit as error:  # the module exited: it gave no answer, nothing was compiled
        conn.send(("import-limit",
                   f"importing the module: the module exited (sys.exit({error.code!r}))"))
        return
    except BaseException as error:  # noqa: BLE001 - KeyboardInterrupt included
        frames = [(f.filename, f.lineno) for f in traceback.extract_tb(error.__traceback__)
                  if is_user_file(f.filename)]
        if isinstance(error, SyntaxError) and error.filename:  # the file that does not parse
            frames.append((error.filename, error.lineno or 1))
        location = [os.path.realpath(frames[-1][0]), frames[-1][1]] if frames else None
        where = f" ({frames[-1][0]}:{frames[-1][1]})" if frames else ""
        conn.send(("import-failed", f"importing the module raised {one_line(error)}{where}",
                   location))
        return
    loaded = sorted(
        {
            os.path.realpath(m.__file__)
            for name, m in list(sys.modules.items())
            if name not in before and getattr(m, "__file__", None) and is_user_file(m.__file__)
        }
    )
    conn.send(("imported", loaded))
    for target in job["targets"]:
        conn.send(("start", target["index"]))
        try:
            result = run_target(module, target, workdir)
        except MemoryError:
            result = unverified_result(target["level"], f"{out_of_memory(budget)} while running it")
        except Exception as error:  # noqa: BLE001 - our own harness must not lose the others
            result = unverified_result(target["level"], f"the harness failed: {one_line(error)}")
        conn.send(("result", target["index"], result))
    conn.send(("done",))
