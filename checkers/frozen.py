"""Host values frozen at compile time: random draws (numpy.random, random) and clock reads.

A host call whose arguments are all compile-time constants is evaluated once, while the graph is
compiled, and its result becomes a graph constant that every step reuses (PyNative calls it every
step). What the compiler does at each level is in msgraphlint/knowledge/rules/frozen.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.catalogue import rule
from msgraphlint.knowledge.mindspore import RANDOM_MODULES

# These set or read the generator's state instead of drawing: nothing is frozen.
NOT_DRAWS = frozenset(
    {
        "numpy.random.seed", "numpy.random.get_state", "numpy.random.set_state",
        "random.seed", "random.getstate", "random.setstate",
    }
)
# Generators built from an explicit seed give the same numbers every time anyway.
SEEDABLE_GENERATORS = frozenset(
    {"numpy.random.default_rng", "numpy.random.RandomState", "random.Random"}
)
CLOCK_READS = frozenset(
    {
        "time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns",
        "time.monotonic", "time.monotonic_ns", "time.process_time", "time.process_time_ns",
        "time.thread_time", "time.thread_time_ns",
        "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
        "datetime.date.today",
    }
)
CLOCK_REPLACEMENT = "time.perf_counter() around the call in the training loop, or TimeMonitor"


class FrozenFamily(Family):
    name = "frozen"

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified is None:
            return
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if any(ctx.is_variable(argument) for argument in arguments):
            # Not frozen: STRICT rejects a host call on a variable and LAX runs it every step
            # (losing the gradient), which is the third-party family's host-call-on-tensor.
            return
        spelled = ast.unparse(node.func)
        if is_random_draw(qualified, node):
            found = rule("random-frozen")
            ctx.report(found.symbol, node, spelled, found.replacement_for(qualified))
        elif qualified in CLOCK_READS:
            ctx.report("clock-frozen", node, spelled, CLOCK_REPLACEMENT)


def is_random_draw(qualified: str, node: ast.Call) -> bool:
    if not qualified.startswith(RANDOM_MODULES) or qualified in NOT_DRAWS:
        return False
    if qualified in SEEDABLE_GENERATORS and (node.args or node.keywords):
        return False  # seeded: the same numbers at every step in PyNative too
    return True
