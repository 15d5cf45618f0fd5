"""The one referee: how a compiled target is run in GRAPH_MODE and PyNative, and judged.

``--confirm``'s child (child.py) and the compiler tests (tests/test_compiler.py, which calibrate
the catalogue on the samples) both judge a target here, so a sample's verdict in the tests is
the verdict the same code gets from ``--confirm``. A target is the plain dict plan.py's
``ConfirmTarget.spec`` builds (kind, attr, level, level_fixed, inputs, init).

- REJECTED: GRAPH_MODE does not compile it (or its first call raises); a Cell whose Parameters
  share a name when it is built is first trained the way a training script does it, before its
  first call renames them: a GRAPH_MODE gradient over its weights;
- MISBEHAVES: it compiles, but its outputs, gradient or host side effects differ from PyNative's
  (the evidence, (kind, detail) pairs with kind "output", "gradient" or "effect", says which);
- ACCEPTED: it compiles and matches; ``note`` tells when PyNative cannot run it to compare, or
  when only GRAPH_MODE fails to differentiate it (a loud error, not a silent difference).

How the two modes are compared (decided once, for both callers; docs/confirm.md says why):
host side effects are counted on the second call only, and when PyNative's outputs change from
call to call, they are compared only if a fresh PyNative instance repeats the same outputs and
gradient.

Importing this module imports neither MindSpore nor numpy: functions import them when called
(the caller has already imported MindSpore, in a child process or in the compiler tests).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ..knowledge.catalogue import Level, Verdict
from ..confirm_settings import SPEC

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
# Not print: a log line printed once while compiling is not a misbehaviour (the clean model of
# samples/models prints its batch shape in construct and must match PyNative).
HOST_C_MODULES = frozenset({
    "time", "random", "_random", "numpy.random.mtrand", "numpy.random._generator",
    "numpy.random.bit_generator", "_thread",
})
HOST_PY_MODULES = frozenset({"random", "threading", "secrets", "uuid", "multiprocessing.process",
                             "multiprocessing.pool", "concurrent.futures.thread",
                             "concurrent.futures.process"})
# float32 graphs and PyNative fuse differently: ~1e-7 output, ~1e-6 gradient noise
RTOL, ATOL = 1e-4, 1e-6


class InputSpecError(ValueError):
    pass


class Unrunnable(Exception):
    """The target cannot be run as asked (its inputs or its constructor): no verdict, a reason."""


def one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


def is_user_file(filename: str) -> bool:
    if filename.startswith("<"):
        # "<string>": a JIT Fallback (PyExecute) eval of the user's expression, not "<frozen ...>"
        return not filename.startswith("<frozen")
    return not os.path.realpath(filename).startswith(LIBRARY_DIRS)


def make_input(spec: str):
    """``float32[2,2]`` -> a deterministic tensor (1, 2, 3, ... scaled; integers 1, 0, 1, ...),
    ``None`` dims as 2."""
    import numpy as np
    from mindspore import Tensor

    match = SPEC.match(spec)
    if not match:
        raise InputSpecError(f"input spec {spec!r} is not of the form dtype[d0,d1,...]")
    dtype_name, dims = match.groups()
    try:
        dtype = np.dtype(dtype_name)
    except TypeError as error:
        raise InputSpecError(f"unknown dtype {dtype_name!r} in input spec {spec!r}") from error
    shape = tuple(2 if d.strip() in ("None", "") else int(d) for d in dims.split(",") if dims.strip())
    count = int(np.prod(shape)) if shape else 1
    values = np.arange(1, count + 1).reshape(shape)
    if dtype.kind == "f":
        values = values / max(count, 1)
    elif dtype.kind in "iu":
        # Integer inputs are labels or indices far more often than sizes: 0 and 1 in turn fit
        # any class count or dimension of two or more (1..8 broke a 4-class loss).
        values = values % 2
    return Tensor(values.astype(dtype))


def load_module(path: Path, name: str | None = None) -> ModuleType:
    """Import a file under a unique name; MindSpore resolves globals through sys.modules."""
    name = name or "msgraphlint_target_" + re.sub(r"\W", "_", str(path.resolve()))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def normalise(value):
    """Outputs as plain Python/numpy structures, keeping container kinds (dict vs tuple matters)."""
    from mindspore import Tensor

    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, dict):
        return {key: normalise(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(normalise(item) for item in value)
    return value


def same(a, b) -> bool:
    import numpy as np

    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        try:
            return a.shape == b.shape and bool(np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True))
        except TypeError:  # dtypes with no common type (a broken GRAPH_MODE output reads as void)
            return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an exotic value that cannot compare is "not the same"
        return False


class HostCallCounter:
    """Counts host calls (random, time, threads) made from user code while active."""

    def __init__(self) -> None:
        self.count = 0
        self.names: dict[str, int] = {}
        self._saved = (None, None)

    def _hit(self, name: str) -> None:
        self.count += 1
        self.names[name] = self.names.get(name, 0) + 1

    def __call__(self, frame, event, arg):
        if event == "c_call":
            module = getattr(arg, "__module__", None) or type(getattr(arg, "__self__", None)).__module__
            if module in HOST_C_MODULES and is_user_file(frame.f_code.co_filename):
                self._hit(f"{module}.{getattr(arg, '__qualname__', '?')}")
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

        # Restored on exit: in the compiler tests this runs inside pytest, not a bare child.
        self._saved = (sys.getprofile(), threading.getprofile())
        sys.setprofile(self)
        threading.setprofile(self)
        return self

    def __exit__(self, *exc):
        import threading

        sys.setprofile(self._saved[0])
        threading.setprofile(self._saved[1])  # type: ignore[arg-type]


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


def build_callable(module, target: dict):
    """The object to call: a fresh Cell instance, a jit function, or a jit method of a fresh
    instance. Raises LookupError with a message saying what could not be built."""
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


def build_target(module, target: dict) -> tuple[object, list | None]:
    """(the object to call, the inputs its project gives it or None): a Cell or jit function
    defined inside a function is reached by running the code that calls it (``via``)."""
    if target.get("via"):
        return reach_through(target["via"])
    return build_callable(module, target), None


class _Reached(BaseException):
    """Stops the entry at the target's first call (a BaseException: past `except Exception`)."""


