"""The engine's one model of values, on the shapes issue 19 reproduced (each compiled with
MindSpore 2.10 at STRICT and LAX; the verdicts are in the comments):

- mindspore.mint's functions are tensor functions like mindspore.ops' (one table of facts);
- a tensor built from constants (``Tensor([1, 2, 3])``) joins with an int no better than a
  computed one, whichever way the root is called (a Cell, a ``@jit`` function);
- a helper's ``if`` on a literal every compiled caller passes is decided per call: what is under
  the untaken branch is never evaluated, but still parsed.
"""

from __future__ import annotations

import pytest

from msgraphlint.values.domain import (
    UNKNOWN, ArrayValue, DictValue, Kind, Known, SequenceValue, TensorValue, VariableScalar, join,
    join_kinds, kind_of,
)

from .engine_helpers import findings_on_lines, run_probe

HEADER = """
import numpy as np
import mindspore as ms
from mindspore import Tensor, mint, nn, ops

"""


def found(tmp_path, source: str, *symbols: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER, source, set(symbols))


CASES_PROBE = """
import importlib
import sys
import mindspore as ms
sys.path.insert(0, sys.argv[1])
for level_name, level in (("strict", ms.STRICT), ("lax", ms.LAX)):
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=level)
    for module, case in (argument.split(":", 1) for argument in sys.argv[2:]):
        try:
            importlib.import_module(module).main(case)
            print(f"{case} {level_name}|compiles")
        except Exception as error:
            print(f"{case} {level_name}|{type(error).__name__}")
"""


def compile_cases(tmp_path, modules: dict[str, str], cases: list[tuple[str, str]]):
    """Compile ``main(case)`` of each (module, case) with the real MindSpore at STRICT and LAX:
    ``{"<case> <level>": "compiles" or the exception's class}``, and the probe's output."""
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    code = tmp_path / "code"
    code.mkdir()
    for name, source in modules.items():
        (code / f"{name}.py").write_text(HEADER + source, "utf-8")
    return run_probe(tmp_path, CASES_PROBE, str(code), *(f"{module}:{case}" for module, case in cases))


@pytest.mark.parametrize("reduce", ["ops.sum", "mint.sum", "ops.functional.reduce_sum", "mint.mean"])
def test_a_tensor_test_is_a_tensor_test_in_every_spelling(tmp_path, reduce):
    # ops.sum and mint.sum alike: STRICT rejects the join of None and a tensor.
    source = f"""
class Net(nn.Cell):
    def construct(self, x):
        if {reduce}(x) > 0:
            y = x * 2
        else:
            y = None
        return y
"""
    assert found(tmp_path, source, "branch-none-join") == {("branch-none-join", "return y")}


CONSTANT_TENSOR_JOINS = {
    "a Cell called with tensors": """
class Net(nn.Cell):
    def construct(self, x, y):
        if x < y:
            return Tensor([1, 2, 3])
        return 0

def main():
    net = Net()
    return net(Tensor(1), Tensor(2))
""",
    "a jit function": """
@ms.jit
def f(x, y):
    if x < y:
        return Tensor([1, 2, 3])
    return 0

def main():
    return f(Tensor(np.array(1)), ops.ones((), ms.int32))
""",
    "an ops constructor": """
class Net(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return ops.zeros((3,), ms.float32)
        return 0
""",
}


@pytest.mark.parametrize("source", CONSTANT_TENSOR_JOINS.values(), ids=CONSTANT_TENSOR_JOINS.keys())
def test_a_constant_tensor_does_not_join_with_an_int(tmp_path, source):
    # Rejected at every level: "Cannot join the return values of different branches".
    assert found(tmp_path, source, "branch-type-mismatch") == {("branch-type-mismatch", "return 0")}


HELPERS = """
def helper(x, host=False):
    if host:
        return np.tanh(x)
    return ops.tanh(x)

def by_mode(x, mode="eval"):
    if mode == "train":
        return np.tanh(x)
    return ops.tanh(x)

class Net(nn.Cell):
    def construct(self, x):
        return helper(x) + by_mode(x, "eval") + helper(x, False)
"""


def test_a_branch_no_caller_takes_is_not_evaluated(tmp_path):
    # Compiles at STRICT and LAX: np.tanh is never reached.
    assert found(tmp_path, HELPERS, "host-call-on-tensor") == set()


def test_one_caller_taking_the_branch_is_enough(tmp_path):
    source = HELPERS.replace("helper(x, False)", "helper(x, True)")
    assert found(tmp_path, source, "host-call-on-tensor") == {
        ("host-call-on-tensor", "return np.tanh(x)")}


def test_a_variable_argument_decides_nothing(tmp_path):
    source = HELPERS.replace('by_mode(x, "eval")', "by_mode(x, x)")
    assert found(tmp_path, source, "host-call-on-tensor") == {
        ("host-call-on-tensor", "return np.tanh(x)")}


def test_the_parser_still_reads_the_branch(tmp_path):
    # `try` under `if host:` with host=False: rejected at every level ("Unsupported statement").
    source = """
def helper(x, host=False):
    if host:
        try:
            x = x + 1
        except ValueError:
            pass
    return ops.tanh(x)

class Net(nn.Cell):
    def construct(self, x):
        return helper(x)
"""
    assert found(tmp_path, source, "unsupported-statement") == {("unsupported-statement", "try:")}


