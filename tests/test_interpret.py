"""The interpreter of compile-time values: what it folds, and where it must stay silent."""

from __future__ import annotations

import textwrap

import pytest

from .engine_helpers import check_source

HEADER = "import numpy as np\nfrom mindspore import Tensor, nn\n"
CONSTANT_RULES = {"constant-operation-error", "constant-attribute-error", "builtin-arity-error",
                  "tensor-bool-operator-join", "multi-element-tensor-as-bool",
                  "constant-power-overflow"}


def flagged(tmp_path, body: str) -> list[tuple[str, str]]:
    """(symbol, line text) of the constants family's findings for a construct body."""
    source = HEADER + "class Net(nn.Cell):\n    def construct(self, x):\n"
    source += textwrap.indent(textwrap.dedent(body).strip("\n"), "        ") + "\n"
    lines = source.splitlines()
    return [(f.rule.symbol, lines[f.line - 1].strip()) for f in check_source(tmp_path, source)
            if f.rule.symbol in CONSTANT_RULES]


@pytest.mark.parametrize(
    "body, line",
    [
        ("a = 1\nb = 'px'\nreturn x, a + b", "return x, a + b"),
        ("a = 1\na += 1\nb = (a, 'c')\nreturn x, b[2]", "return x, b[2]"),
        ("n = int('wide')\nreturn x", "n = int('wide')"),
        ("return x, 2 ** 40 * 2 ** 40", "return x, 2 ** 40 * 2 ** 40"),  # int64 overflow
        ("return x, 1 << 64", "return x, 1 << 64"),  # rejected like *, not wrapped like **
        ("for i in range(0, 1.5):\n    x = x + i\nreturn x", "for i in range(0, 1.5):"),
        ("t = (2, 3)\nreturn x.reshape(t.shape)", "return x.reshape(t.shape)"),
        ("return x, len(1, 2)", "return x, len(1, 2)"),
    ],
)
def test_a_failing_operation_on_constants_is_reported(tmp_path, body, line):
    assert [text for _, text in flagged(tmp_path, body)] == [line]


@pytest.mark.parametrize(
    "body",
    [
        "return x + 'a'",  # x is an input: not known
        "a = 1\nif x > 0:\n    a = 'px'\nreturn x, a + 1",  # a branch on a tensor: either
        "a = 1\nfor i in range(3):\n    a = 'px'\nreturn x, a + 1",  # changed in the loop
        "a = [1]\na.append(2)\nreturn x, a[1]",  # the changed list is followed
        "if True:\n    a = 1\nelse:\n    a = 'a'\nreturn x, a + 1",  # the dead branch is dropped
        "a = 'a'\nif False:\n    return x, a + 1\nreturn x",
        "return x, 2 ** 62",
        "return x, 2.0 ** 64",  # a float: no int64 in sight
        "n = x.shape[0]\nreturn x, 2 ** (n * 64)",  # a shape: known only to the compiler
        "d = {'k': 1}\nreturn x, d.get('z')",
        "return x, zip((1,), (2,))",
    ],
)
def test_nothing_is_said_where_a_value_is_not_known_or_the_operation_is_fine(tmp_path, body):
    assert flagged(tmp_path, body) == []


def test_constants_passed_by_the_python_caller_are_folded(tmp_path):
    source = HEADER + textwrap.dedent("""
        def run():
            class Member(nn.Cell):
                def construct(self, a, b):
                    return a in b
            net = Member()
            net(1, 2)
    """)
    findings = check_source(tmp_path, source)
    assert [(f.rule.symbol, f.line) for f in findings] == [("constant-operation-error", 7)]


def test_a_constant_self_attribute_set_once_in_init_is_folded_and_a_list_is_not(tmp_path):
    source = HEADER + textwrap.dedent("""
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.cut = slice(1, 4.5)
                self.names = ["a"]
                self.spare = None

            def construct(self, x):
                self.names.append("b")
                return "ABCDEF"[self.cut], self.names[1], self.spare
    """)
    findings = check_source(tmp_path, source)
    assert [(f.rule.symbol, f.args[0]) for f in findings if f.rule.symbol in CONSTANT_RULES] == [
        ("constant-operation-error", "'ABCDEF'[self.cut]")]