def reach_through(via: dict) -> tuple[object, list]:
    """Run ``via["run"]`` (a function of ``via["module"]`` called with no arguments, or the
    module as a script) until it first calls the Cell or jit function ``via["name"]`` that the
    function starting at ``via["file"]:via["line"]`` defines: (the Cell instance or jit function
    it calls, the inputs it passes). The definition is found by tracing that function's frames:
    a Cell class gets a ``__call__`` that records and stops, a jit function is replaced in the
    frame by a stand-in that does. Raises LookupError when the run does not get there."""
    import importlib
    import random
    import runpy

    import numpy as np

    captured: dict = {}
    patched: list[type] = []
    file, line, name = via["file"], via["line"], via["name"]
    definers: dict[object, bool] = {}

    def record(function, args, kwargs):
        captured.update(function=function, args=args, kwargs=kwargs)
        raise _Reached

    def cell_call(self, *args, **kwargs):
        record(self, args, kwargs)

    def local(frame, event, arg):
        if "stand_in" in captured:
            return None
        value = frame.f_locals.get(name)
        if value is None:
            return local
        if via["kind"] == "cell":
            if isinstance(value, type) and value not in patched:
                value.__call__ = cell_call  # on the user's own class: MindSpore's is untouched
                patched.append(value)
            return local
        def stand_in(*args, **kwargs):
            record(value, args, kwargs)
        # Written back into the frame when this trace function returns (CPython 3.11+).
        frame.f_locals[name] = captured["stand_in"] = stand_in
        return None

    def calls(frame, event, arg):
        code = frame.f_code
        if code not in definers:
            definers[code] = (code.co_firstlineno == line
                              and os.path.realpath(code.co_filename) == file)
        return local if definers[code] else None

    shown = via.get("shown") or f"{via['module']}::{via['run']}"
    for entry in reversed(via.get("sys_path") or ()):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    random.seed(0)  # the entry's own draws (a synthetic batch), the same in both modes
    np.random.seed(0)
    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        module = importlib.import_module(via["module"])
        if via["run"] == "__main__":
            runpy.run_module(via["module"], run_name="__main__")
        else:
            getattr(module, via["run"])()
    except _Reached:
        pass
    except Exception as error:  # noqa: BLE001 - the user's code, before it got there
        raise LookupError(f"running {shown} raised {one_line(error)} before it called"
                          f" {name}") from None
    finally:
        sys.settrace(previous)
        for cls in patched:
            del cls.__call__
    if "function" not in captured:
        raise LookupError(f"running {shown} never called {name}")
    function, args, kwargs = captured["function"], list(captured["args"]), captured["kwargs"]
    if kwargs:
        import inspect

        signature = inspect.signature(getattr(function, "construct", None)
                                      or getattr(function, "__wrapped__", function))
        bound = signature.bind(*args, **kwargs)
        if bound.kwargs:
            raise LookupError(f"{shown} calls {name} with keyword-only arguments")
        args = list(bound.args)
    return function, args