# ----- what a constructor argument gives self.<attr> --------------------------------------------

BUILT_WITH = """
def run():
    class Net(nn.Cell):
        def __init__(self, origin):
            super().__init__()
            self.data = origin

        def construct(self, x):
            self.data = x * 2
            return x

    net = Net({argument})
    return net(Tensor([1.0]))
"""


@pytest.mark.parametrize("argument", ["1", "[1, 2]", "np.ones(2)", "ops.ones((2,))"])
def test_an_attribute_set_from_a_constructor_literal_is_no_parameter(tmp_path, argument):
    # STRICT: "the member attribute must be of the Parameter type" (probed: int and mint.zeros).
    source = BUILT_WITH.format(argument=argument)
    assert found(tmp_path, source, "non-parameter-attribute-assign") == {
        ("non-parameter-attribute-assign", "self.data = x * 2")}


@pytest.mark.parametrize("argument", ["Parameter(Tensor([1.0]), name='p')", "weights", ""])
def test_a_constructor_argument_that_may_be_a_parameter_says_nothing(tmp_path, argument):
    # A Parameter, a value the driver was given, no argument at all: nothing is known.
    source = "from mindspore import Parameter\n" + BUILT_WITH.format(argument=argument).replace(
        "def run():", "def run(weights=None):")
    assert found(tmp_path, source, "non-parameter-attribute-assign") == set()


def test_every_parent_passes_a_literal(tmp_path):
    source = """
class Block(nn.Cell):
    def __init__(self, scale=1.0):
        super().__init__()
        self.scale = scale

    def construct(self, x):
        self.scale = self.scale * 2
        return x * 2

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Block()
        self.b = Block(3.0)

    def construct(self, x):
        return self.b(self.a(x))
"""
    assert found(tmp_path, source, "non-parameter-attribute-assign") == {
        ("non-parameter-attribute-assign", "self.scale = self.scale * 2")}
    held_elsewhere = source.replace("self.b = Block(3.0)", "self.b = Block(make_weight())")
    assert found(tmp_path, held_elsewhere, "non-parameter-attribute-assign") == set()


BLOCK = """
class Block(nn.Cell):
    def __init__(self, act=None):
        super().__init__()
        self.act = act

    def construct(self, x):
        if self.act == "gelu":
            x = np.tanh(x)
        return x

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return self.block(x)
"""


def test_a_branch_on_a_constructor_default_is_folded(tmp_path):
    # Every Block() leaves act=None: the parser drops the branch (compiles at STRICT; probed).
    assert found(tmp_path, BLOCK, "host-call-on-tensor") == set()


@pytest.mark.parametrize("built", ['Block("gelu")', "Block(act=make_act())"])
def test_a_constructor_that_may_take_the_branch_keeps_it(tmp_path, built):
    source = BLOCK.replace("self.block = Block()", f"self.block = {built}")
    assert found(tmp_path, source, "host-call-on-tensor") == {("host-call-on-tensor", "x = np.tanh(x)")}


# ----- objects whose attributes are all known --------------------------------------------------

OBJECTS = {
    "a Cell instance held in a closure": ("""
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a0 = Tensor([0])

    def construct(self):
        return self.a0

def run():
    cell_obj = Net()

    @ms.jit
    def foo():
        return getattr(cell_obj, "{attr}")()
    return foo()
""", "return getattr(cell_obj, \"foo\")()"),
    "a jit_class instance": ("""
@ms.jit_class
class Box:
    def __init__(self):
        self.num0 = Tensor(0)

    def get(self):
        return self.num0

def run():
    box = Box()

    @ms.jit
    def foo():
        return getattr(box, "{attr}")()
    return foo()
""", "return getattr(box, \"foo\")()"),
    "a NamedTuple a driver passes": ("""
from typing import NamedTuple

def run():
    class Data(NamedTuple):
        label1: Tensor
        label2: Tensor

    class Net(nn.Cell):
        def construct(self, data):
            return data.{attr}

    data = Data(1, 2)
    return Net()(data)
""", "return data.foo"),
    "a namedtuple a constructor takes": ("""
from collections import namedtuple

def run():
    class Net(nn.Cell):
        def __init__(self, data):
            super().__init__()
            self.data = data

        def construct(self):
            return self.data.{attr}

    Data = namedtuple("User", ["label1", "label2"])
    data = Data(label1=1, label2=2)
    return Net(data)()
""", "return self.data.foo"),
}


@pytest.mark.parametrize("source, line", OBJECTS.values(), ids=OBJECTS.keys())
def test_a_missing_attribute_of_a_known_object(tmp_path, source, line):
    # Rejected at every level (compiler-suite 0516, 0518, 0654, 0655: AttributeError).
    assert found(tmp_path, source.replace("{attr}", "foo"), "constant-attribute-error") == {
        ("constant-attribute-error", line)}


@pytest.mark.parametrize("source, line", OBJECTS.values(), ids=OBJECTS.keys())
def test_an_attribute_the_object_has(tmp_path, source, line):
    attr = {"return data.foo": "label1", "return self.data.foo": "label2"}.get(line, "construct")
    if "Box" in source:
        attr = "get"
    assert found(tmp_path, source.replace("{attr}", attr), "constant-attribute-error") == set()


