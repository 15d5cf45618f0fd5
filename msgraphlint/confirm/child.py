"""The child side of ``--confirm``: import one user module and run its targets with MindSpore.

Runs only in a child process (forked from a server that imported MindSpore once), never in the
linter's own process. It talks to the parent through a multiprocessing Connection with plain
tuples, one message per step, so the parent knows which target was running when the child hung,
crashed or ran out of memory:

    ("version", ms_version) ("import-start",) ("imported", [project files loaded])
    ("import-failed", reason) ("start", index) ("result", index, result_dict) ("done",)
    ("fatal", reason)  -- MindSpore missing, or the device cannot be set

A result dict: status "compiled" | "rejected" | "unverified", plus level, error (one line),
message (the compiler's text, trimmed), locations ([path, line] in user code, in the order
MindSpore names them), primary ([path, line] or None), evidence ([[kind, detail], ...]) and
fallback ([[path, line], ...]: PyExecute nodes, code the graph hands to the Python interpreter).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import sysconfig
import traceback
from pathlib import Path

from .settings import SPEC

MESSAGE_LIMIT = 4000  # characters of the compiler's message kept
# "In file /path/net.py:16, 15~41" or "In file /path/net.py:9~12, 4~28/..." (the IR's form)
IN_FILE = re.compile(r"In file (.+?\.py):(\d+)")
# Not user code: the standard library, installed packages, and msgraphlint itself (which may be
# installed in development mode, outside site-packages).
LIBRARY_DIRS = tuple(
    os.path.realpath(p) + os.sep
    for p in {*(sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")),
              os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
)
# Host calls a graph may run once at compile time (or not at all) instead of at every call. The
# module of the function called; counted only when user code (or a JIT Fallback eval) calls it.
HOST_C_MODULES = frozenset({
    "time", "random", "_random", "numpy.random.mtrand", "numpy.random._generator",
    "numpy.random.bit_generator", "_thread", "builtins.print",
})
HOST_PY_MODULES = frozenset({"random", "threading", "secrets", "uuid"})


def is_user_file(filename: str) -> bool:
    if filename.startswith("<"):
        # "<string>": a JIT Fallback (PyExecute) eval of the user's expression, not "<frozen ...>"
        return not filename.startswith("<frozen")
    return not os.path.realpath(filename).startswith(LIBRARY_DIRS)


class HostCallCounter:
    """Counts host calls (random, time, threads) made from user code while active."""

    def __init__(self) -> None:
        self.count = 0
        self.names: dict[str, int] = {}

    def _hit(self, name: str) -> None:
        self.count += 1
        self.names[name] = self.names.get(name, 0) + 1

    def __call__(self, frame, event, arg):
        if event == "c_call":
            module = getattr(arg, "__module__", None) or type(getattr(arg, "__self__", None)).__module__
            name = getattr(arg, "__qualname__", "?")
            key = "builtins.print" if (module, name) == ("builtins", "print") else module
            if key in HOST_C_MODULES and is_user_file(frame.f_code.co_filename):
                self._hit(f"{module}.{name}")
        elif event == "call":
            module = frame.f_globals.get("__name__")
            caller = frame.f_back
            if (
                module in HOST_PY_MODULES
                and caller is not None
                and not frame.f_code.co_name.startswith("_")
                and is_user_file(caller.f_code.co_filename)
            ):
                self._hit(f"{module}.{frame.f_code.co_qualname}")

    def __enter__(self):
        import threading

        sys.setprofile(self)
        threading.setprofile(self)
        return self

    def __exit__(self, *exc):
        import threading

        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


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


def fallback_lines(ir_dir: Path) -> list[tuple[str, int]]:
    """User source lines of PyExecute nodes in the validated graphs (JIT Fallback: the Python
    interpreter runs that code, values are frozen or gradients lost)."""
    found: list[tuple[str, int]] = []
    for path in sorted(ir_dir.glob("*validate*.ir")):
        try:
            lines = path.read_text("utf-8", "replace").splitlines()
        except OSError:
            continue
        for index, line in enumerate(lines):
            if "= PyExecute(" not in line:
                continue
            innermost = None
            for comment in lines[index + 1 : index + 40]:
                if comment.lstrip().startswith("%") or comment.startswith("}"):
                    break
                match = IN_FILE.search(comment)
                if match and is_user_file(match.group(1)) and "~" not in comment.split(",")[0]:
                    innermost = (match.group(1), int(match.group(2)))
            if innermost and innermost not in found:
                found.append(innermost)
    return found


def unverified_result(level: str, reason: str | None = None) -> dict:
    """A result before (or instead of) running a target: nothing measured yet."""
    result = {"status": "unverified", "level": level, "evidence": [], "fallback": [],
              "locations": [], "primary": None}
    if reason is not None:
        result["reason"] = reason
    return result


def one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


def build_callable(module, target: dict):
    """The object to call: a fresh Cell instance, a jit function, or a jit method of a fresh
    instance. Raises with a message saying what could not be built."""
    init = dict(target.get("init") or {})
    if target["kind"] == "cell":
        cls = getattr(module, target["attr"], None)
        if cls is None:
            raise LookupError(f"{target['attr']} is not defined at module level")
        try:
            return cls(**init)
        except Exception as error:  # noqa: BLE001 - the user's constructor
            raise LookupError(f"{target['attr']}({_kwargs(init)}) raised {one_line(error)};"
                              " set its init in [tool.msgraphlint.confirm.targets]") from None
    owner_name, _, method = target["attr"].rpartition(".")
    if not owner_name:
        function = getattr(module, method, None)
        if function is None:
            raise LookupError(f"{method} is not defined at module level")
        return function
    owner = getattr(module, owner_name, None)
    if owner is None:
        raise LookupError(f"{owner_name} is not defined at module level")
    try:
        instance = owner(**init)
    except Exception as error:  # noqa: BLE001
        raise LookupError(f"{owner_name}({_kwargs(init)}) raised {one_line(error)}") from None
    return getattr(instance, method)


def _kwargs(init: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in init.items())


class TargetRunner:
    """One target in GRAPH_MODE (twice, then its gradient) and in PyNative, compared."""

    def __init__(self, ms, probe, module, workdir: Path):
        self.ms = ms
        self.probe = probe
        self.module = module
        self.workdir = workdir

    def _events(self):
        events = getattr(self.module, "EVENTS", None)  # the samples' own effect log
        return events if isinstance(events, list) else None

    def observe(self, target: dict, inputs, graph: bool, ir_dir: Path | None = None):
        ms, probe = self.ms, self.probe
        level = probe.LEVEL_NAMES[probe.Level(target["level"])]
        ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE, jit_syntax_level=getattr(ms, level))
        events = self._events()
        if events is not None:
            events.clear()
        function = build_callable(self.module, target)
        if graph and target["kind"] == "cell" and not target.get("level_fixed"):
            function.set_jit_config(ms.JitConfig(jit_syntax_level=level))
        if graph and target["kind"] == "cell" and any("None" in spec for spec in target["inputs"]):
            function.set_inputs(*dynamic_placeholders(ms, target["inputs"], inputs))
        if not graph and target["kind"] == "jit":
            function = getattr(function, "__wrapped__", function)
        if graph and ir_dir is not None:
            ms.set_context(save_graphs=1, save_graphs_path=str(ir_dir))
        try:
            first = probe._normalise(function(*inputs))
        except Exception as error:  # noqa: BLE001 - the compiler's verdict
            return {"compiled": False, "error": one_line(error), "text": str(error)}
        finally:
            if graph and ir_dir is not None:
                ms.set_context(save_graphs=0)
        before = len(events) if events is not None else 0
        with HostCallCounter() as counter:
            try:
                second = probe._normalise(function(*inputs))
            except Exception as error:  # noqa: BLE001 - a second call that fails is evidence
                return {"compiled": True, "outputs": None, "error": one_line(error),
                        "text": str(error)}
        seen = {"compiled": True, "outputs": (first, second), "host_calls": counter.count,
                "host_names": counter.names,
                "events": (len(events) - before) if events is not None else None}
        try:
            seen["gradient"] = probe._normalise(ms.grad(function, grad_position=0)(*inputs))
        except Exception as error:  # noqa: BLE001 - not every output is differentiable
            seen["gradient"] = None
            seen["gradient_error"] = one_line(error)
        return seen

    def run(self, target: dict) -> dict:
        probe = self.probe
        result = unverified_result(target["level"])
        if target["kind"] == "module":  # only imported, and it was
            return dict(result, status="compiled")
        try:
            inputs = [probe.make_input(spec) for spec in target["inputs"]]
        except Exception as error:  # noqa: BLE001 - InputSpecError or a bad numpy dtype
            result["reason"] = f"cannot build the inputs {target['inputs']}: {error}"
            return result
        # JIT Fallback (PyExecute) exists only above STRICT: no IR to read there.
        ir_dir = self.workdir / f"ir_{target['index']}" if target["level"] != "strict" else None
        try:
            graph = self.observe(target, inputs, True, ir_dir)
        except LookupError as error:
            result["reason"] = str(error)
            return result
        if not graph["compiled"]:
            text = graph["text"]
            result.update(status="rejected", error=graph["error"],
                          message=trim_message(f"{graph['error'].split(':')[0]}: {text}"),
                          locations=[list(loc) for loc in user_locations(text)],
                          primary=list(primary_location(text) or []) or None)
            return result
        result["status"] = "compiled"
        result["fallback"] = [list(loc) for loc in fallback_lines(ir_dir)] if ir_dir else []
        if graph.get("outputs") is None:
            result["evidence"].append(["output", f"the second GRAPH_MODE call failed: {graph['error']}"])
            return result
        reference = self.observe(target, inputs, False)
        if not reference["compiled"] or reference.get("outputs") is None:
            result["note"] = f"PyNative could not run it to compare: {reference.get('error')}"
            return result
        result["evidence"] = self.compare(target, inputs, graph, reference)
        return result

    def compare(self, target, inputs, graph, reference) -> list[list[str]]:
        same = self.probe._same
        evidence = []
        g_det = same(graph["outputs"][0], graph["outputs"][1])
        r_det = same(reference["outputs"][0], reference["outputs"][1])
        reproducible = r_det
        if not r_det:
            # State (a fresh instance repeats the sequence) or randomness (it does not)?
            again = self.observe(target, inputs, False)
            reproducible = bool(again.get("outputs")) and same(again["outputs"], reference["outputs"])
        if g_det and not r_det:
            evidence.append(["output", "GRAPH_MODE returned the same value on both calls while"
                             " PyNative's changed: a value frozen at compile time"])
        elif g_det != r_det:
            evidence.append(["output", "GRAPH_MODE's output changed between calls while PyNative's"
                             " did not"])
        elif reproducible and not same(graph["outputs"], reference["outputs"]):
            evidence.append(["output", "GRAPH_MODE and PyNative return different values"])
        g_grad, r_grad = graph.get("gradient"), reference.get("gradient")
        if reproducible and g_grad is not None and r_grad is not None and not same(g_grad, r_grad):
            evidence.append(["gradient", _gradient_detail(g_grad, r_grad)])
        elif g_grad is None and r_grad is not None and graph.get("gradient_error"):
            evidence.append(["gradient", "GRAPH_MODE cannot differentiate it ("
                             f"{graph['gradient_error']}) while PyNative can"])
        if graph["events"] != reference["events"]:
            evidence.append(["effect", f"host side effects on the second call: {graph['events']} in"
                             f" GRAPH_MODE, {reference['events']} in PyNative"])
        elif graph["host_calls"] != reference["host_calls"]:
            names = sorted(set(graph["host_names"]) | set(reference["host_names"]))
            evidence.append(["effect", f"host calls on the second call ({', '.join(names)}):"
                             f" {graph['host_calls']} in GRAPH_MODE, {reference['host_calls']}"
                             " in PyNative"])
        return evidence


def dynamic_placeholders(ms, specs: list[str], inputs: list) -> list:
    """``float32[None,3]`` -> Tensor(shape=[None, 3]): the Cell compiles for a dynamic dimension."""
    placeholders = []
    for spec, value in zip(specs, inputs):
        dims = SPEC.match(spec).group(2).split(",")
        shape = [None if d.strip() == "None" else int(d) for d in dims if d.strip()]
        placeholders.append(ms.Tensor(shape=shape, dtype=value.dtype))
    return placeholders


def _gradient_detail(graph, reference) -> str:
    import numpy as np

    def all_zero(value) -> bool:
        if isinstance(value, np.ndarray):
            return not np.any(value)
        if isinstance(value, (list, tuple)):
            return all(all_zero(v) for v in value)
        return False

    if all_zero(graph) and not all_zero(reference):
        return "the GRAPH_MODE gradient is zero, PyNative's is not: the gradient is lost"
    return "the GRAPH_MODE gradient differs from PyNative's"


def _quiet(workdir: Path) -> None:
    """The child's own output (MindSpore's logging, the user's prints) goes to a log file."""
    log = os.open(workdir / "child.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.chdir(workdir)  # MindSpore writes rank_0/ and analyze_fail.ir into the working folder


def run_job(job: dict, conn) -> None:
    """Entry point in the child (multiprocessing target)."""
    workdir = Path(job["workdir"])
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a segfault leaves no core file
    except (ImportError, ValueError, OSError):
        pass
    _quiet(workdir)
    try:
        import mindspore as ms

        from . import probe
    except Exception as error:  # noqa: BLE001 - ImportError, or a broken install
        conn.send(("fatal-mindspore", one_line(error)))
        return
    conn.send(("version", ms.__version__))
    try:
        ms.set_device(job["device"])
    except Exception as error:  # noqa: BLE001
        conn.send(("fatal", f"MindSpore cannot use device {job['device']}: {one_line(error)}"))
        return
    before = set(sys.modules)
    for entry in reversed(job["sys_path"]):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    conn.send(("import-start",))
    try:
        module = importlib.import_module(job["import_name"])
    except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt included
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
    runner = TargetRunner(ms, probe, module, workdir)
    for target in job["targets"]:
        conn.send(("start", target["index"]))
        try:
            result = runner.run(target)
        except Exception as error:  # noqa: BLE001 - our own harness must not lose the others
            result = unverified_result(target["level"], f"the harness failed: {one_line(error)}")
        conn.send(("result", target["index"], result))
    conn.send(("done",))