def _kwargs(init: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in init.items())


def dynamic_placeholders(ms, specs: list[str], inputs: list) -> list:
    """``float32[None,3]`` -> Tensor(shape=[None, 3]): the Cell compiles for a dynamic dimension."""
    placeholders = []
    for spec, value in zip(specs, inputs):
        dims = SPEC.match(spec).group(2).split(",")
        shape = [None if d.strip() == "None" else int(d) for d in dims if d.strip()]
        placeholders.append(ms.Tensor(shape=shape, dtype=value.dtype))
    return placeholders


@dataclass
class Observation:
    """What one mode did with a target: two calls, a gradient, host side effects."""

    compiled: bool
    error: str | None = None  # one line: the first call's error, or the second call's
    text: str | None = None  # the whole message of that error
    outputs: tuple | None = None  # (first call, second call); None if the second call failed
    # A third call with other inputs (floating tensors doubled): what a stale value shows in.
    other_output: object = None
    inputs: list | None = None  # what it was called with (a nested target's: its first call's)
    raised: bool = False  # compiled, and the first call raised the code's own `raise`
    gradient: object = None
    gradient_error: str | None = None
    events: int | None = None  # entries the second call added to module-level containers
    host_calls: int = 0  # host calls from user code during the second call
    host_names: dict[str, int] = field(default_factory=dict)

    @property
    def deterministic(self) -> bool:
        return self.outputs is not None and same(self.outputs[0], self.outputs[1])


@dataclass
class Judgement:
    verdict: Verdict
    evidence: list[tuple[str, str]] = field(default_factory=list)  # (kind, detail)
    error: str | None = None  # REJECTED: the compiler's error, one line
    message: str | None = None  # REJECTED: the compiler's whole text
    fallback: list[tuple[str, int]] = field(default_factory=list)  # PyExecute lines in the IR
    note: str | None = None  # what was seen but is not evidence, or why nothing was compared
    graph: Observation | None = None
    pynative: Observation | None = None

    @property
    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.evidence]


def _events(module) -> list | None:
    events = getattr(module, "EVENTS", None)  # the samples' own effect log
    return events if isinstance(events, list) else None


CONTAINERS = (list, dict, set)


def container_entries() -> int | None:
    """Entries in the module-level lists, dicts and sets of the user's modules (the target's
    and those it imported): what a host side effect of compiled code adds to (a list of
    activations, a cache dict). None when there are none to watch."""
    total, seen = 0, False
    for module in list(sys.modules.values()):
        filename = getattr(module, "__file__", None)
        if not filename or not is_user_file(filename):
            continue
        for value in list(vars(module).values()):
            if type(value) in CONTAINERS:
                total += len(value)
                seen = True
    return total if seen else None


def _grown(before: int | None, after: int | None) -> int | None:
    return None if before is None or after is None else after - before


def observe(ms, module, target: dict, inputs: list | None, graph: bool,
            ir_dir: Path | None = None) -> Observation:
    """Build the target afresh and call it twice, then take its gradient, in one mode. Raises
    LookupError when the target cannot be built (see build_target). ``inputs`` None: those the
    project's own call gives (a target defined inside a function)."""
    level = Level(target["level"]).name
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE,
                   jit_syntax_level=getattr(ms, level))
    events = _events(module)
    if events is not None:
        events.clear()
    function, shown = build_target(module, target)
    inputs = shown if inputs is None else inputs
    if graph and target["kind"] == "cell" and not target.get("level_fixed"):
        function.set_jit_config(ms.JitConfig(jit_syntax_level=level))
    if graph and target["kind"] == "cell" and any("None" in spec for spec in target["inputs"]):
        function.set_inputs(*dynamic_placeholders(ms, target["inputs"], inputs))
    if not graph and target["kind"] == "jit":
        function = getattr(function, "__wrapped__", function)
    if graph and ir_dir is not None:
        ms.set_context(save_graphs=1, save_graphs_path=str(ir_dir))
    try:
        if graph and target["kind"] == "cell" and shares_parameter_names(function):
            # A training step is built before the first call, which renames them after their
            # paths: value_and_grad over the weights is what a training script compiles first.
            ms.value_and_grad(function, None, function.trainable_params())(*inputs)
        first = normalise(function(*inputs))
    except Exception as error:  # noqa: BLE001 - the compiler's verdict, whatever it raises
        raised = graph and code_raised(error, function)
        return Observation(raised, one_line(error), str(error), inputs=inputs, raised=raised)
    finally:
        if graph and ir_dir is not None:
            ms.set_context(save_graphs=0)
    if target.get("compile_only"):
        return Observation(True, inputs=inputs)
    # Effects are counted on the second call only: the steady state, without compilation.
    before = container_entries()
    with HostCallCounter() as counter:
        try:
            second = normalise(function(*inputs))
        except Exception as error:  # noqa: BLE001 - a second call that fails is evidence
            return Observation(True, one_line(error), str(error), inputs=inputs)
    seen = Observation(True, outputs=(first, second), host_calls=counter.count, inputs=inputs,
                       host_names=counter.names,
                       events=_grown(before, container_entries()))
    if (others := other_inputs(inputs)) is not None:
        try:
            seen.other_output = normalise(function(*others))
        except Exception:  # noqa: BLE001 - no third output to compare: no stale evidence
            pass
    try:
        seen.gradient = normalise(ms.grad(function, grad_position=0)(*inputs))
    except Exception as error:  # noqa: BLE001 - not every output is differentiable
        seen.gradient_error = one_line(error)
    return seen