def test_an_object_that_may_get_attributes_elsewhere_says_nothing(tmp_path):
    source = OBJECTS["a Cell instance held in a closure"][0].replace("{attr}", "foo")
    assert found(tmp_path, source.replace("    cell_obj = Net()\n", "    cell_obj = Net()\n    cell_obj.foo = 1\n"),
                 "constant-attribute-error") == set()
    # A MindSpore base whose attributes its release's table cannot read (SequentialCell names its
    # layers at run time), or a base from another package: the instance may have anything.
    for base in ("nn.SequentialCell", "thirdparty.Block"):
        unknown_base = "import thirdparty\n" + source.replace("class Net(nn.Cell):", f"class Net({base}):")
        assert found(tmp_path, unknown_base, "constant-attribute-error") == set()


def test_a_constructor_argument_named_in_the_driver(tmp_path):
    # z = [[1, 2], 3]; Net(z): self.z is a list, and changing its item in construct is rejected
    # at STRICT ("self.z should be initialized as a 'Parameter'", compiler-suite 0426 and 0428).
    source = """
def run():
    class Net(nn.Cell):
        def __init__(self, z):
            super().__init__()
            self.z = z

        def construct(self, x):
            self.z[0].append(88)
            return x

    z = [[1, 2], 3]
    net = Net(z)
    return net(Tensor([1.0]))
"""
    assert found(tmp_path, source, "non-parameter-attribute-assign") == {
        ("non-parameter-attribute-assign", "self.z[0].append(88)")}
    built_elsewhere = source.replace("    z = [[1, 2], 3]\n", "    z = make_state()\n")
    assert found(tmp_path, built_elsewhere, "non-parameter-attribute-assign") == set()


@pytest.mark.parametrize("data, reported", [
    ("np.arange(0, 6).reshape(2, 3)", True),
    ("np.arange(6).reshape((3, -1))", True),
    ("np.arange(6).reshape(4, 2)", False),  # not a shape of six elements: not judged
    ("np.arange(n)", False),
])
def test_a_tensor_from_a_numpy_range_is_built_from_constants(tmp_path, data, reported):
    # asnumpy() of it: STRICT and COMPATIBLE reject it (compiler-suite 0138).
    source = f"""
def run(n):
    @ms.jit
    def f():
        tensor = Tensor({data})
        return tensor.asnumpy()
    return f()
"""
    expected = {("host-copy-of-constant-tensor", "return tensor.asnumpy()")} if reported else set()
    assert found(tmp_path, source, "host-copy-of-constant-tensor") == expected


CHECKED_INPUT = """
@ms.jit
def foo(paddings):
    if not isinstance(paddings, (tuple, list)):
        raise TypeError(f"paddings must be a tuple, but got {type(paddings)}.")
    return paddings

def run():
    return foo({argument})
"""


@pytest.mark.parametrize("argument, reported", [
    ("Tensor([1])", True),   # the raise is taken: its message is built (STRICT rejects type())
    ("(1, 2)", False),       # a tuple: the raise is never taken
    ("make_paddings()", False),  # not known: the message is built only for inputs that fail
])
def test_a_raise_the_known_inputs_take_builds_its_message(tmp_path, argument, reported):
    # compiler-suite 0186-0190: STRICT fails handling the f-string on the variable.
    source = CHECKED_INPUT.replace("{argument}", argument)
    line = 'raise TypeError(f"paddings must be a tuple, but got {type(paddings)}.")'
    expected = {("non-graph-builtin", line)} if reported else set()
    assert found(tmp_path, source, "non-graph-builtin") == expected


@pytest.mark.parametrize("dividend, divisor, reported", [
    ("(8, 14, 20)", "(2, 2)", True),      # lengths differ
    ("(8, 14, 20)", "(2, 2, 2.0)", True),  # a float
    ("(8, 14, 20)", "(2, 2, 0)", True),   # a zero divisor
    ("(8, 14, 20)", "(2, 2, 2)", False),
])
def test_tuple_div_on_constants_is_checked_as_the_compiler_checks_it(tmp_path, dividend, divisor, reported):
    # compiler-suite 0374-0376: rejected at every level (RuntimeError while compiling).
    source = f"""
from mindspore.ops import functional as F

def run():
    class Net(nn.Cell):
        def construct(self, x, y):
            return F.tuple_div(x, y)
    return Net()({dividend}, {divisor})
"""
    expected = {("constant-operation-error", "return F.tuple_div(x, y)")} if reported else set()
    assert found(tmp_path, source, "constant-operation-error") == expected
    literal = f"""
from mindspore.ops import functional as F

class Net(nn.Cell):
    def construct(self, x):
        return F.tuple_div({dividend}, {divisor})
"""
    line = f"return F.tuple_div({dividend}, {divisor})"
    assert found(tmp_path, literal, "constant-operation-error") == (
        {("constant-operation-error", line)} if reported else set())


MAPPED = """
def add(a, b):
    return a + b

class Net(nn.Cell):
    def construct(self, x):
        return x + sum(map(add, {first}, {second}))
"""


@pytest.mark.parametrize("first, second, reported", [
    ("[1, 2]", "[1, 2, 3]", True),   # "For 'Map', the length of lists must be the same" (probed)
    ("(1, 2)", "[3, 4]", True),      # "The types of arguments in Map must be consistent" (probed)
    ("3", "4", True),                # "Map can only be applied to list, tuple" (compiler-suite 0347)
    ("(1, 2)", "(3, 4)", False),     # compiles (probed)
])
def test_map_takes_lists_or_tuples_of_one_kind_and_length(tmp_path, first, second, reported):
    source = MAPPED.format(first=first, second=second)
    line = f"return x + sum(map(add, {first}, {second}))"
    assert found(tmp_path, source, "constant-operation-error") == (
        {("constant-operation-error", line)} if reported else set())


