"""constants: front-end errors decided from what the model knows (issue 32): a partial whose call
gives one parameter two arguments. Each case was compiled with MindSpore 2.10 at STRICT and LAX
(the samples in samples/constants/ hold the verdicts)."""

from __future__ import annotations

import textwrap

import pytest

from .engine_helpers import check_source, new_engine

HEADER = (
    "from functools import partial\n"
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor\n\n"
    "def show(x, y, z):\n"
    "    return x + y + z\n\n"
)


def flagged(tmp_path, body: str, symbol: str) -> list[str]:
    """The stripped source lines that carry a finding of ``symbol``."""
    source = HEADER + textwrap.dedent(body)
    lines = source.splitlines()
    return sorted(lines[f.line - 1].strip() for f in check_source(tmp_path, source, "net.py")
                  if f.rule.symbol == symbol)


def in_construct(statements: str, extra: str = "") -> str:
    body = textwrap.indent(textwrap.dedent(statements), " " * 8)
    return f"""
{textwrap.dedent(extra)}
class Net(nn.Cell):
    def construct(self, a):
{body}
"""


# ----- partial-argument-given-twice ---------------------------------------------------------

PARTIAL = "partial-argument-given-twice"


@pytest.mark.parametrize("statements", [
    "f = partial(show, a)\nreturn f(x=1, y=2, z=3)",          # positional in the partial
    "f = partial(show, x=a)\nreturn f(1, 2, 3)",              # keyword in the partial
    "f = partial(show, a, x=a)\nreturn f(2, 3)",              # both in the partial
    "f = ops.partial(show, a)\nreturn f(y=2, x=1, z=3)",      # MindSpore's Partial
    "return partial(show, a)(x=1, y=2, z=3)",                 # called where it is built
    "def inner(x, y):\n    return x + y\nreturn partial(inner, a)(x=1, y=2)",  # a nested def
])
def test_a_partial_giving_one_parameter_two_arguments_is_flagged(tmp_path, statements):
    last = statements.splitlines()[-1].strip()
    assert flagged(tmp_path, in_construct(statements), PARTIAL) == [last]


@pytest.mark.parametrize("statements", [
    "f = partial(show, a)\nreturn f(2, 3)",
    "f = partial(show, a)\nreturn f(y=2, z=3)",
    "f = partial(show, x=a)\nreturn f(x=1, y=2, z=3)",        # the call's keyword replaces it
    "f = partial(show, a)\nkw = {'x': 1}\nreturn f(**kw)",    # not counted
    "f = partial(show, *(a,))\nreturn f(x=1, y=2, z=3)",      # not counted
    "f = partial(show, a)\nf = partial(show, x=a)\nreturn f(1, 2, 3)",  # bound twice
    "f = partial(len, a)\nreturn f(x=1)",                     # not the project's function
])
def test_a_partial_whose_arguments_fit_or_are_not_known_is_not_flagged(tmp_path, statements):
    assert flagged(tmp_path, in_construct(statements), PARTIAL) == []


def test_a_method_of_the_cell_is_bound_without_self(tmp_path):
    source = """
class Net(nn.Cell):
    def blend(self, x, weight, bias):
        return x * weight + bias

    def construct(self, a):
        good = partial(self.blend, weight=0.5)(a, bias=1.0)
        return partial(self.blend, weight=0.5)(a, 0.25, 1.0) + good
"""
    assert flagged(tmp_path, source, PARTIAL) == [
        "return partial(self.blend, weight=0.5)(a, 0.25, 1.0) + good"]


def test_an_attribute_holding_a_function_is_not_judged(tmp_path):
    source = """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.show = lambda x, y, z: (x, y, z)

    def show(self, x, y, z):
        return x

    def construct(self, a):
        return partial(self.show, a)(x=1, y=2, z=3)
"""
    assert flagged(tmp_path, source, PARTIAL) == []


def test_a_partial_every_caller_passes_is_judged_in_the_helper(tmp_path):
    source = """
def apply(g, a):
    return g(x=a, y=1, z=2)

def apply_rest(g, a):
    return g(y=1, z=2)

class Net(nn.Cell):
    def construct(self, a):
        h = partial(show, a)
        return apply(partial(show, a), a) + apply_rest(h, a)
"""
    assert flagged(tmp_path, source, PARTIAL) == ["return g(x=a, y=1, z=2)"]


def test_a_helper_some_caller_passes_another_function_is_not_judged(tmp_path):
    source = """
def apply(g, a):
    return g(x=a, y=1, z=2)

class Net(nn.Cell):
    def construct(self, a):
        return apply(partial(show, a), a) + apply(show, a)
"""
    assert flagged(tmp_path, source, PARTIAL) == []