# %-format and str.format fields, and f-string holes, in a raise's message: what is left
# between them is text the exception's message must hold.
_FORMAT_FIELD = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc%]|\{[^{}]*\}")


def shares_parameter_names(cell) -> bool:
    """Whether two of a freshly built Cell's trainable Parameters have one name."""
    names = [parameter.name for parameter in cell.trainable_params()]
    return len(set(names)) < len(names)


def code_raised(error: BaseException, function) -> bool:
    """Whether the exception is the code's own ``raise`` run by the graph, not a compile error:
    MindSpore hands it on with the code's type and message and no source location (probed with
    2.10: ``raise ValueError("too big")`` under a tensor test comes back as ``ValueError: too
    big``), where its compile errors name one."""
    text = str(error)
    if IN_FILE.search(text) or "\n" in text.strip():
        return False
    try:
        import inspect

        path = inspect.getsourcefile(type(function) if hasattr(function, "construct")
                                     else getattr(function, "__wrapped__", function))
        tree = ast.parse(Path(path).read_bytes()) if path else None
    except (TypeError, OSError, SyntaxError, ValueError):
        return False
    for node in ast.walk(tree) if tree is not None else ():
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        name = getattr(node.exc.func, "id", getattr(node.exc.func, "attr", None))
        if name != type(error).__name__:
            continue
        pieces = [piece for argument in node.exc.args for constant in ast.walk(argument)
                  if isinstance(constant, ast.Constant) and isinstance(constant.value, str)
                  for piece in _FORMAT_FIELD.split(constant.value) if len(piece.strip()) > 1]
        if pieces and all(piece in text for piece in pieces):
            return True
    return False


def other_inputs(inputs: list) -> list | None:
    """The same inputs with floating tensors doubled (ints may be indices or sizes: kept), or
    None when there is no floating input to change."""
    from mindspore import Tensor

    changed = [value * 2 if isinstance(value, Tensor) and value.is_floating_point() else value
               for value in inputs]
    return changed if any(a is not b for a, b in zip(changed, inputs)) else None


