"""Host values frozen at compile time: random draws (numpy.random, random) and clock reads.

A host call whose arguments are all compile-time constants is evaluated once, while the graph is
compiled, and its result becomes a constant of the graph: every step then reuses the same random
number or the same time. PyNative calls it every step. This happens at every syntax level.
"""

from __future__ import annotations

import ast

from msgraphlint.analyze import Family, FunctionContext

RANDOM_MODULES = ("numpy.random.", "random.")
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
DEFAULT_RANDOM_REPLACEMENT = "ops.rand, ops.randn, ops.randint or ops.uniform"
RANDOM_REPLACEMENTS = {
    "numpy.random.rand": "ops.rand",
    "numpy.random.random": "ops.rand",
    "numpy.random.random_sample": "ops.rand",
    "numpy.random.uniform": "ops.uniform or ops.rand",
    "numpy.random.randn": "ops.randn",
    "numpy.random.standard_normal": "ops.randn",
    "numpy.random.normal": "ops.normal or ops.randn",
    "numpy.random.randint": "ops.randint",
    "numpy.random.binomial": "ops.bernoulli (or nn.Dropout for dropout masks)",
    "numpy.random.permutation": "ops.shuffle(ops.arange(n))",
    "numpy.random.shuffle": "ops.shuffle",
    "numpy.random.choice": "ops.multinomial or ops.randint",
    "numpy.random.gamma": "ops.gamma",
    "numpy.random.poisson": "ops.poisson",
    "numpy.random.laplace": "ops.laplace",
    "random.random": "ops.rand",
    "random.uniform": "ops.uniform or ops.rand",
    "random.randint": "ops.randint",
    "random.randrange": "ops.randint",
    "random.gauss": "ops.randn",
    "random.normalvariate": "ops.randn",
    "random.shuffle": "ops.shuffle",
    "random.sample": "ops.shuffle",
    "random.choice": "ops.randint (as an index)",
}
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
            replacement = RANDOM_REPLACEMENTS.get(qualified, DEFAULT_RANDOM_REPLACEMENT)
            ctx.report("random-frozen", node, spelled, replacement)
        elif qualified in CLOCK_READS:
            ctx.report("clock-frozen", node, spelled, CLOCK_REPLACEMENT)


def is_random_draw(qualified: str, node: ast.Call) -> bool:
    if not qualified.startswith(RANDOM_MODULES) or qualified in NOT_DRAWS:
        return False
    if qualified in SEEDABLE_GENERATORS and (node.args or node.keywords):
        return False  # seeded: the same numbers at every step in PyNative too
    return True