def test_a_function_of_another_module_is_resolved(tmp_path):
    (tmp_path / "helpers.py").write_text("def scale(x, factor):\n    return x * factor\n", "utf-8")
    source = """
from helpers import scale

class Net(nn.Cell):
    def construct(self, a):
        return partial(scale, a)(x=a, factor=2)
"""
    assert flagged(tmp_path, source, PARTIAL) == ["return partial(scale, a)(x=a, factor=2)"]


# ----- invalid-slice ------------------------------------------------------------------------

SLICE = "invalid-slice"


@pytest.mark.parametrize("statements", [
    "return ops.relu(a)[::0]",                                # a tensor, a step of zero
    "return ops.relu(a)['start':]",                           # a str bound
    "t = (a, a, a)\nreturn t[:'b']",                          # a tuple of tensors
    "t = [a, a + 1]\nreturn t[0.5:]",                         # a list, a float bound
    "t = [a, a + 1]\nreturn t[1::0]",
    "y = ops.relu(a)\nreturn y[:'b':1]",
    "stop = Tensor(2.0)\nreturn ops.relu(a)[:stop]",           # a float tensor bound
    "t = (a, a, a)\nreturn t[Tensor(0.5):]",
    "k = (1, 2)\nreturn ops.relu(a)[k:]",                     # a tuple bound
    "t = (a, a, a)\nreturn t[:[1]]",                          # a list bound
])
def test_a_slice_the_compiler_refuses_is_flagged(tmp_path, statements):
    last = statements.splitlines()[-1].strip()
    assert flagged(tmp_path, in_construct(statements), SLICE) == [last]


@pytest.mark.parametrize("statements", [
    "return ops.relu(a)[::-1]",
    "return ops.relu(a)[1:3:2]",
    "return ops.relu(a)[None:True]",                          # None and bool are indices
    "return a[::0]",                                          # not known to be a tensor
    "d = {'a': a}\nreturn d",
    "t = (1, 2, 3)\nreturn a * t[::0][0]",                    # folded: constant-operation-error
    "stop = Tensor(2)\nreturn ops.relu(a)[:stop]",             # an int tensor bound
    "t = (a, a, a)\nreturn t[:Tensor(True)]",
    "return ops.relu(a)[:a]",                                  # a tensor of unknown dtype
])
def test_a_slice_of_int_bounds_or_of_an_unknown_value_is_not_flagged(tmp_path, statements):
    assert flagged(tmp_path, in_construct(statements), SLICE) == []


def test_a_step_from_the_constructor_a_caller_or_the_driver_is_judged(tmp_path):
    source = """
class Strided(nn.Cell):
    def __init__(self, step=0):
        super().__init__()
        self.step = step

    def construct(self, a):
        return ops.relu(a)[::self.step]

def every(t, step):
    return t[::step]

class Helper(nn.Cell):
    def construct(self, a):
        return every(ops.relu(a), 0)

class Driven(nn.Cell):
    def construct(self, a, stop):
        return ops.relu(a)[:stop]

class Fine(nn.Cell):
    def __init__(self, step=0):
        super().__init__()
        self.step = step

    def construct(self, a):
        return ops.relu(a)[::self.step]

def run():
    x = Tensor(np.ones(4, np.float32))
    Strided()(x)
    Helper()(x)
    Driven()(x, "end")
    Fine(step=2)(x)
"""
    # Strided's step, not Fine's (its one construction passes 2)
    assert flagged(tmp_path, source, SLICE) == sorted([
        "return ops.relu(a)[:stop]", "return ops.relu(a)[::self.step]", "return t[::step]"])


def test_a_tensor_or_tuple_bound_from_the_driver_or_a_caller_is_judged(tmp_path):
    source = """
def head(t, stop):
    return t[:stop]

class Helper(nn.Cell):
    def construct(self, a):
        return head(ops.relu(a), (1, 2))

class Driven(nn.Cell):
    def construct(self, a, stop):
        return ops.relu(a)[:stop]

class Fine(nn.Cell):
    def construct(self, a, stop):
        return ops.relu(a)[:stop]

def run():
    x = Tensor(np.ones(4, np.float32))
    Helper()(x)
    Driven()(x, Tensor(2.0))
    Fine()(x, Tensor(2))
"""
    assert flagged(tmp_path, source, SLICE) == ["return ops.relu(a)[:stop]", "return t[:stop]"]


# ----- sequence-operator-error --------------------------------------------------------------

