"""Host values frozen at compile time: random draws (numpy.random, random, scipy.stats, their
generators and distributions: model/randomness.py) and clock reads.

A host call whose arguments are all compile-time constants is evaluated once, while the graph is
compiled, and its result becomes a graph constant that every step reuses (PyNative calls it every
step). What the compiler does at each level is in msgraphlint/knowledge/rules/frozen.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.catalogue import rule
from msgraphlint.model.randomness import random_draws

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
        draw = random_draws(ctx).get(id(node))
        if draw is not None:
            found = rule("random-frozen")
            ctx.report(found.symbol, node, draw.spelled, found.replacement_for(draw.qualified))
            return
        qualified = ctx.qualify(node.func)
        if qualified not in CLOCK_READS:
            return
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if any(ctx.is_variable(argument) for argument in arguments):
            # Not frozen: STRICT rejects a host call on a variable and LAX runs it every step
            # (losing the gradient), which is the third-party family's host-call-on-tensor.
            return
        ctx.report("clock-frozen", node, ast.unparse(node.func), CLOCK_REPLACEMENT)