def test_map_over_what_a_driver_passes(tmp_path):
    # net([x], [y, y]): a list of one tensor and a list of two (compiler-suite 0349).
    source = """
def run():
    class Net(nn.Cell):
        def mul(self, x=2, y=4):
            return x * y

        def construct(self, x, y):
            return map(self.mul, x, y)

    x = Tensor([1.0])
    return Net()([x], [x, x])
"""
    assert found(tmp_path, source, "constant-operation-error") == {
        ("constant-operation-error", "return map(self.mul, x, y)")}


@pytest.mark.parametrize("built_where", ["construct", "__init__"])
def test_str_format_of_a_cell(tmp_path, built_where):
    # "Unsupported parameter type for python primitive": every level (compiler-suite 0184, 0185).
    held = "self.sub" if built_where == "__init__" else "sub"
    source = f"""
def run():
    class Sub(nn.Cell):
        def __init__(self, x):
            super().__init__()
            self.x = x

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            {"self.sub = Sub(123)" if built_where == "__init__" else "self.k = 1"}

        def construct(self):
            {"sub = Sub(123)" if built_where == "construct" else "pass"}
            return "value is {{0.x}}".format({held})

    return Net()()
"""
    line = f'return "value is {{0.x}}".format({held})'
    assert found(tmp_path, source, "constant-operation-error") == {("constant-operation-error", line)}
    fine = source.replace(f'.format({held})', f'.format({held}.x)')
    assert found(tmp_path, fine, "constant-operation-error") == set()


# ----- where the model must not decide (a review's reproductions, each compiled with 2.10) ------

HIDDEN_NOTHING = {
    # the branch is compiled, and np.tanh in it is rejected at STRICT
    "a nested function's own parameter": """
def helper(x, host=False):
    def inner(host):
        if host:
            return np.tanh(x)
        return ops.tanh(x)
    return inner(True)

class Net(nn.Cell):
    def construct(self, x):
        return helper(x)
""",
    "a helper passed on as a value": """
def helper(x, host=False):
    if host:
        return np.tanh(x)
    return ops.tanh(x)

def apply(fn, x):
    return fn(x, True)

class Net(nn.Cell):
    def construct(self, x):
        return helper(x) + apply(helper, x)
""",
    "an attribute an augmented assignment changes": """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = 0

    def advance(self):
        self.step += 1

    def construct(self, x):
        if self.step == 3:
            x = np.tanh(x)
        return x
""",
    "an attribute a subclass sets": """
class Base(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = None

    def construct(self, x):
        if self.act == "gelu":
            x = np.tanh(x)
        return x

class Sub(Base):
    def __init__(self):
        super().__init__()
        self.act = "gelu"
""",
    "an attribute set through setattr": """
class Block(nn.Cell):
    def __init__(self, act=None):
        super().__init__()
        self.act = act

    def configure(self, **options):
        for key, value in options.items():
            setattr(self, key, value)

    def construct(self, x):
        if self.act == "gelu":
            x = np.tanh(x)
        return x

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.block.configure(act="gelu")

    def construct(self, x):
        return self.block(x)
""",
    "a class a registry builds": """
REGISTRY = {}

def register(cls):
    REGISTRY[cls.__name__] = cls
    return cls
""" + BLOCK.replace("class Block(nn.Cell):", "@register\nclass Block(nn.Cell):"),
}


@pytest.mark.parametrize("source", HIDDEN_NOTHING.values(), ids=HIDDEN_NOTHING.keys())
def test_a_branch_the_model_cannot_decide_stays_checked(tmp_path, source):
    assert {symbol for symbol, _ in found(tmp_path, source, "host-call-on-tensor")} == {
        "host-call-on-tensor"}


OBJECTS_THAT_MAY_CHANGE = {
    "setattr in the driver": "    setattr(cell_obj, 'foo', 2)\n",
    "handed to a function": "    configure(cell_obj)\n",
    "guarded by hasattr": None,
}


@pytest.mark.parametrize("change", OBJECTS_THAT_MAY_CHANGE.values(), ids=OBJECTS_THAT_MAY_CHANGE.keys())
def test_an_object_that_may_have_more_attributes_says_nothing(tmp_path, change):
    # All compile at STRICT with 2.10 (the review's probes).
    source = OBJECTS["a Cell instance held in a closure"][0].replace("{attr}", "foo")
    if change is None:
        source = source.replace('return getattr(cell_obj, "foo")()',
                                'return getattr(cell_obj, "foo")() if hasattr(cell_obj, "foo") else 0')
    else:
        source = source.replace("    cell_obj = Net()\n", "    cell_obj = Net()\n" + change)
    assert found(tmp_path, source, "constant-attribute-error") == set()


def test_a_parameter_named_like_a_class_is_not_the_class(tmp_path):
    source = OBJECTS["a Cell instance held in a closure"][0].replace("{attr}", "foo").replace(
        "def run():", "def run(Net=None):")
    assert found(tmp_path, source, "constant-attribute-error") == set()


