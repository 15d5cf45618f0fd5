"""Run one compiled target the way MindSpore would, in GRAPH_MODE and in PyNative, and compare.

This is where the catalogue's claims meet the compiler. A target that does not compile at a level is
REJECTED there; one that compiles but whose outputs, gradient or host side effects differ from
PyNative's is MISBEHAVES (the evidence says which); one that matches is ACCEPTED.

Imports mindspore: only ever loaded by the compiler tests (and by the planned ``--confirm``), never
by the static path.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np

import mindspore as ms
from mindspore import Tensor

from ..catalogue import Level, Verdict
from .child import one_line
from .settings import SPEC

DEFAULT_INPUTS = ("float32[2,2]",)
LEVEL_NAMES = {Level.STRICT: "STRICT", Level.COMPATIBLE: "COMPATIBLE", Level.LAX: "LAX"}


class InputSpecError(ValueError):
    pass


def make_input(spec: str) -> Tensor:
    """``float32[2,2]`` -> a deterministic tensor (1, 2, 3, ... scaled), ``None`` dims as 2."""
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


def _normalise(value):
    """Outputs as plain Python/numpy structures, keeping container kinds (dict vs tuple matters)."""
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, dict):
        return {key: _normalise(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_normalise(item) for item in value)
    return value


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        # float32 graphs and PyNative fuse differently: ~1e-7 output, ~1e-6 gradient noise
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-4, atol=1e-6, equal_nan=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an exotic value that cannot compare is "not the same"
        return False


@dataclass
class Observation:
    """What one mode did with a target: two calls, a gradient, host side effects."""

    compiled: bool
    error: str | None = None
    outputs: tuple = ()
    gradient: object = None
    gradient_error: str | None = None
    effects: int | None = None

    @property
    def deterministic(self) -> bool:
        return len(self.outputs) == 2 and _same(self.outputs[0], self.outputs[1])


def _same_run(first: Observation, second: Observation) -> bool:
    return (
        second.compiled
        and _same(first.outputs, second.outputs)
        and _same(first.gradient, second.gradient)
    )


@dataclass
class Judgement:
    verdict: Verdict
    evidence: list[str] = field(default_factory=list)  # "output", "gradient", "effect"
    error: str | None = None
    graph: Observation | None = None
    pynative: Observation | None = None


@dataclass
class TargetHandle:
    """A callable target: a Cell class (instantiated fresh per run) or a jit function."""

    label: str
    kind: str  # "cell" | "jit"
    obj: object
    init: dict = field(default_factory=dict)

    def instance(self, level: Level | None, graph: bool):
        if self.kind == "cell":
            cell = self.obj(**self.init)
            if level is not None:
                cell.set_jit_config(ms.JitConfig(jit_syntax_level=LEVEL_NAMES[level]))
            return cell
        # A jit function keeps its own level (fullgraph); PyNative runs the plain Python.
        return self.obj if graph else getattr(self.obj, "__wrapped__", self.obj)


def observe(handle: TargetHandle, inputs: list[Tensor], level: Level | None, graph: bool,
            module: ModuleType | None = None) -> Observation:
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    events = getattr(module, "EVENTS", None) if module is not None else None
    if isinstance(events, list):
        events.clear()
    try:
        target = handle.instance(level, graph)
        outputs = (_normalise(target(*inputs)), _normalise(target(*inputs)))
    except Exception as error:  # noqa: BLE001 - the compiler's verdict, whatever it raises
        return Observation(False, one_line(error))
    observation = Observation(True, outputs=outputs)
    if isinstance(events, list):
        observation.effects = len(events)
    try:
        gradient = ms.grad(target, grad_position=0)(*inputs)
        observation.gradient = _normalise(gradient)
    except Exception as error:  # noqa: BLE001 - not every output is differentiable
        observation.gradient_error = one_line(error)
    return observation


def judge(handle: TargetHandle, inputs: list[Tensor], level: Level | None,
          module: ModuleType | None = None) -> Judgement:
    graph = observe(handle, inputs, level, graph=True, module=module)
    if not graph.compiled:
        return Judgement(Verdict.REJECTED, error=graph.error, graph=graph)
    reference = observe(handle, inputs, level, graph=False, module=module)
    evidence = []
    if reference.compiled:
        # Outputs that change from call to call are either state (a fresh instance repeats the
        # same sequence: comparable) or randomness (it does not: only the pattern is compared).
        reproducible = reference.deterministic or _same_run(
            reference, observe(handle, inputs, level, graph=False, module=module)
        )
        if graph.deterministic != reference.deterministic:
            evidence.append("output")
        elif reproducible and not _same(graph.outputs, reference.outputs):
            evidence.append("output")
        if (
            reproducible
            and graph.gradient is not None
            and reference.gradient is not None
            and not _same(graph.gradient, reference.gradient)
        ):
            evidence.append("gradient")
        if graph.effects != reference.effects:
            evidence.append("effect")
    verdict = Verdict.MISBEHAVES if evidence else Verdict.ACCEPTED
    return Judgement(verdict, evidence, graph=graph, pynative=reference)
