"""The frozen family: host random draws and clock reads on constants in compiled code."""

from __future__ import annotations

import textwrap

import pytest

from .engine_helpers import check_source


def findings(tmp_path, source: str) -> list[tuple[str, int, str]]:
    return [
        (f.rule.symbol, f.line, f.message)
        for f in check_source(tmp_path, textwrap.dedent(source))
        if f.rule.family in ("frozen", "third-party")
    ]


def in_construct(imports: str, expression: str) -> str:
    return f"""
{imports}
from mindspore import nn

class Net(nn.Cell):
    def construct(self, x):
        value = {expression}  # here
        return x
"""


def marked_line(source: str) -> int:
    lines = textwrap.dedent(source).splitlines()
    return next(number for number, line in enumerate(lines, 1) if "# here" in line)


@pytest.mark.parametrize(
    "imports, expression, replacement",
    [
        ("import numpy as np", "np.random.rand(2, 2)", "ops.rand"),
        ("import numpy as np", "np.random.permutation(x.shape[0])", "ops.shuffle"),
        ("import numpy as np", "np.random.normal(0.0, 1.0, size=x.shape)", "ops.normal"),
        ("import numpy as np", "np.random.default_rng().integers(0, 10)", "ops.randint"),
        ("import numpy as np", "np.random.RandomState().randint(0, 10)", "ops.randint"),
        ("from scipy import stats", "stats.norm.rvs(size=3)", "ops.normal"),
        ("from scipy import stats", "stats.norm(0, 1).rvs()", "ops.normal"),
        ("import scipy.stats", "scipy.stats.truncnorm(-3, 3, loc=6).rvs(1)", "ops.TruncatedNormal"),
        ("import numpy.random as npr", "npr.randn(*x.shape)", "ops.randn"),
        ("from numpy.random import randint", "randint(0, 10)", "ops.randint"),
        ("import random", "random.random() < 0.5", "ops.rand"),
        ("from random import uniform", "uniform(0.8, 1.2)", "ops.uniform"),
    ],
)
def test_random_draws_on_constants_are_frozen(tmp_path, imports, expression, replacement):
    source = in_construct(imports, expression)
    found = findings(tmp_path, source)
    assert [(symbol, line) for symbol, line, _ in found] == [("random-frozen", marked_line(source))]
    assert replacement in found[0][2]


@pytest.mark.parametrize(
    "imports, expression",
    [
        ("import numpy as np", "np.random.seed(0)"),
        ("import random", "random.seed(0)"),
        ("import numpy as np", "np.random.default_rng(0)"),
        ("import numpy as np", "np.random.default_rng()"),
        ("import numpy as np", "np.random.default_rng(0).normal()"),
        ("import random", "random.Random(42)"),
        ("import random", "random.Random(42).random()"),
        ("from scipy import stats", "stats.norm.rvs(random_state=0)"),
        ("import mindspore.ops as ops", "ops.rand(2, 2)"),
        ("import mindspore.numpy as mnp", "mnp.rand(2, 2)"),
    ],
)
def test_seeding_seeded_generators_and_mindspore_random_are_not_frozen(
    tmp_path, imports, expression
):
    assert findings(tmp_path, in_construct(imports, expression)) == []


def test_a_distribution_that_is_not_drawn_from_is_not_random(tmp_path):
    found = findings(tmp_path, in_construct("from scipy import stats", "stats.norm(0, 1).pdf(0.5)"))
    assert [symbol for symbol, _, _ in found if symbol == "random-frozen"] == []


def test_a_random_draw_on_a_tensor_is_not_a_frozen_value(tmp_path):
    # STRICT rejects it and LAX draws per call: that is host-call-on-tensor's business.
    found = findings(tmp_path, in_construct("import random", "random.uniform(0, x.sum())"))
    assert [symbol for symbol, _, _ in found if symbol == "random-frozen"] == []


def test_random_and_clock_outside_compiled_code_are_not_reported(tmp_path):
    source = """
    import random
    import time
    import numpy as np
    from mindspore import Tensor, nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.noise = Tensor(np.random.rand(2, 2))
            self.created = time.time()

        def construct(self, x):
            return x + self.noise

    def train(net, x):
        start = time.perf_counter()
        net(x * random.random())
        return time.perf_counter() - start
    """
    assert findings(tmp_path, source) == []


@pytest.mark.parametrize(
    "imports, expression",
    [
        ("import time", "time.time()"),
        ("import time", "time.perf_counter_ns()"),
        ("from time import monotonic", "monotonic()"),
        ("import datetime", "datetime.datetime.now()"),
        ("from datetime import datetime", "datetime.now().timestamp()"),
        ("import datetime as dt", "dt.date.today()"),
    ],
)
def test_clock_reads_are_frozen(tmp_path, imports, expression):
    source = in_construct(imports, expression)
    found = findings(tmp_path, source)
    assert [(symbol, line) for symbol, line, _ in found] == [("clock-frozen", marked_line(source))]


def test_time_functions_that_are_not_clock_reads_are_not_reported(tmp_path):
    source = in_construct("import time", "time.strftime('%Y', time.gmtime(0))")
    assert findings(tmp_path, source) == []


def test_frozen_values_in_helpers_name_the_path(tmp_path):
    source = """
    import random
    from mindspore import jit

    def pick_scale():
        return random.uniform(0.5, 2.0)

    @jit
    def step(x):
        return x * pick_scale()
    """
    [(symbol, line, message)] = findings(tmp_path, source)
    assert (symbol, line) == ("random-frozen", 6)
    assert "reached from step via pick_scale" in message


def test_a_distribution_bound_to_a_local_name_is_reported_where_it_is_built(tmp_path):
    # grover's dynamic depth (mindsponge layers.py): the object lives only while compiling.
    source = """
    from scipy import stats
    from mindspore import nn

    class Net(nn.Cell):
        def construct(self, x):
            dist = stats.truncnorm(-3.0, 3.0, loc=6, scale=1)  # here
            depth = int(dist.rvs(1))
            for _ in range(depth):
                x = x + 1
            return x + dist.rvs()
    """
    found = findings(tmp_path, source)
    assert [(symbol, line) for symbol, line, _ in found] == [("random-frozen", marked_line(source))]
    assert "'stats.truncnorm(...).rvs' is evaluated once, while the graph is compiled" in found[0][2]


@pytest.mark.parametrize(
    "built",
    ["np.random.default_rng(0)", "np.random.default_rng()", "np.random.RandomState(7)",
     "stats.norm(0, 1)"],
)
def test_draws_from_a_source_held_by_the_cell_are_frozen(tmp_path, built):
    # Probed: seeded or not, the held object's draw is made once while compiling, while
    # PyNative advances it at every call.
    method = "rvs()" if built.startswith("stats") else "uniform(0.0, 1.0)"
    source = f"""
    import numpy as np
    from scipy import stats
    from mindspore import nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.source = {built}

        def construct(self, x):
            return x * self.source.{method}  # here
    """
    found = findings(tmp_path, source)
    assert [(symbol, line) for symbol, line, _ in found] == [("random-frozen", marked_line(source))]


def test_a_draw_from_a_seeded_generator_built_in_construct_is_not_frozen(tmp_path):
    source = """
    import numpy as np
    from mindspore import nn

    class Net(nn.Cell):
        def construct(self, x):
            rng = np.random.default_rng(0)
            return x * rng.uniform(0.0, 1.0)
    """
    assert findings(tmp_path, source) == []