@pytest.mark.parametrize("body, reported", [
    ("for c in 'abcd':\n            x = x + 1", True),     # rejected at STRICT, COMPATIBLE (probed)
    ("for i, c in enumerate(WORD):\n            x = x + i", True),
    ("x = x + len(WORD)", True),
    ("for i, c in zip((1, 2), 'ab'):\n            x = x + i", False),  # compiles at every level
    ("for c in ('a', 'b'):\n            x = x + 1", False),
])
def test_the_length_of_a_string_constant(tmp_path, body, reported):
    source = f"""
WORD = "abcd"

class Net(nn.Cell):
    def construct(self, x):
        {body}
        return x
"""
    assert bool(found(tmp_path, source, "string-length-at-strict")) == reported


HELD_AND_DRIVEN = """
class Gate(nn.Cell):
    def construct(self, x):
        return x and 2

class Parent(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Gate()

    def construct(self, x):
        return self.inner(x)

def main():
    gate = Gate()
    return gate(Tensor([1.0]))
"""


def test_a_cell_a_parent_holds_still_takes_what_its_python_driver_passes(tmp_path):
    # The parent's instance is called in the parent's graph; the driver's call compiles Gate on
    # its own with a tensor, and MindSpore 2.10 rejects that graph (variants: parent-cell).
    assert found(tmp_path, HELD_AND_DRIVEN, "tensor-bool-operator-join") == {
        ("tensor-bool-operator-join", "return x and 2")}
    plain_holder = HELD_AND_DRIVEN.replace("class Parent(nn.Cell):", "class Parent:")
    assert found(tmp_path, plain_holder, "tensor-bool-operator-join") == set()


# ----- one answer to "is it a tensor?" ---------------------------------------------------------
# The branch joins and the outputs ask the same kinds every family asks (TensorKinds), which read
# the interpreter's values at every sub-expression. A helper's parameter read as a tensor
# (`mask.shape`) is returned as one beside None: 25 models of mindone's transformers have this
# mask test (the joins' own answer had left the returned mask unknown).

MASK_HELPER = """
class Net(nn.Cell):
    def __init__(self, implementation="flash"):
        super().__init__()
        self.implementation = implementation

    def _update(self, mask, x):
        if self.implementation == "flash":
            if mask is not None and (mask == 0.0).any():
                return mask
            return None
        length = mask.shape[-1] if isinstance(mask, Tensor) else x.shape[-1]
        return ops.ones((x.shape[0], length), ms.float32)

    def construct(self, x, mask=None):
        return self._update(mask, x)
"""
# How the models are called: with a mask.
MASK_DRIVER = """
def main():
    net = Net()
    return net(Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 3), np.float32)))
"""

# An input is a tensor or a tuple of them: arithmetic with a number makes a tensor, but two inputs
# added may be tuples joined, and an input's method may be any object's (mindsponge's
# _memory_reduce, mindone's sam2 video loop).
INPUT_SIBLINGS = {
    "with a number, in an output beside None": ("""
class Net(nn.Cell):
    def construct(self, x):
        return x + 1, None
""", "none-in-output-at-strict", {("none-in-output-at-strict", "return x + 1, None")}),
    "repeated, in an output beside None": ("""
class Net(nn.Cell):
    def construct(self, x):
        return x * 2, None
""", "none-in-output-at-strict", {("none-in-output-at-strict", "return x * 2, None")}),
    "two inputs added, then unpacked": ("""
def reduce(body, batched, other):
    inputs = batched + other
    return body(*inputs)

class Net(nn.Cell):
    def construct(self, x, y):
        return reduce(ops.add, (x,), (y,))
""", "unpack-non-sequence", set()),
    "an input's method, then a range": ("""
class Net(nn.Cell):
    def construct(self, x, session):
        total = x
        for i in range(session.count()):
            total = total + i
        return total
""", "range-of-tensor", set()),
}


def test_a_parameter_the_interpreter_knows_is_a_tensor_makes_a_tensor_test(tmp_path):
    assert found(tmp_path, MASK_HELPER, "branch-none-join") == {("branch-none-join", "return None")}


@pytest.mark.parametrize("case", INPUT_SIBLINGS.values(), ids=INPUT_SIBLINGS.keys())
def test_what_an_operation_on_an_input_is(tmp_path, case):
    source, symbol, expected = case
    assert found(tmp_path, source, symbol) == expected


MASK_PROBE = """
import sys
import mindspore as ms
sys.path.insert(0, sys.argv[1])
for name, level in (("strict", ms.STRICT), ("lax", ms.LAX)):
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=level)
    import mask_helper
    try:
        mask_helper.main()
        print(f"{name}|compiles")
    except Exception as error:
        print(f"{name}|{type(error).__name__}: {str(error).splitlines()[0]}")
"""


@pytest.mark.compiler
def test_the_compiler_rejects_the_mask_test_join_at_strict_only(tmp_path):
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    code = tmp_path / "code"
    code.mkdir()
    (code / "mask_helper.py").write_text(HEADER + MASK_HELPER + MASK_DRIVER, "utf-8")
    verdicts, output = run_probe(tmp_path, MASK_PROBE, str(code))
    assert verdicts.get("strict", "").startswith(
        "TypeError: Cannot join the return values of different branches"), output
    assert verdicts.get("lax") == "compiles", output


# ----- one join --------------------------------------------------------------------------------