SEQUENCE = "sequence-operator-error"


@pytest.mark.parametrize("statements", [
    "return [a, a] & [a]",
    "return (a, a) | (a,)",
    "return [a] ^ [a]",
    "return (a, a) - (a,)",
    "return (a,) * (a,)",
    "return [1, 2] & [a]",                                    # one of them constants
    "low = [a > 0]\nhigh = [a < 1]\nmasks = low & high\nreturn masks[0]",
    "heads = [a, a]\nreturn (heads + (a,))[0]",              # + of a list and a tuple
    "return ((a,) + [a])[0]",
    "t = (1, 2)\nreturn ([a] + t)[0]",
])
def test_an_operator_python_lacks_on_two_sequences_is_flagged(tmp_path, statements):
    lines = statements.splitlines()
    flagged_line = next(line for line in lines if any(op in line for op in "&|^-*+"))
    assert flagged(tmp_path, in_construct(statements), SEQUENCE) == [flagged_line.strip()]


@pytest.mark.parametrize("statements", [
    "return [a] + [a]",                                       # concatenation
    "return (a,) * 2",                                        # repetition
    "return a & a",                                           # tensors
    "unused = [a, a] & [a]\nreturn a",                        # dropped at LAX before it runs
    "[a] & [a]\nreturn a",
    "t = [1, 2]\nreturn a * len(t & [2])",                    # folded: constant-operation-error
    "return (a,) @ (a,)",                                     # fails in MatMul, another error
    "heads = [a, a]\nunused = heads + (a,)\nreturn a",         # dropped at LAX before it runs
    "t = [1]\nreturn a * len(t + (2,))",                       # folded: constant-operation-error
    "return (list((a,)) + [a])[0]",                           # list() of a tuple: not known
])
def test_operators_python_defines_or_results_never_read_are_not_flagged(tmp_path, statements):
    assert flagged(tmp_path, in_construct(statements), SEQUENCE) == []


def test_sequences_from_a_caller_or_the_constructor_are_judged(tmp_path):
    source = """
def both(first, second):
    return first & second

class Caller(nn.Cell):
    def construct(self, a):
        return both([a, a], [a])

class Held(nn.Cell):
    def __init__(self, flags=(True, False)):
        super().__init__()
        self.flags = flags

    def construct(self, a):
        return self.flags | (a, a)

def run():
    x = Tensor(np.ones(4, np.float32))
    Caller()(x)
    Held()(x)
"""
    assert flagged(tmp_path, source, SEQUENCE) == ["return first & second", "return self.flags | (a, a)"]


# ----- operand-type-error -------------------------------------------------------------------

OPERAND = "operand-type-error"


@pytest.mark.parametrize("statements", [
    "return ops.relu(a) + 'half'",                            # a tensor and a str
    "return ops.relu(a) - None",                              # a tensor and None
    "step = ms.mutable(5)\nreturn a * (step % '4')",          # a run-time int and a str
    "step = ms.mutable(2.0)\nreturn a * (step // None)",
    "n = ms.mutable(2)\nreturn a, 'ab' * n",                  # str * a run-time int
    "s = np.array([1.0], np.float32)\nreturn ops.relu(a) * s",  # a tensor and a numpy array
])
def test_arithmetic_of_a_run_time_value_with_a_str_or_none_is_flagged(tmp_path, statements):
    last = statements.splitlines()[-1].strip()
    assert flagged(tmp_path, in_construct(statements), OPERAND) == [last]


@pytest.mark.parametrize("statements", [
    "return ops.relu(a) + 0.5",
    "step = ms.mutable(5)\nreturn a * (step % 4)",
    "step = ms.mutable(5)\nreturn a, '%d' % step",            # formatting, which LAX runs
    "return a + 'half'",                                      # not known to be a tensor
    "return ops.relu(a) == None",                             # a comparison
    "s = np.array([1.0], np.float32)\nreturn ops.relu(a) * Tensor(s)",
    "s = np.array([1.0], np.float32)\nreturn a * s",           # not known to be a tensor
])
def test_numbers_formatting_and_unknown_operands_are_not_flagged(tmp_path, statements):
    assert flagged(tmp_path, in_construct(statements), OPERAND) == []


def test_a_str_from_the_constructor_is_judged(tmp_path):
    source = """
class Net(nn.Cell):
    def __init__(self, unit="px"):
        super().__init__()
        self.unit = unit

    def construct(self, a):
        step = ms.mutable(3)
        return a * (step + self.unit)

def run():
    Net()(Tensor(np.ones(2, np.float32)))
"""
    assert flagged(tmp_path, source, OPERAND) == ["return a * (step + self.unit)"]


