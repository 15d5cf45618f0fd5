"""Host random numbers in a compiled function: which calls draw, from what source, and where the
source enters the compiled code.

What is a source is the knowledge layer's (knowledge/mindspore.py: ``random_source``): a module
function that draws (numpy.random, random, ``scipy.stats.norm.rvs``), or an object whose methods
draw (a generator, a scipy.stats frozen distribution). A method draws on such an object when the
function shows what built it: the call itself (``norm(0, 1).rvs()``), a local name bound only to
such calls (``d = truncnorm(...)`` then ``d.rvs(1)``), or ``self.<attr>`` built outside compiled
code (``self.rng = np.random.default_rng(0)`` in ``__init__``)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..knowledge.mindspore import RANDOM_MODULES, random_method_draws, random_source
from .attributes import held_call_names
from .scope import FunctionScope

SEED_KEYWORDS = frozenset({"random_state", "seed"})


@dataclass(frozen=True)
class RandomDraw:
    """A call that draws host random numbers, on arguments the compiler knows (so it is evaluated
    once, while compiling)."""

    call: ast.Call
    # The call of this function that built the object drawn from (`truncnorm(...)`), if any.
    source: ast.Call | None
    # Where the source enters the compiled code: the draw itself, or the call of this function
    # that built the object it draws from, bound to a local name (`d = truncnorm(...)`).
    anchor: ast.Call
    spelled: str
    qualified: str  # as the replacement tables name it: numpy.random.integers, scipy.stats.norm.rvs


def random_draws(ctx: FunctionScope) -> dict[int, RandomDraw]:
    """id(anchor) -> the first draw the anchor stands for, for every frozen host random draw of
    the compiled function (seeded ones left out: PyNative repeats them too)."""
    return _draws(ctx)[0]


def random_calls(ctx: FunctionScope) -> frozenset[int]:
    """ids of the calls of the compiled function that draw or build what a draw draws from:
    random-frozen's, not another rule's (a host call folded on constants)."""
    return _draws(ctx)[1]


def _draws(ctx: FunctionScope) -> tuple[dict[int, RandomDraw], frozenset[int]]:
    model = ctx.model
    return model.memo(model.table("random_draws"), id(ctx.function), lambda: _random_draws(ctx))


def _random_draws(ctx: FunctionScope) -> tuple[dict[int, RandomDraw], frozenset[int]]:
    found: dict[int, RandomDraw] = {}
    calls: set[int] = set()
    # The module's cached walk of the function (ast.walk again per function cost the model suite
    # 0.7 s); only calls whose callee is an attribute or a name can draw.
    nodes = [n for n in ctx.module.nodes(ctx.function.node) if n.__class__ is ast.Call]
    for call in sorted(nodes, key=lambda c: (c.lineno, c.col_offset)):
        draw = _draw(call, ctx)
        if draw is None:
            continue
        calls.update(id(c) for c in (draw.call, draw.source) if c is not None)
        found.setdefault(id(draw.anchor), draw)
    return found, frozenset(calls)


def _draw(call: ast.Call, ctx: FunctionScope) -> RandomDraw | None:
    qualified = ctx.qualify(call.func)
    kind = random_source(qualified) if qualified is not None else None
    if kind == "draw":
        if _seeded_draw(call) or _on_variables(call, ctx):
            return None  # on a tensor: a host call, not a frozen value (third-party's rule)
        return RandomDraw(call, None, call, ast.unparse(call.func), qualified)
    if kind is not None or not isinstance(call.func, ast.Attribute):
        return None
    method = call.func.attr
    receiver = call.func.value
    built = _built_from(receiver, ctx)
    if built is None:
        return None
    constructor, kind, local = built
    if not random_method_draws(kind, method) or _seeded_draw(call) or _on_variables(call, ctx):
        return None
    if kind == "generator":
        prefix = next(m for m in RANDOM_MODULES if constructor.startswith(m))
        named = prefix + method
    else:
        named = f"{constructor}.{method}"
    if local is None:
        return RandomDraw(call, None, call, ast.unparse(call.func), named)
    if (kind == "generator" and (local.args or local.keywords)) or _on_variables(local, ctx):
        return None  # a seeded generator built at every call repeats itself in PyNative too
    anchor = local if isinstance(receiver, ast.Name) else call
    spelled = f"{ast.unparse(local.func)}(...).{method}"
    return RandomDraw(call, local, anchor, spelled, named)


def _built_from(receiver: ast.expr, ctx: FunctionScope) -> tuple[str, str, ast.Call | None] | None:
    """(the qualified name of what built the object, its kind, the call of this function that
    built it or None when it was built outside compiled code), when it is a random source."""
    if isinstance(receiver, ast.Call):
        return _source_call(receiver, ctx)
    if isinstance(receiver, ast.Name):
        values = ctx.values.assigned_values(receiver.id)
        if len(values) != 1 or not isinstance(values[0], ast.Call):
            return None
        return _source_call(values[0], ctx)
    if isinstance(receiver, ast.Attribute) and ctx.is_self(receiver.value) and ctx.owner:
        names = held_call_names(ctx, receiver.attr)
        kinds = {random_source(n) if n is not None else None for n in names}
        if len(names) == 1 and len(kinds) == 1 and kinds <= {"generator", "distribution"}:
            return next(iter(names)), next(iter(kinds)), None
    return None


def _source_call(call: ast.Call, ctx: FunctionScope) -> tuple[str, str, ast.Call] | None:
    qualified = ctx.qualify(call.func)
    kind = random_source(qualified) if qualified is not None else None
    if kind in ("generator", "distribution"):
        return qualified, kind, call
    return None


def _seeded_draw(call: ast.Call) -> bool:
    return any(k.arg in SEED_KEYWORDS for k in call.keywords)


def _on_variables(call: ast.Call, ctx: FunctionScope) -> bool:
    return any(ctx.is_variable(a) for a in [*call.args, *(k.value for k in call.keywords)])