SOME_VALUES = {
    "1": Known(1), "2": Known(2), "1.5": Known(1.5), "True": Known(True), "'a'": Known("a"),
    "None": Known(None), "(1,)": Known((1,)), "[1]": Known([1]),
    "tensor": TensorValue(False), "float32[2] constant": TensorValue(True, "float32", (2,)),
    "int32[3]": TensorValue(False, "int32", (3,)), "array": ArrayValue("float32", (2,)),
    "mutable int": VariableScalar(int), "unknown": UNKNOWN,
}


@pytest.mark.parametrize("second", SOME_VALUES.values(), ids=SOME_VALUES.keys())
@pytest.mark.parametrize("first", SOME_VALUES.values(), ids=SOME_VALUES.keys())
def test_kinds_join_as_their_values_do(first, second):
    # Branch joins and a name's bindings join kinds; the interpreter joins values. Where the
    # values' join knows a kind, the kinds' join gives that kind (it knows more only where
    # the values differ: 1 and 2 are both ints).
    by_values = kind_of(join([first, second]))
    by_kinds = join_kinds([kind_of(first), kind_of(second)])
    assert by_values in (by_kinds, Kind.UNKNOWN)
    if by_kinds is None:
        assert by_values == Kind.UNKNOWN


def test_the_kinds_join_keeps_several_elements_and_leaves_pending_out():
    assert join_kinds([Kind.TENSOR, Kind.MULTI]) == Kind.MULTI
    assert join_kinds([Kind.PENDING, Kind.TENSOR]) == Kind.TENSOR
    assert join_kinds([Kind.PENDING]) == Kind.PENDING
    assert join_kinds([Kind.INT, Kind.FLOAT]) is None
    assert join_kinds([Kind.TENSOR, None]) is None
    assert join_kinds([]) is None


# ----- one answer to "is it known while compiling?" ---------------------------------------------

REBOUND_TO_A_CONSTANT = """
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        k = x.sum()
        k = 3
        return x * k


def main():
    return Net()(Tensor([1.0]))
"""


def test_a_callers_view_and_the_engine_say_the_same_of_known_while_compiling(tmp_path):
    # The model of constants and variables reads every binding of k (one is a tensor); the
    # interpreter follows the statements and knows k is 3 where it is read. Every view of a
    # compiled function answers with the interpreter first (Evaluation.is_variable).
    from msgraphlint.model.reach import ReachModel
    from msgraphlint.syntax.project import Project
    from msgraphlint.values.interpret import evaluation
    from msgraphlint.values.kinds import FunctionView

    path = tmp_path / "net.py"
    path.write_text(REBOUND_TO_A_CONSTANT, "utf-8")
    project = Project()
    project.add_project_of(path)
    model = ReachModel(project)
    module = project.module(path)
    compiled = next(c for c in model.compiled_functions(module) if c.node.name == "construct")
    read = compiled.node.body[-1].value.right
    assert model.values(compiled).is_variable(read)  # every binding, in no order
    assert not evaluation(model, compiled).is_variable(read, model.values(compiled))
    assert not FunctionView(model, compiled).is_variable(read)


def test_displays_of_one_length_join_element_by_element():
    # `pair = (x, 1)` on one side of an if on a tensor and `(1, x)` on the other: a tuple of two,
    # neither element known; the same display on both sides keeps its elements.
    tensor = TensorValue(False, "float32", (2,))
    first = SequenceValue(tuple, 2, (tensor, Known(1)))
    second = SequenceValue(tuple, 2, (Known(1), tensor))
    joined = join([first, second])
    assert (joined.kind, joined.length, joined.elements) == (tuple, 2, (UNKNOWN, UNKNOWN))
    same = join([first, SequenceValue(tuple, 2, (tensor, Known(1)))]).elements
    assert (same[0].dtype, same[0].shape, same[1]) == ("float32", (2,), Known(1))
    assert join([first, SequenceValue(list, 2, (tensor, Known(1)))]) is UNKNOWN
    assert join([first, SequenceValue(tuple, 3)]) is UNKNOWN


def test_the_variability_of_returns_is_the_join_of_values():
    # known while compiling (False), maybe a variable (True), or per element of a returned tuple
    from msgraphlint.model.compiled import join_variability

    assert join_variability([False, False]) is False
    assert join_variability([False, True]) is True
    assert join_variability([[False, True], [False, False]]) == [False, True]
    assert join_variability([[False, [False, False]], [False, [True, False]]]) == [False, [True, False]]
    assert join_variability([[False], [False, False]]) is True  # tuples of two lengths
    assert join_variability([[False], False]) is True
    assert join_variability([]) is False


# ----- a Parameter is a tensor value -----------------------------------------------------------