# ----- unpack-non-sequence ------------------------------------------------------------------

UNPACK = "unpack-non-sequence"


@pytest.mark.parametrize("statements", [
    "return ops.maximum(*ops.relu(a))",                       # a tensor into a call
    "n = 3\nreturn show(a, *n)",                              # an int
    "return show(a, *'bc')",                                  # a str
    "n = None\nreturn show(a, *n)",                           # None
    "n = ms.mutable(2)\nreturn show(a, *n)",                  # a scalar decided at run time
    "k = 2.5\nreturn show(a, **k)",                           # ** of a float in a call
    "d = {'x': a, **[1, 2]}\nreturn d['x']",                  # ** of a list in a dict display
    "t = (1, 2)\nd = {'x': a, **t}\nreturn d['x']",
    "d = {'x': a, **ops.relu(a)}\nreturn d['x']",
    "n = 4\nt = (a, *n)\nreturn t[0]",                        # * of an int in a display
    "n = None\nt = [a, *n]\nreturn t[0]",
    "first, *rest = 5\nreturn a",                             # a starred target
    "first, *rest = Tensor(1.0)\nreturn a",                   # a 0-d tensor
])
def test_unpacking_what_the_graph_cannot_unpack_is_flagged(tmp_path, statements):
    last = [line for line in statements.splitlines() if "*" in line][0].strip()
    assert flagged(tmp_path, in_construct(statements), UNPACK) == [last]


@pytest.mark.parametrize("statements", [
    "t = (a, a)\nreturn show(*t, a)",                         # a tuple
    "t = [a, a, a]\nreturn show(*t)",
    "d = {'x': a, 'y': a, 'z': a}\nreturn show(**d)",
    "d = {'y': 1}\ne = {'x': a, **d}\nreturn e['x']",
    "t = (a, *'bc')\nreturn t[0]",                            # a str in a display is iterable
    "t = (a, *ops.relu(a))\nreturn t[0]",                     # a tensor in a display is unstacked
    "d = {'k': 1}\nt = (a, *d)\nreturn t[0]",
    "first, *rest = ops.relu(a)\nreturn first",
    "return show(*a)",                                        # not known to be anything
    "return ops.zeros(*a.shape)",
])
def test_unpacking_a_sequence_a_dict_or_an_unknown_is_not_flagged(tmp_path, statements):
    assert flagged(tmp_path, in_construct(statements), UNPACK) == []


def test_unpacked_values_from_a_caller_a_constructor_a_default_or_the_driver_are_judged(tmp_path):
    source = """
class Spread(nn.Cell):
    def __init__(self, sizes=4):
        super().__init__()
        self.sizes = sizes

    def construct(self, a):
        return show(a, *self.sizes)

def spread(t, extra):
    return show(t, *extra)

class Helper(nn.Cell):
    def construct(self, a):
        return spread(a, 7)

class Defaulted(nn.Cell):
    def construct(self, a, extra=None):
        return {"a": a, **extra}

class Driven(nn.Cell):
    def construct(self, a, pair):
        return ops.maximum(*pair)

class Fine(nn.Cell):
    def __init__(self, sizes=4):
        super().__init__()
        self.sizes = sizes

    def construct(self, a):
        return show(a, *self.sizes)

def run():
    x = Tensor(np.ones(4, np.float32))
    Spread()(x)
    Helper()(x)
    Defaulted()(x)
    Driven()(x, x)
    Fine(sizes=(1, 2))(x)
"""
    # Spread's attribute, not Fine's (its one construction passes a tuple)
    assert flagged(tmp_path, source, UNPACK) == sorted([
        "return show(a, *self.sizes)", "return show(t, *extra)", 'return {"a": a, **extra}',
        "return ops.maximum(*pair)"])


def test_a_tensor_passed_to_a_helper_in_another_module_is_judged(tmp_path):
    (tmp_path / "helpers.py").write_text(
        "from mindspore import ops\n\n"
        "def spread(t):\n"
        "    return ops.maximum(*t)\n\n"
        "def spread_rows(t):\n"
        "    return ops.maximum(*t)\n", "utf-8")
    source = """
from helpers import spread, spread_rows

class Net(nn.Cell):
    def construct(self, a):
        return spread(ops.relu(a)) + spread_rows(ops.unstack(a))
"""
    check_source(tmp_path, HEADER + textwrap.dedent(source), "net.py")
    found = new_engine().check_file(tmp_path / "helpers.py")
    assert [(f.rule.symbol, f.line) for f in found] == [(UNPACK, 4)]