def test_tensor_truth_and_joins_follow_the_construction(tmp_path):
    source = HEADER + textwrap.dedent("""
        def run():
            class Gate(nn.Cell):
                def construct(self, x, y):
                    pair = Tensor([0, 1])
                    one = Tensor([2.0])
                    return pair and x, one and x, x and y, x and 2
            Gate()(Tensor([1]), Tensor([1.0]))
    """)
    findings = [f for f in check_source(tmp_path, source) if f.rule.symbol in CONSTANT_RULES]
    assert sorted((f.rule.symbol, f.args[0]) for f in findings) == [
        ("multi-element-tensor-as-bool", "pair and x"),
        ("tensor-bool-operator-join", "x and 2"),
        ("tensor-bool-operator-join", "x and y"),  # int64 and float32
    ]


def test_an_expression_too_deep_to_follow_is_bounded(tmp_path):
    terms = " + ".join(["1"] * 600)
    assert flagged(tmp_path, f"a = {terms} + 'a'\nreturn x") == []


def test_star_parameters_gather_the_callers_arguments(tmp_path):
    """**kwargs is a dict of every keyword, *args a tuple: neither takes one argument's value."""
    source = HEADER + textwrap.dedent("""
        def run():
            @jit
            def step(*args, **kwargs):
                return args[0].bit_length(), kwargs.items()
            step(1, a=2)
    """).replace("from mindspore import Tensor, nn", "from mindspore import Tensor, nn, jit")
    assert [f.rule.symbol for f in check_source(tmp_path, source) if f.rule.symbol in CONSTANT_RULES] == []


def test_the_graphs_own_container_methods_are_not_called_missing(tmp_path):
    """MindSpore's dict has has_key, which Python 3's lacks; a tensor attribute on a tuple is
    missing everywhere."""
    assert flagged(tmp_path, "d = {'a': 1}\nreturn x, d.has_key('a')") == []
    assert flagged(tmp_path, "t = (2, 3)\nreturn x, t.dtype") == [
        ("constant-attribute-error", "return x, t.dtype")]
    assert flagged(tmp_path, "items = [1, 2]\nreturn x, getattr(items, 'abs2')") == [
        ("constant-attribute-error", "return x, getattr(items, 'abs2')")]


def test_module_constants_are_known(tmp_path):
    """sys.maxsize is the graph's int64 limit: walking past it overflows make_range."""
    source = "import sys\n" + HEADER + textwrap.dedent("""
        class Net(nn.Cell):
            def construct(self, x):
                top = sys.maxsize
                for _ in range(top - 1, top, 3):
                    x = x + 1
                return x
    """)
    assert [f.rule.symbol for f in check_source(tmp_path, source) if f.rule.symbol in CONSTANT_RULES] == [
        "constant-operation-error"]


def test_is_none_decides_a_branch_and_and_stops_early(tmp_path):
    """`mask is not None` with the caller's default None drops the branch; `k in d and d[k]`
    does not index a key that is not there."""
    source = HEADER + textwrap.dedent("""
        CFG = {"a": 1}

        def run():
            class Net(nn.Cell):
                def construct(self, x, mask=None):
                    if mask is not None:
                        x = x * mask.astype(x.dtype)
                    if "b" in CFG and CFG["b"] > 0:
                        x = x + 1
                    return x
            Net()(Tensor([1.0]))
    """)
    assert [f.rule.symbol for f in check_source(tmp_path, source) if f.rule.symbol in CONSTANT_RULES] == []


def test_module_containers_filled_elsewhere_and_rebound_names_are_not_constants(tmp_path):
    source = HEADER + textwrap.dedent("""
        REGISTRY = {}
        REGISTRY["relu"] = 1
        ITEMS = [1]
        ITEMS.append(3)
        SCALE = "x"
        for SCALE in (1, 2):
            pass

        class Net(nn.Cell):
            def construct(self, x):
                return x, REGISTRY["relu"], ITEMS[1], SCALE + 1
    """)
    assert [f.rule.symbol for f in check_source(tmp_path, source) if f.rule.symbol in CONSTANT_RULES] == []