# `self.w`, made a Parameter by every assignment, is a tensor to the interpreter (domain:
# TensorValue with parameter=True): a method no Tensor or Parameter has is rejected where it is
# read (mindone's speecht5 `self.weights.detach_()`), and not behind a test of its type that the
# compiler decides while compiling (mindformers' `self.ape.to_local() if hasattr(...) else ...`).
PARAMETER_CELLS = """
class Local(Tensor):
    pass


def to_local(t):
    return t.to_local() if isinstance(t, Local) else t


class WithParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones((2, 3)), ms.float32), name="w")


class Detached(WithParameter):
    def construct(self, x):
        self.w.detach_()
        return x + self.w


class BehindHasattr(WithParameter):
    def construct(self, x):
        w = self.w.to_local() if hasattr(self.w, "to_local") else self.w
        return x + w


class BehindIsinstance(WithParameter):
    def construct(self, x):
        return x + to_local(self.w)


class MaybeNone(nn.Cell):
    def __init__(self, flag=True):
        super().__init__()
        if flag:
            self.w = ms.Parameter(Tensor(np.ones((2, 3)), ms.float32), name="w")
        else:
            self.w = None

    def construct(self, x):
        if self.w is None:
            return x
        self.w.detach_()
        return x + self.w


def main(name):
    cell = {"detached": Detached, "hasattr": BehindHasattr, "isinstance": BehindIsinstance,
            "maybe-none": MaybeNone}[name]
    return cell()(Tensor(np.ones((2, 3)), ms.float32))
"""


def test_a_parameter_is_a_tensor_to_the_interpreter(tmp_path):
    assert found(tmp_path, PARAMETER_CELLS, "tensor-attribute-error") == {
        ("tensor-attribute-error", "self.w.detach_()")}


@pytest.mark.compiler
def test_the_compiler_reads_a_parameters_attributes_as_the_interpreter_does(tmp_path):
    cases = ["detached", "hasattr", "isinstance", "maybe-none"]
    verdicts, output = compile_cases(tmp_path, {"parameter_cells": PARAMETER_CELLS},
                                     [("parameter_cells", case) for case in cases])
    for level in ("strict", "lax"):
        assert verdicts.get(f"detached {level}") == "AttributeError", output
        assert verdicts.get(f"hasattr {level}") == "compiles", output
        assert verdicts.get(f"isinstance {level}") == "compiles", output
        # Built with a Parameter here: the rule stays silent because the model cannot tell
        # which assignment the instance took, not because the read compiles.
        assert verdicts.get(f"maybe-none {level}") == "AttributeError", output


# ----- the element values of displays ----------------------------------------------------------

# A dict display whose keys are known (domain.DictValue), and a tuple display (SequenceValue),
# give the value of an item read with a known key or index: None there is None, and a test of it
# is decided while compiling.
DISPLAY_CELLS = """
class Guarded(nn.Cell):
    def construct(self, x):
        options = {"bias": None, "input": x}
        pair = (x, None)
        if options["bias"] is not None:
            x = x + options["bias"]
        if pair[1] is not None:
            x = x + pair[1]
        return x


class FromDict(nn.Cell):
    def construct(self, x):
        options = {"bias": None, "input": x}
        return x + options["bias"]


class FromTuple(nn.Cell):
    def construct(self, x):
        pair = (x, None)
        return x + pair[1]


def main(name):
    x = Tensor(np.ones((2, 3)), ms.float32)
    if name == "guarded":
        return Guarded()(x)
    if name == "dict":
        return FromDict()(x)
    return FromTuple()(x)
"""


def test_an_item_of_a_display_is_its_elements_value(tmp_path):
    assert found(tmp_path, DISPLAY_CELLS, "operand-type-error") == {
        ("operand-type-error", 'return x + options["bias"]'),
        ("operand-type-error", "return x + pair[1]"),
    }


@pytest.mark.compiler
def test_the_compiler_reads_an_item_of_a_display_as_the_interpreter_does(tmp_path):
    verdicts, output = compile_cases(tmp_path, {"display_cells": DISPLAY_CELLS},
                                     [("display_cells", case) for case in ("guarded", "dict", "tuple")])
    for level in ("strict", "lax"):
        assert verdicts.get(f"guarded {level}") == "compiles", output
        assert verdicts.get(f"dict {level}") not in (None, "compiles"), output
        assert verdicts.get(f"tuple {level}") not in (None, "compiles"), output


@pytest.mark.parametrize("first, second, joined", [
    (DictValue(("a", "b"), (Known(1), Known(2))), DictValue(("a", "b"), (Known(1), Known(2))),
     DictValue(("a", "b"), (Known(1), Known(2)))),
    (DictValue(("a", "b"), (Known(1), Known(2))), DictValue(("a", "b"), (Known(1), Known(3))),
     DictValue(("a", "b"), (Known(1), UNKNOWN))),
    (DictValue(("a",), (Known(1),)), DictValue(("b",), (Known(1),)), UNKNOWN),
])
def test_dicts_of_the_same_keys_join_key_by_key(first, second, joined):
    assert join([first, second]) == joined


# ----- the attribute values of an object ---------------------------------------------------------

# A sub-Cell built in __init__ (domain.ObjectValue) carries the attributes its own __init__ sets
# once, to a literal or to what the construction passes: `self.block.mode` is "slow" below.
OBJECT_CELLS = """
class Block(nn.Cell):
    def __init__(self, heads, mode="fast"):
        super().__init__()
        self.heads = heads
        self.mode = mode

    def construct(self, x):
        return x


class Retuned(nn.Cell):
    def __init__(self, heads, mode="fast"):
        super().__init__()
        self.heads = heads
        self.mode = mode

    def retune(self, mode):
        self.mode = mode

    def construct(self, x):
        return x


class Net(nn.Cell):
    def __init__(self, mode, retuned=False):
        super().__init__()
        self.block = Block(4, mode="slow")
        self.passed = Block(4, mode=mode)
        self.retuned = Retuned(4, mode="slow")

    def construct(self, x):
        y = x + self.block.mode
        z = x + self.passed.mode
        return y, z, x + self.retuned.mode


def main():
    return Net(2)(Tensor(np.ones((2, 3)), ms.float32))
"""