def judge(module, target: dict, ir_dir: Path | None = None) -> Judgement:
    """GRAPH_MODE, then PyNative (and a fresh PyNative run when its outputs change), compared.
    ``ir_dir``: where to save the validated IR to read its PyExecute lines (None: not read).
    Raises Unrunnable when the inputs or the target cannot be built."""
    import mindspore as ms

    try:
        inputs = None if target.get("via") else [make_input(spec) for spec in target["inputs"]]
    except Exception as error:  # noqa: BLE001 - InputSpecError or a bad numpy dtype
        raise Unrunnable(f"cannot build the inputs {target['inputs']}: {error}") from None
    try:
        graph = observe(ms, module, target, inputs, True, ir_dir)
        inputs = graph.inputs  # PyNative gets the very inputs GRAPH_MODE got
        if not graph.compiled:
            return Judgement(Verdict.REJECTED, error=graph.error, message=graph.text, graph=graph)
        if graph.raised:  # compiled; these inputs take a branch that raises, as the code says
            return Judgement(Verdict.ACCEPTED, graph=graph, note=(
                f"compiled; with these inputs the call raised the code's own {graph.error}"))
        fallback = fallback_lines(ir_dir) if ir_dir is not None else []
        if target.get("compile_only"):
            return Judgement(Verdict.ACCEPTED, fallback=fallback, graph=graph,
                             note="compiled (only the compile was asked for)")
        if graph.outputs is None:
            return Judgement(Verdict.MISBEHAVES, [
                ("output", f"the second GRAPH_MODE call failed: {graph.error}")
            ], fallback=fallback, graph=graph)
        reference = observe(ms, module, target, inputs, False)
        if reference.outputs is None:
            return Judgement(Verdict.ACCEPTED, fallback=fallback, graph=graph, pynative=reference,
                             note=f"PyNative could not run it to compare: {reference.error}")
        # Outputs that change from call to call are either state (a fresh instance repeats the
        # same outputs and gradient: comparable) or randomness (it does not: only the pattern
        # is compared, and a gradient that does not repeat cannot be compared either).
        again = None if reference.deterministic else observe(ms, module, target, inputs, False)
        # GRAPH_MODE repeating a draw PyNative changes is a value frozen at compile time only if
        # a fresh build repeats too: MindSpore's CPU draws now and then repeat once between two
        # calls (ops.randn at COMPATIBLE in the CI run of f7b4152; ops.uniform and ops.normal
        # before), which a value frozen while compiling does on every build.
        graph_again = (observe(ms, module, target, inputs, True)
                       if again is not None and graph.deterministic else None)
    except LookupError as error:
        raise Unrunnable(str(error)) from None
    evidence = compare(graph, reference, again, graph_again)
    note = None
    if graph.gradient is None and reference.gradient is not None:
        # A loud error, not a silent difference: the catalogue counts it as ACCEPTED (the
        # compiler tests: branch-none-join at LAX, a framework error at STRICT), so it is told,
        # not evidence.
        note = f"GRAPH_MODE cannot differentiate it ({graph.gradient_error}) while PyNative can"
    return Judgement(Verdict.MISBEHAVES if evidence else Verdict.ACCEPTED, evidence,
                     fallback=fallback, note=note, graph=graph, pynative=reference)


def compare(graph: Observation, reference: Observation, again: Observation | None,
            graph_again: Observation | None = None) -> list[tuple[str, str]]:
    """Evidence that GRAPH_MODE differs from PyNative. ``again``: a fresh PyNative run, made
    only when PyNative's outputs changed between its two calls; ``graph_again``: a fresh
    GRAPH_MODE run, made when GRAPH_MODE's did not change while PyNative's did."""
    evidence = []
    g_det, r_det = graph.deterministic, reference.deterministic
    if g_det and graph_again is not None and graph_again.outputs is not None:
        g_det = graph_again.deterministic
    reproducible = r_det or (
        again is not None
        and again.outputs is not None
        and same(again.outputs, reference.outputs)
        and same(again.gradient, reference.gradient)
    )
    if g_det and not r_det:
        evidence.append(("output", "GRAPH_MODE returned the same value on both calls while"
                         " PyNative's changed: a value frozen at compile time"))
    elif g_det != r_det:
        evidence.append(("output", "GRAPH_MODE's output changed between calls while PyNative's"
                         " did not"))
    elif reproducible and not same(graph.outputs, reference.outputs):
        evidence.append(("output", "GRAPH_MODE and PyNative return different values"))
    elif (reproducible and g_det and graph.other_output is not None
          and reference.other_output is not None
          and not same(graph.other_output, reference.other_output)):
        evidence.append(("stale", "the first two calls matched PyNative, but a third call with"
                         " other inputs (floating inputs doubled) returned a different value in"
                         " GRAPH_MODE: a value from an earlier call was read back"))
    g_grad, r_grad = graph.gradient, reference.gradient
    if reproducible and g_grad is not None and r_grad is not None and not same(g_grad, r_grad):
        evidence.append(("gradient", _gradient_detail(g_grad, r_grad)))
    if graph.events != reference.events:
        evidence.append(("effect", f"host side effects on the second call: {graph.events} in"
                         f" GRAPH_MODE, {reference.events} in PyNative"))
    elif graph.host_calls != reference.host_calls:
        names = sorted(set(graph.host_names) | set(reference.host_names))
        evidence.append(("effect", f"host calls on the second call ({', '.join(names)}):"
                         f" {graph.host_calls} in GRAPH_MODE, {reference.host_calls}"
                         " in PyNative"))
    return evidence


def gradient_summary(gradient) -> dict | None:
    """A compiled gradient in plain data, to compare across runs of rewritten code: whether it
    is all zero, and the sum of its absolute values."""
    import numpy as np

    if gradient is None:
        return None
    values = gradient if isinstance(gradient, (list, tuple)) else [gradient]
    arrays = [np.asarray(v, dtype=np.float64) for v in values if isinstance(v, np.ndarray)]
    if not arrays:
        return None
    total = float(sum(np.abs(a).sum() for a in arrays))
    return {"zero": total == 0.0, "abs_sum": total}


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