def test_a_range_longer_than_the_platform_can_count_is_no_internal_error(tmp_path):
    import sys

    source = "import sys\n" + HEADER + textwrap.dedent("""
        class Net(nn.Cell):
            def construct(self, x):
                for i in range(-sys.maxsize - 1, sys.maxsize):
                    x = x + i
                return x, pow(3, 10 ** 7), "%*d" % (10 ** 9, 1)
    """)
    check_source(tmp_path, source)  # must return (the range is refused by make_range elsewhere)
    assert sys.maxsize > 0


@pytest.mark.parametrize(
    "body",
    [
        "a = 1\na += 'px'\nreturn x",
        "a: str = 'px'\nreturn x, a.shape",
        "return x, 9223372036854775807 + 1",
    ],
)
def test_the_shortcut_that_skips_functions_keeps_what_the_interpreter_finds(tmp_path, body):
    assert len(flagged(tmp_path, body)) == 1


def test_a_tensor_class_imported_under_another_name_is_a_tensor(tmp_path):
    source = "from mindspore import Tensor as T\n" + HEADER + textwrap.dedent("""
        class Net(nn.Cell):
            def construct(self, x):
                return x + T([1.0, 2.0]).shapee
    """)
    assert [f.rule.symbol for f in check_source(tmp_path, source)] == ["tensor-attribute-error"]


def test_an_integer_power_past_int64_wraps_and_says_so(tmp_path):
    # probed with 2.10: x * (2 ** 64 // 2 ** 62) is -2 * x at every level, 4 * x in PyNative
    got = flagged(tmp_path, "big = 2 ** 64\nreturn x * (big // 2 ** 62), x * (-3) ** 41")
    assert got == [("constant-power-overflow", "big = 2 ** 64"),
                   ("constant-power-overflow", "return x * (big // 2 ** 62), x * (-3) ** 41")]


DYNAMIC_RULES = {"mixed-types-in-dynamic-sequence", "dynamic-length-unsupported"}