def test_an_objects_attribute_is_what_its_construction_sets(tmp_path):
    # `self.passed.mode` is what Net's caller passes; `self.retuned.mode` is set again by a method.
    assert found(tmp_path, OBJECT_CELLS, "operand-type-error") == {
        ("operand-type-error", "y = x + self.block.mode")}


READS_BLOCK = """
from object_cells import Block


class Reads(nn.Cell):
    def __init__(self, mode):
        super().__init__()
        self.block = Block(4, mode=mode)

    def construct(self, x):
        return x + self.block.mode


def main(mode):
    return Reads({"str": "slow", "int": 2}[mode])(Tensor(np.ones((2, 3)), ms.float32))
"""


@pytest.mark.compiler
def test_the_compiler_reads_the_attribute_its_construction_set(tmp_path):
    verdicts, output = compile_cases(tmp_path, {"object_cells": OBJECT_CELLS, "reads": READS_BLOCK},
                                     [("reads", "str"), ("reads", "int")])
    for level in ("strict", "lax"):
        assert verdicts.get(f"str {level}") not in (None, "compiles"), output
        assert verdicts.get(f"int {level}") == "compiles", output


# ----- one answer to "does type inference evaluate this branch?" --------------------------------

# The branches whose test the compile-time values decide are not evaluated, whichever family
# asks (FunctionContext.unevaluated): mindone's ibert QuantAct tests `self.act_range_momentum ==
# -1` under a tensor test, and every construction leaves it at 0.95.
MOMENTUM_CELLS = """
class Quant(nn.Cell):
    def __init__(self, momentum=DEFAULT):
        super().__init__()
        self.momentum = momentum

    def construct(self, x):
        y = x
        if x.sum() > 100:
            y = x * 2
        elif self.momentum == -1:
            self.register_buffer("low", x)
            y = x * 3
        return y + 1


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.quant = Quant()

    def construct(self, x):
        return self.quant(x)


def main(case=None):
    return Net()(Tensor(np.ones((2, 3)), ms.float32))
"""
MOMENTUMS = {"0.95": False, "-1": True}  # the default every construction keeps: reported?


@pytest.mark.parametrize("default", MOMENTUMS)
def test_a_branch_the_values_decide_is_not_evaluated(tmp_path, default):
    source = MOMENTUM_CELLS.replace("DEFAULT", default)
    expected = {("jit-forbidden-api", 'self.register_buffer("low", x)')} if MOMENTUMS[default] else set()
    assert found(tmp_path, source, "jit-forbidden-api") == expected


@pytest.mark.compiler
def test_the_compiler_leaves_a_branch_the_values_decide(tmp_path):
    modules = {f"momentum_{index}": MOMENTUM_CELLS.replace("DEFAULT", default)
               for index, default in enumerate(MOMENTUMS)}
    verdicts, output = compile_cases(tmp_path, modules, [(f"momentum_{index}", default)
                                                         for index, default in enumerate(MOMENTUMS)])
    for level in ("strict", "lax"):
        for default, reported in MOMENTUMS.items():
            expected = "RuntimeError" if reported else "compiles"
            assert verdicts.get(f"{default} {level}") == expected, output


# ----- a host copy is a value ------------------------------------------------------------------

# `w.asnumpy()` of a graph variable is a host value (domain.HostValue); whether a name holds one
# follows the statements (Evaluation.is_host): `h = Tensor(h)` is a tensor again, so its
# `tolist()` is a tensor's host copy, not numpy's own method.
HOST_CELLS = """
class Rebound(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones((2, 3)), ms.float32), name="w")

    def construct(self, x):
        h = self.w.asnumpy()
        h = Tensor(h)
        return x, h.tolist()


class Kept(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones((2, 3)), ms.float32), name="w")

    def construct(self, x):
        kept = self.w.asnumpy()
        return x, kept.tolist()
"""


def test_a_host_copy_follows_the_statements(tmp_path):
    assert found(tmp_path, HOST_CELLS, "asnumpy-in-graph") == {
        ("asnumpy-in-graph", "return x, h.tolist()")}


# ----- a value that is never None -------------------------------------------------------------

# A tensor, a display or an object is not None while compiling (domain.never_none): the branch
# of `self.bias is None` on a Parameter is never evaluated.
NONE_TESTS = """
class WithBias(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = ms.Parameter(Tensor(np.ones((3,)), ms.float32), name="bias")
        self.options = {"scale": 2}

    def construct(self, x):
        if self.bias is None:
            return x + None
        pair = (x, x)
        if pair is None:
            return x + "pair"
        return x + self.bias


def main(case=None):
    return WithBias()(Tensor(np.ones((3,)), ms.float32))
"""


def test_a_tensor_or_a_display_is_not_none(tmp_path):
    assert found(tmp_path, NONE_TESTS, "operand-type-error") == set()


@pytest.mark.compiler
def test_the_compiler_decides_is_none_of_a_parameter(tmp_path):
    verdicts, output = compile_cases(tmp_path, {"none_tests": NONE_TESTS}, [("none_tests", "bias")])
    for level in ("strict", "lax"):
        assert verdicts.get(f"bias {level}") == "compiles", output