def dynamic_flagged(tmp_path, body: str, driver: str = "") -> list[tuple[str, str]]:
    source = ("from mindspore import Tensor, jit, mutable\n\n\n@jit\ndef step(x, m=None, i=None):\n"
              + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n")
    source += "\n\ndef main():\n    " + (driver or "step(Tensor([1.0]))") + "\n"
    lines = source.splitlines()
    return [(f.rule.symbol, lines[f.line - 1].strip()) for f in check_source(tmp_path, source)
            if f.rule.symbol in DYNAMIC_RULES]


@pytest.mark.parametrize(
    "body, symbol, line",
    [
        # Each shape probed with MindSpore 2.10: rejected at STRICT, COMPATIBLE and LAX.
        ("a = mutable([1, 2], True)\nreturn x, a + [1.0]", "mixed", "return x, a + [1.0]"),
        ("a = mutable([1, 2], True)\nreturn x, [True] + a", "mixed", "return x, [True] + a"),
        ("a = mutable([(1, 2)], True)\nb = mutable([(1, 2, 3)], True)\nreturn x, a + b", "mixed",
         "return x, a + b"),
        ("base = [1, 2]\na = mutable(base, True)\na += [0.5]\nreturn x, a", "mixed", "a += [0.5]"),
        ("a = mutable([1, 2], True)\na.insert(0, 2.0)\nreturn x, a", "mixed", "a.insert(0, 2.0)"),
        ("a = mutable([1, 2], True)\na[0:1] = [3, 4.0]\nreturn x, a", "mixed", "a[0:1] = [3, 4.0]"),
        ("a = [1, 2, 3.0]\na[0:2] = mutable([1, 2], True)\nreturn x, a", "mixed",
         "a[0:2] = mutable([1, 2], True)"),
        ("a = [1.0, 2.0]\nstart = mutable(0)\na[start:1] = [3]\nreturn x, a", "mixed",
         "a[start:1] = [3]"),
        ("a = mutable([1, 2], True)\nreturn x, tuple(map(abs, a))", "length",
         "return x, tuple(map(abs, a))"),
        ("return x, m[i]", "length", "return x, m[i]"),
    ],
)
def test_what_enters_a_dynamic_length_sequence_has_its_one_type(tmp_path, body, symbol, line):
    driver = "step(Tensor([1.0]), mutable([], True), mutable(0))" if "m[i]" in body else ""
    expected = {"mixed": "mixed-types-in-dynamic-sequence", "length": "dynamic-length-unsupported"}
    assert dynamic_flagged(tmp_path, body, driver) == [(expected[symbol], line)]


@pytest.mark.parametrize(
    "body",
    [
        "a = mutable([1, 2], True)\nreturn x, a + [3], a * 2, len(a), sum(a)",  # one type: compiles
        "a = mutable([], True)\nreturn x, a + [1.0]",  # an empty one takes any type
        "a = mutable([1, 2], True)\ns = 0\nfor v in a:\n    s = s + v\nreturn x, s",
        "a = mutable([1, 2])\nreturn x, a + [1.0], tuple(zip(a, a))",  # constant length
        "a = [1, 2.0]\nreturn x, a[mutable(0)]",  # reading at a variable index compiles
        "a = mutable([x, x], True)\nreturn x, a + [Tensor([1.0])]",  # x's shape: not known
        "a = [1, 2.0]\na[0] = 3\nreturn x, a",  # a constant index: the list is not dynamic
        "a = (1, 2)\nreturn x, tuple(zip(a, a))",
    ],
)
def test_dynamic_length_sequences_say_nothing_where_the_compiler_accepts_or_types_are_unknown(
        tmp_path, body):
    assert dynamic_flagged(tmp_path, body) == []


@pytest.mark.parametrize(
    "body, line",
    [
        ("for v in Tensor(2.0):\n    x = x + v\nreturn x", "for v in Tensor(2.0):"),
        ("t = Tensor(1)\nfor a, b in zip((1, 2), t):\n    x = x + a\nreturn x",
         "for a, b in zip((1, 2), t):"),
        ("for i, v in enumerate(Tensor(1.0)):\n    x = x + v\nreturn x",
         "for i, v in enumerate(Tensor(1.0)):"),
        ("return tuple(Tensor(1.0))", "return tuple(Tensor(1.0))"),
        ("n = 3\nfor i, v in enumerate(n):\n    x = x + v\nreturn x", "for i, v in enumerate(n):"),
        ("rows = [x]\nrows.extend(3)\nreturn rows[0]", "rows.extend(3)"),
        ("rows = [x]\nrows.extend('ab')\nreturn rows[0]", "rows.extend('ab')"),
        ("rows = [x]\nrows.extend({'k': 1})\nreturn rows[0]", "rows.extend({'k': 1})"),
        ("rows = [x]\nrows.extend(Tensor(2.0))\nreturn rows[0]", "rows.extend(Tensor(2.0))"),
        ("pair = (x, x)\nreturn pair[2]", "return pair[2]"),  # a tuple of tensors, past its end
        ("pair = (x, x)\nreturn pair[-3]", "return pair[-3]"),
        ("return getattr(x, 3)", "return getattr(x, 3)"),
        ("return getattr(self, None, x)", "return getattr(self, None, x)"),
        ("name = 'abc'\nreturn x, name.upper(x)", "return x, name.upper(x)"),  # any argument
        ("return x, 'ABC'.lower(1)", "return x, 'ABC'.lower(1)"),  # Python's own TypeError
        # a loop over a known number (compiler-suite 0410: "'int64' object is not iterable")
        ("for i in 3:\n    x = x + i\nreturn x", "for i in 3:"),
        ("steps = 2.5\nfor i in steps:\n    x = x + i\nreturn x", "for i in steps:"),
    ],
)
def test_iterating_a_0d_tensor_extending_with_a_scalar_or_indexing_past_a_tuple_is_reported(tmp_path, body, line):
    assert [text for _, text in flagged(tmp_path, body)] == [line]


@pytest.mark.parametrize(
    "body",
    [
        "for v in Tensor([2.0]):\n    x = x + v\nreturn x",  # one dimension: iterable
        "for v in x:\n    x = x + v\nreturn x",  # an input of unknown shape
        "for i, k in enumerate({'a': 1}):\n    x = x + i\nreturn x",  # a dict is taken (2.10)
        "return list(Tensor(np.ones((2, 2), np.float32)))",  # rank 2: taken in 2.7 and 2.10
        "rows = [x]\nrows.extend((x, x))\nrows.extend(Tensor([1.0, 2.0]))\nreturn rows[0]",
        "rows = [1]\nrows.extend((2, 3))\nreturn x, rows",
        "pair = (x, x)\nreturn pair[1] + pair[-2]",
        "rows = [x, x]\nrows.append(x)\nreturn rows[2]",  # a list may grow: not judged
        "return getattr(x, 'T')",
        "name = 'abc'\nreturn x, name.upper(), name.lower()",
        "return x, 'ABC'.lower(key=x)",  # refused by 2.10, compiled by 2.7: not judged
        "for i in range(3):\n    x = x + i\nreturn x",
    ],
)
def test_iterable_tensors_and_accepted_extends_are_not_reported(tmp_path, body):
    assert flagged(tmp_path, body) == []


def test_a_0d_tensor_the_driver_passes_is_judged_in_a_loop(tmp_path):
    source = HEADER + textwrap.dedent("""
    class Net(nn.Cell):
        def construct(self, x, steps):
            for v in steps:
                x = x + v
            return x

    def run():
        Net()(Tensor(np.ones(2, np.float32)), Tensor(3.0))
    """)
    lines = source.splitlines()
    found = [(f.rule.symbol, lines[f.line - 1].strip()) for f in check_source(tmp_path, source)]
    assert found == [("constant-operation-error", "for v in steps:")]


# ----- the one join: branches the compiler cannot decide, and the calls of a helper -----------

JOINED = '''
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = Tensor(np.ones((2, 3), np.float32))
            n = 4
            s = "same"
        else:
            y = Tensor(np.zeros((5, 3), np.float32))
            n = 5
            s = "same"
        return y, n, s


def main():
    Net()(Tensor(np.ones((2,), np.float32)))
'''


def _construct_returning(tmp_path, source: str):
    """(the model, the construct of ``source``, the elements its return gives back)."""
    from msgraphlint.syntax.project import Project
    from msgraphlint.model.reach import ReachModel

    path = tmp_path / "probed.py"
    path.write_text(source, "utf-8")
    project = Project()
    module = project.module(path)
    model = ReachModel(project)
    compiled = next(c for c in model.compiled_functions(module) if c.node.name == "construct")
    returned = next(n for n in module.nodes(compiled.node) if n.__class__.__name__ == "Return")
    return model, compiled, returned.value.elts


def _values_at_return(tmp_path, source: str) -> dict[str, object]:
    from msgraphlint.values.interpret import evaluation

    model, compiled, elements = _construct_returning(tmp_path, source)
    found = evaluation(model, compiled)
    return {element.id: found.value(element) for element in elements}


def test_the_sides_of_an_undecided_if_join_as_calls_do(tmp_path):
    """Two tensors of one dtype and other shapes join into a float32 tensor of unknown shape
    (the join of a helper's calls); ints that differ are unknown; equal constants stay."""
    from msgraphlint.values.domain import UNKNOWN, Known, is_tensor_value

    values = _values_at_return(tmp_path, JOINED)
    assert is_tensor_value(values["y"]) and values["y"].dtype == "float32" and values["y"].shape is None
    assert values["y"].rank == 2 and values["y"].constant
    assert values["n"] is UNKNOWN
    assert values["s"] == Known("same")


@pytest.mark.parametrize("built, dtype", [
    ("np.ones((2, 3), np.float32)", "float32"),
    ("np.zeros((2, 3), dtype=np.int32)", "int32"),
    ("np.array([[1, 2]], np.float16)", "float16"),
    ("np.ones((2, 3))", "float64"),
    ("np.array([[1, 2]], some_dtype)", "float32"),
    ("np.array([[1, 2]], x.dtype)", None),
])
def test_numpy_arrays_take_the_dtype_given_by_keyword_or_position(tmp_path, built, dtype):
    from msgraphlint.values.domain import is_array_value

    source = ("import numpy as np\nfrom mindspore import nn\nsome_dtype = np.float32\n\n\n"
              "class Net(nn.Cell):\n    def construct(self, x):\n"
              f"        a = {built}\n        return a, x\n")
    value = _values_at_return(tmp_path, source)["a"]
    assert is_array_value(value) and value.dtype == dtype


KINDS = '''
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x, one):
        pair = Tensor([0, 1])
        n = 3
        a = np.ones((2,))
        return pair, one, n, a, x + 1


def main():
    Net()(Tensor(np.ones((4,), np.float32)), Tensor([1.0]))
'''


def test_tensor_kinds_take_the_size_the_interpreter_knows(tmp_path):
    """One answer to "is this a tensor, of how many elements?": where the interpreter knows a
    value, TensorKinds says what it says (Tensor([0, 1]) holds two; a driver's Tensor([1.0])
    one; a Python int and a numpy array are no graph tensors)."""
    from msgraphlint.values.kinds import Kind, kinds_of

    model, compiled, elements = _construct_returning(tmp_path, KINDS)
    kinds = kinds_of(model, compiled)
    assert [kinds.kind(element) for element in elements] == [Kind.MULTI, Kind.TENSOR, None, None, Kind.MULTI]
    assert [kinds.element_count(element) for element in elements][:4] == [2, 1, None, None]


ORDERED = '''
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x, n):
        m = n * 2
        y = m * 3
        m = x
        return y, m, x


def main():
    Net()(Tensor(np.ones((2,), np.float32)), 3)
'''


def test_known_while_compiling_has_one_answer_that_follows_the_statements(tmp_path):
    """y is 18 while compiling: m is rebound to a tensor only after y is computed. The model of
    constants and variables, which does not follow statement order, takes y for a variable; the
    families' answer (FunctionContext.is_variable) is the interpreter's where it knows."""
    from msgraphlint.engine.analyze import FunctionContext
    from msgraphlint.pipeline import new_engine

    path = tmp_path / "ordered.py"
    path.write_text(ORDERED, "utf-8")
    engine = new_engine()
    module = engine.model.project.module(path)
    compiled = next(c for c in engine.model.compiled_functions(module) if c.node.name == "construct")
    ctx = FunctionContext(engine=engine, module=module, findings=[], function=compiled)
    returned = next(n for n in module.nodes(compiled.node) if n.__class__.__name__ == "Return")
    y, m, x = returned.value.elts
    assert ctx.values.is_variable(y)  # the order-blind model alone
    assert [ctx.is_variable(y), ctx.is_variable(m), ctx.is_variable(x)] == [False, True, True]


PARAMETERS = '''
import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn


class Net(nn.Cell):
    def __init__(self, flag=True):
        super().__init__()
        self.w = Parameter(Tensor(1.0, ms.float32), name="w")
        if flag:
            self.maybe = Parameter(Tensor(1.0, ms.float32), name="maybe")
        else:
            self.maybe = None

    def construct(self, x):
        return self.w, self.maybe, x
'''


def test_a_parameter_is_a_tensor_where_nothing_else_is_interpreted(tmp_path):
    """``self.w`` made a Parameter by every assignment is a tensor value, also in a function the
    interpreter skips (nothing else in it folds); an attribute that may be None is not known."""
    from msgraphlint.values.interpret import evaluation, self_attribute_value
    from msgraphlint.values.kinds import Kind, kinds_of

    model, compiled, elements = _construct_returning(tmp_path, PARAMETERS)
    assert evaluation(model, compiled).values == {}  # not interpreted
    assert self_attribute_value(model, compiled, "w").parameter
    kinds = kinds_of(model, compiled)
    assert [kinds.kind(element) for element in elements[:2]] == [Kind.TENSOR, None]


def test_a_literal_is_known_where_nothing_else_is_interpreted(tmp_path):
    """A literal's value does not wait on the interpreter's shortcut: `transpose(1, 2)` of a
    4-d tensor is reported in a function where nothing else folds (53 such in mindone were
    silent), as in one where something does."""
    alone = """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return x.view(2, 3, 4, 5).transpose(1, 2)
"""
    folding = alone.replace("return x.view", "n = 2 + 3\n        return x.view")
    for source in (alone, folding):
        found = [f.rule.symbol for f in check_source(tmp_path, textwrap.dedent(source))]
        assert found == ["transpose-pair-as-permutation"], source
