"""types: what counts as a non-type for isinstance, as a tensor for range and sequence indices, as a
tensor that may hold several elements for a Python boolean, and as a function returned to Python."""

from __future__ import annotations

import textwrap

import pytest

from msgraphlint.knowledge import catalogue
from msgraphlint.knowledge.catalogue import Level, Severity

from .engine_helpers import check_source

HEADER = (
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor, Parameter\n"
    "from mindspore.common import dtype as mstype\n"
    "from mindspore.ops import functional as F\n\n"
)
TYPES = {
    "isinstance-non-type", "range-of-tensor", "tensor-index-on-tuple", "tensor-index-on-list",
    "tensor-as-bool", "function-in-output", "function-in-output-dict", "raise-in-none-graph",
    "percent-format-of-tensor", "jit-class-in-output", "getattr-numpy-default",
    "mapped-sequence-mismatch", "extremum-of-nested-tensors", "sparse-tensor-conversion",
}


def findings(tmp_path, body: str):
    return [
        f
        for f in check_source(tmp_path, HEADER + textwrap.dedent(body), "net.py")
        if f.rule.symbol in TYPES
    ]


def in_construct(tmp_path, statements: str, init: str = "pass", params: str = "x"):
    """Findings of the family for ``statements`` as the body of Net.construct(self, <params>)."""
    body = textwrap.indent(textwrap.dedent(statements), " " * 8)
    return findings(
        tmp_path,
        f"""
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        {init}

    def construct(self, {params}):
{body}
""",
    )


def symbols(found) -> list[str]:
    return sorted(f.rule.symbol for f in found)


# ----- isinstance-non-type ------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, hint",
    [
        ("ms.float32", "MindSpore dtype"),
        ("mstype.int32", "MindSpore dtype"),
        ("(Tensor, ms.float16)", "MindSpore dtype"),
        ("'Tensor'", "str constant"),
        ("None", "type(None)"),
        ("[Tensor, int]", "the tuple (Tensor, int)"),
        ("int | float", "the tuple (int, float)"),
        ("x + 1", "is a tensor"),
        ("ops.add", "MindSpore function"),  # 2.10: "Not support the type: Function", every level
    ],
)
def test_isinstance_second_argument_that_is_not_a_type_is_flagged(tmp_path, spec, hint):
    found = in_construct(tmp_path, f"y = x.sum()\nreturn isinstance(y, {spec})")
    assert symbols(found) == ["isinstance-non-type"]
    assert hint in found[0].message


@pytest.mark.parametrize(
    "spec",
    ["Tensor", "(Tensor, int)", "(Tensor, (int, float))", "type(None)", "mstype.TensorType",
     "ms.Parameter", "self.kinds", "SomeAlias", "ops.Add", "nn.Dense"],
)
def test_types_and_tuples_of_types_are_not_flagged(tmp_path, spec):
    assert in_construct(tmp_path, f"return isinstance(x, {spec})", init="self.kinds = (Tensor, int)") == []


def test_cell_attribute_holding_a_constant_is_not_a_type(tmp_path):
    found = in_construct(tmp_path, "return isinstance(x, self.kind)", init="self.kind = 'Tensor'")
    assert symbols(found) == ["isinstance-non-type"]
    assert "holds the constant 'Tensor'" in found[0].message


def test_isinstance_outside_compiled_code_is_not_checked(tmp_path):
    assert in_construct(tmp_path, "return x", init="self.ok = isinstance(1, ms.float32)") == []


# ----- range-of-tensor ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "count",
    ["ops.argmax(x.sum(1))", "x.sum().astype(ms.int32)", "n", "ms.Tensor(3)"],
)
def test_range_of_a_tensor_is_flagged(tmp_path, count):
    found = in_construct(
        tmp_path, f"n = ops.argmax(x)\nfor _ in range({count}):\n    x = x * 2\nreturn x"
    )
    assert symbols(found) == ["range-of-tensor"]


def test_make_range_of_a_tensor_is_flagged(tmp_path):
    found = in_construct(tmp_path, "return F.make_range(ops.argmax(x))")
    assert symbols(found) == ["range-of-tensor"]


@pytest.mark.parametrize(
    "count",
    ["x.shape[0]", "len(x)", "int(ops.argmax(x))", "n", "F.tuple_len(ops.shape(x))",
     "ops.shape(x)[0]", "self.steps", "x.size"],
)
def test_range_of_python_ints_and_unknowns_is_not_flagged(tmp_path, count):
    # `n` here is a construct input never shown to be a tensor: it may be a Python int.
    found = in_construct(
        tmp_path, f"for _ in range({count}):\n    x = x * 2\nreturn x",
        init="self.steps = 3", params="x, n",
    )
    assert found == []


# ----- tensor-index-on-tuple / tensor-index-on-list -----------------------------------------


def test_tuple_and_list_of_tensors_indexed_by_a_tensor_are_flagged(tmp_path):
    found = in_construct(
        tmp_path,
        """
        i = ops.argmax(x.sum(1))
        pair = (x, x * 2)
        items = [x, x * 3]
        return pair[i] + items[i] + (x, x)[i]
        """,
    )
    assert symbols(found) == ["tensor-index-on-list", "tensor-index-on-tuple", "tensor-index-on-tuple"]


@pytest.mark.parametrize(
    "index",
    ["0", "x.shape[0] - 1", "len(pair) - 1", "n", "int(ops.argmax(x))", "ops.argmax(x):"],
)
def test_python_int_indices_and_slices_are_not_flagged(tmp_path, index):
    found = in_construct(tmp_path, f"pair = (x, x * 2)\nreturn pair[{index}]", params="x, n")
    assert found == []


def test_tuple_of_cells_indexed_by_a_tensor_is_switch_layer_and_not_flagged(tmp_path):
    found = in_construct(
        tmp_path,
        "branches = (self.a, self.b)\ni = ops.argmax(x)\nreturn branches[i](x) + self.layers[i](x)",
        init="self.a = nn.ReLU()\n        self.b = nn.Tanh()\n        self.layers = nn.CellList([])",
    )
    assert found == []


def test_tensor_indexed_by_a_tensor_is_a_gather_and_not_flagged(tmp_path):
    assert in_construct(tmp_path, "i = ops.argmax(x)\nreturn x[i]") == []


# ----- tensor-as-bool -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement, how",
    [
        ("if y > 0:\n    return y", "the test of an if"),
        ("while y > 0:\n    y = y - 1", "the test of a while"),
        ("assert y", "an assert"),
        ("z = y if y else x", "the test of a conditional expression"),
        ("z = not ops.isfinite(y)", "the operand of not"),
        ("z = y and x", "an operand of and"),
        ("if x.shape[0] > 1 and ops.equal(y, 0):\n    return y", "the test of an if"),
        ("z = bool(y)", "bool()"),
    ],
)
def test_tensor_that_may_hold_several_elements_used_as_bool_is_advice(tmp_path, statement, how):
    found = in_construct(tmp_path, f"y = x.reshape((2, 2))\n{statement}\nreturn x")
    assert symbols(found) == ["tensor-as-bool"]
    assert f"({how})" in found[0].message
    # The shape is unknown statically: advice at every level, whatever the catalogue's verdict.
    assert {found[0].severity(level) for level in Level} == {Severity.ADVICE}


@pytest.mark.parametrize(
    "test",
    [
        "x.sum() > 0",
        "(x > 0).any()",
        "ops.reduce_sum(x) > 0 or ops.all(x > 0)",
        "x.shape[0] > 1",
        "x[0] > 0",
        "x is None",
        "x.item() > 0",
        "int(x.sum())",
        "self.flag",
        "self.counter % 2 == 0",
        "ops.is_floating_point(x)",
        "F.tuple_len(ops.shape(x)) > 1",
        "n > 0",
    ],
)
def test_reduced_scalar_and_host_values_as_bool_are_not_flagged(tmp_path, test):
    found = in_construct(
        tmp_path,
        f"y = x.reshape((2, 2))\nif {test}:\n    return y\nreturn x",
        init="self.flag = True\n        self.counter = Parameter(Tensor(0, ms.int32))",
        params="x, n",
    )
    assert found == []


def test_a_parameter_never_shown_to_be_a_tensor_is_not_flagged(tmp_path):
    # `flag` may be a Python bool passed to the Cell: the compiler folds it.
    assert in_construct(tmp_path, "if flag:\n    return x\nreturn x + 1", params="x, flag") == []


def test_elementwise_ops_on_unknown_values_are_not_flagged(tmp_path):
    # mindspore.scipy's line search: logical_not on scalar state compiles.
    found = in_construct(
        tmp_path, "done = ops.logical_not(state)\nif done:\n    return x\nreturn x", params="x, state"
    )
    assert found == []


def test_a_rebound_name_keeps_the_kind_of_its_other_bindings(tmp_path):
    found = in_construct(tmp_path, "y = x.reshape((2, 2))\nwhile y > 1:\n    y = y / 2\nreturn y")
    assert symbols(found) == ["tensor-as-bool"]


# ----- function-in-output -------------------------------------------------------------------


@pytest.mark.parametrize(
    "returned, what",
    [
        ("helper", "the function helper"),
        ("x, helper", "the function helper"),
        ("lambda y: y", "a lambda"),
        ("ops.relu", "the function ops.relu"),
        ("self.post", "the method self.post"),
        ("x, self.act", "the Cell or primitive self.act"),
        ("self.add", "the Cell or primitive self.add"),
        ("self.sub", "the Cell self.sub"),
        ("inner", "the nested function inner"),
    ],
)
def test_functions_returned_from_construct_are_flagged(tmp_path, returned, what):
    found = findings(
        tmp_path,
        f"""
def helper(x):
    return x

class Sub(nn.Cell):
    def construct(self, x):
        return x

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()
        self.add = ops.Add()
        self.sub = Sub()

    def post(self, y):
        return y

    def construct(self, x):
        def inner(y):
            return y
        return {returned}
""",
    )
    assert symbols(found) == ["function-in-output"]
    assert what in found[0].message


@pytest.mark.parametrize(
    "returned",
    ["Box", "helper(x)", "self.factor", "self.act(x)", "x.dtype", "self.post(x)", "None"],
)
def test_values_classes_and_properties_returned_are_not_flagged(tmp_path, returned):
    found = findings(
        tmp_path,
        f"""
def helper(x):
    return x

class Box:
    pass

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()

    @property
    def factor(self):
        return 2

    def post(self, y):
        return y

    def construct(self, x):
        return {returned}
""",
    )
    assert found == []


def test_functions_returned_into_a_graph_are_not_flagged(tmp_path):
    # A helper, and a sub-Cell whose parent calls it, return into the calling graph: fine in 2.10.
    found = findings(
        tmp_path,
        """
def helper(x):
    return x

class Inner(nn.Cell):
    def construct(self, x):
        return x, helper

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def pick(self):
        return helper

    def construct(self, x):
        y, f = self.inner(x)
        return self.pick()(f(y))
""",
    )
    assert found == []


def test_jit_function_returning_a_function_is_flagged(tmp_path):
    found = findings(
        tmp_path,
        """
def helper(x):
    return x

@ms.jit
def step(x):
    return x, helper
""",
    )
    assert symbols(found) == ["function-in-output"]


# ----- function-in-output-dict --------------------------------------------------------------


def test_function_in_a_returned_dict_is_flagged_apart(tmp_path):
    found = findings(
        tmp_path,
        """
def helper(x):
    return x

class Net(nn.Cell):
    def construct(self, x):
        out = {"x": x, "f": helper}
        return out
""",
    )
    assert symbols(found) == ["function-in-output-dict"]


def test_dict_of_tensors_returned_is_not_flagged_by_this_family(tmp_path):
    found = in_construct(tmp_path, 'return {"x": x, "y": ops.relu(x)}')
    assert found == []


# ----- the catalogue's own examples ---------------------------------------------------------


@pytest.mark.parametrize(
    "rule", [r for r in catalogue.rules() if r.family == "types"], ids=lambda r: r.symbol
)
def test_every_catalogue_example_is_flagged_by_its_rule(tmp_path, rule):
    found = findings(tmp_path, rule.example)
    assert rule.symbol in symbols(found)


def test_a_config_object_with_mean_and_std_fields_is_not_a_tensor(tmp_path):
    # `cfg.mean` read (not called) is a field; only calling a tensor method shows a tensor.
    found = in_construct(
        tmp_path, "y = (x - cfg.mean) / cfg.std\nif not cfg:\n    return x\nreturn y", params="x, cfg"
    )
    assert found == []


def test_output_of_a_batch_layer_used_as_bool_is_flagged(tmp_path):
    found = in_construct(
        tmp_path, "logits = self.fc(x)\nif logits > 0:\n    return logits\nreturn x",
        init="self.fc = nn.Dense(2, 1)\n        self.act = nn.ReLU()",
    )
    assert symbols(found) == ["tensor-as-bool"]


def test_output_of_other_sub_cells_used_as_bool_is_not_flagged(tmp_path):
    # A project Cell or an activation may return anything (a scalar loss, a tuple).
    found = in_construct(
        tmp_path, "loss = self.loss(x)\nif self.act(loss):\n    return x\nreturn x",
        init="self.loss = nn.MSELoss()\n        self.act = nn.ReLU()",
    )
    assert found == []


@pytest.mark.parametrize(
    "statement",
    ["return x.reshape((n, -1))", "return ops.zeros((n, 2), ms.float32) + x", "return ops.tile(x, (n, 1))"],
)
def test_tensor_sizes_in_shapes_are_not_flagged(tmp_path, statement):
    # MindSpore 2.10 accepts a scalar tensor in a shape at every level (outputs and gradients
    # matched PyNative): the "sizes" bullet is not a rule.
    assert in_construct(tmp_path, f"n = ops.argmax(x.sum(1)) + 1\n{statement}") == []


@pytest.mark.parametrize(
    "test, flagged",
    [
        ("logits.argmax(-1) == 1", True),
        ("logits.sum(axis=1) > 0", True),
        ("ops.reduce_sum(logits, 1) > 0", True),
        ("logits.argmax() == 1", False),
        ("logits.sum(axis=None) > 0", False),
        ("ops.reduce_sum(logits) > 0", False),
        ("logits.norm(2) > 1", False),
    ],
)
def test_a_reduction_along_an_axis_keeps_the_batch(tmp_path, test, flagged):
    found = in_construct(
        tmp_path, f"logits = self.fc(x)\nif {test}:\n    return logits\nreturn x",
        init="self.fc = nn.Dense(2, 2)",
    )
    assert symbols(found) == (["tensor-as-bool"] if flagged else [])


# ----- raise-in-none-graph, percent-format-of-tensor ------------------------------------------


def test_a_check_graph_that_returns_its_input_or_raises_on_constants_is_fine(tmp_path):
    assert in_construct(tmp_path, "if x.max() > 10:\n    raise ValueError('big')\nreturn x") == []
    assert in_construct(tmp_path, "if x.shape[0] > 10:\n    raise ValueError('big')") == []
    assert symbols(in_construct(tmp_path, "if x.max() > 10:\n    raise ValueError('big')\nreturn None")) == [
        "raise-in-none-graph"]


def test_only_percent_formatting_of_a_tensor_is_reported(tmp_path):
    assert in_construct(tmp_path, "msg = f'big: {x.max()}'\nreturn x") == []
    assert in_construct(tmp_path, "msg = 'shape %s' % (x.shape,)\nreturn x") == []
    assert symbols(in_construct(tmp_path, "msg = 'big: %s' % x.max()\nreturn x")) == [
        "percent-format-of-tensor"]


def test_isinstance_given_an_instance_or_an_array_instead_of_a_type(tmp_path):
    found = findings(tmp_path, """
import numpy as np

class Box:
    pass

class Net(nn.Cell):
    def construct(self, x):
        a = isinstance(x, (int, (Box(), float)))
        b = isinstance(x, np.array([1, 2]))
        c = isinstance(x, (Box, type(x), make_kind()))
        return x
""")
    assert [(f.rule.symbol, f.line) for f in found] == [
        ("isinstance-non-type", 14), ("isinstance-non-type", 15)]


CONSTEXPR_HELPER = """
import mindspore.ops as P
from mindspore import nn
from mindspore.common import dtype as mstype
from mindspore.ops import constexpr


@constexpr(check=False)
def check(data):
    {body}
    return True


class Net(nn.Cell):
    def construct(self, x, h=None):
        batch = x.shape[0]
        check({argument})
        x = P.Transpose()(x, (1, 0))
        return x * batch
"""


@pytest.mark.parametrize("body, argument, flagged", [
    # Python raises whenever the isinstance runs: for every call that passes a tensor
    ("if data is not None and not isinstance(P.typeof(data), mstype.tensor_type): raise TypeError",
     "x", True),
    ("isinstance(data, [int, float])", "x", True),
    ("ok = isinstance(data, int | float) if data is None else isinstance(data, mstype.float32)",
     "x", True),
    # the call passes None, or nothing decides the test, or the isinstance is a type test
    ("if data is not None and not isinstance(P.typeof(data), mstype.tensor_type): raise TypeError",
     "h", False),
    ("if data is not None and not isinstance(P.typeof(data), mstype.tensor_type): raise TypeError",
     "None", False),
    ("if data > 0 and isinstance(data, [int]): raise TypeError", "x", False),
    ("try:\n        isinstance(data, [int])\n    except TypeError:\n        pass", "x", False),
    # a union is a type for Python, which runs the helper
    ("isinstance(data, int | float)", "x", False),
])
def test_isinstance_in_a_constexpr_helper_is_flagged_where_a_compiled_call_runs_it(
        tmp_path, body, argument, flagged):
    source = CONSTEXPR_HELPER.format(body=body, argument=argument)
    found = [f for f in check_source(tmp_path, source) if f.rule.symbol == "isinstance-non-type"]
    assert bool(found) is flagged, [f.message for f in found]
    if flagged:  # in the helper, with the root that runs it
        assert found[0].line == 10 and "reached from Net.construct via check" in found[0].message


def test_a_constexpr_helper_nothing_compiled_calls_is_not_checked(tmp_path):
    source = CONSTEXPR_HELPER.format(body="isinstance(data, [int])", argument="x").replace(
        "        check(x)\n", "")
    assert not [f for f in check_source(tmp_path, source) if f.rule.symbol == "isinstance-non-type"]


def test_releases_before_2_9_hand_a_constexpr_helper_a_tensor_as_none(tmp_path):
    """2.7 and 2.8 pass a variable tensor to a @constexpr helper as None (probed: the sample
    compiles there), so `data is not None` keeps the isinstance from running."""
    from msgraphlint.pipeline import new_engine

    body = "if data is not None and not isinstance(P.typeof(data), mstype.tensor_type): raise TypeError"
    path = tmp_path / "model.py"
    path.write_text(CONSTEXPR_HELPER.format(body=body, argument="x"), "utf-8")
    for release, flagged in (("2.7", False), ("2.8", False), ("2.9", True), ("2.10", True)):
        engine = new_engine()
        engine.target_version = release
        found = [f for f in engine.check_file(path) if f.rule.symbol == "isinstance-non-type"]
        assert bool(found) is flagged, release


@pytest.mark.parametrize("body, flagged", [
    ("return x * 2, Output(2, 0)", True),
    ("record = Output(2, 0)\n        return x, record", True),
    # kept inside the graph, a plain class, or not what goes back to Python
    ("record = Output(2, 0)\n        return x * record.scale", False),
    ("return x, Plain(2, 0)", False),
])
def test_a_jit_class_object_handed_back_to_python_is_flagged(tmp_path, body, flagged):
    source = f"""
@ms.jit_class
class Output:
    def __init__(self, scale, shift):
        self.scale = scale
        self.shift = shift


class Plain:
    def __init__(self, scale, shift):
        self.scale = scale


class Net(nn.Cell):
    def construct(self, x):
        {body}
"""
    found = [f for f in findings(tmp_path, source) if f.rule.symbol == "jit-class-in-output"]
    assert bool(found) is flagged


# ----- getattr-numpy-default ----------------------------------------------------------------


@pytest.mark.parametrize("body, flagged", [
    ("return getattr(self, 'scale', np.array([1.0, 2.0]))", True),
    ("fallback = np.ones((2,), np.float32)\nreturn getattr(x, 'scale', fallback)", True),
    ("return x * getattr(self, 'mode', np.zeros(3))[0]", True),
    # defaults the graph takes, or not known to be an array
    ("return getattr(self, 'scale', (1.0, 2.0))", False),
    ("return getattr(self, 'scale', Tensor([1.0, 2.0]))", False),
    ("return x * getattr(self, 'scale', np.float32(2.0))", False),
    ("return getattr(self, 'scale')", False),
    ("return getattr(self, 'scale', x)", False),
])
def test_getattr_with_a_numpy_default_is_flagged(tmp_path, body, flagged):
    statements = textwrap.indent(body, " " * 8)
    source = f"""
import numpy as np

class Net(nn.Cell):
    def construct(self, x):
{statements}
"""
    found = [f for f in findings(tmp_path, source) if f.rule.symbol == "getattr-numpy-default"]
    assert bool(found) is flagged


def test_a_numpy_default_a_compiled_caller_passes_is_flagged(tmp_path):
    source = """
import numpy as np

def option(holder, default):
    return getattr(holder, "scale", default)


class Net(nn.Cell):
    def construct(self, x):
        return x * option(self, np.ones(2))[0]
"""
    found = [f for f in findings(tmp_path, source) if f.rule.symbol == "getattr-numpy-default"]
    assert [f.line for f in found] == [10]  # the getattr in the helper


# ----- mapped-sequence-mismatch, extremum-of-nested-tensors ----------------------------------

MAPPED = "mapped-sequence-mismatch"
EXTREMUM = "extremum-of-nested-tensors"
MAP_HEADER = (
    "import numpy as np\n"
    "from mindspore import nn, ops, Tensor\n"
    "from mindspore.ops import composite as C\n\n"
    "_hyper_map = C.HyperMap()\n\n"
    "def add(a, b):\n"
    "    return a + b\n\n"
)


def flagged(tmp_path, body: str, symbol: str, name: str = "net.py") -> list[str]:
    """The stripped source lines that carry a finding of ``symbol``."""
    source = MAP_HEADER + textwrap.dedent(body)
    lines = source.splitlines()
    return sorted(lines[f.line - 1].strip() for f in check_source(tmp_path, source, name)
                  if f.rule.symbol == symbol)


def mapped_in_construct(statements: str) -> str:
    body = textwrap.indent(textwrap.dedent(statements), " " * 8)
    return f"""
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.hyper_map = C.HyperMap()
        self.map = ops.Map()

    def construct(self, x):
        y = ops.relu(x)
{body}
"""


@pytest.mark.parametrize("statements", [
    "return self.hyper_map(add, (y, y, y), (y, y))",              # lengths
    "return _hyper_map(add, (y, y), [y, y])",                     # a tuple and a list
    "return C.HyperMap()(add, ((y, y), y), ((y,), y))",           # nested lengths
    "return self.hyper_map(add, {'a': y}, {'a': y, 'b': y})",     # dict sizes
    "return self.hyper_map(add, {'a': y}, (y,))",                 # a dict and a tuple
    "return self.map(add, (y, y), y)",                            # Map: a tensor beside a tuple
    "return self.map(add, [y, y], [y])",
    "t = (y, y)\nreturn self.hyper_map(add, t, (y,))",            # a local tuple
    "return self.hyper_map(add, (y, y), x, (y,))",                # an unknown argument aside
])
def test_mapped_sequences_of_different_kinds_or_lengths_are_flagged(tmp_path, statements):
    last = statements.splitlines()[-1].strip()
    assert flagged(tmp_path, mapped_in_construct(statements), MAPPED) == [last]


@pytest.mark.parametrize("statements", [
    "return self.hyper_map(add, (y, y), (y, y))",
    "return self.hyper_map(add, (y, y), y)",                      # HyperMap broadcasts a tensor
    "return self.hyper_map(add, ((y, y), y), (y, y))",            # ... also within a nesting
    "return self.map(add, ((y, y), y), ((y,), y))",               # Map: the top level only
    "return self.hyper_map(add, x, (y,))",                        # x: not known
    "t = [y]\nt.append(y)\nreturn self.hyper_map(add, t, [y, y])",  # a list that grows
    "return self.hyper_map(ops.relu, (y, y))",
])
def test_mapped_sequences_that_agree_or_are_not_known_are_not_flagged(tmp_path, statements):
    assert flagged(tmp_path, mapped_in_construct(statements), MAPPED) == []


def test_a_mapper_built_with_its_function_maps_every_argument(tmp_path):
    source = """
add_op = C.MultitypeFuncGraph("add_op")

@add_op.register("Tensor", "Tensor")
def _add(a, b):
    return a + b

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.add_all = C.HyperMap(add_op)
        self.other = Unknown()

    def construct(self, x):
        y = ops.relu(x)
        a = self.add_all((y, y), (y,))
        return a, self.other(add, (y, y), (y,))
"""
    assert flagged(tmp_path, source, MAPPED) == ["a = self.add_all((y, y), (y,))"]


def test_sequences_from_a_caller_the_driver_a_constructor_and_another_module(tmp_path):
    (tmp_path / "maps.py").write_text("from mindspore.ops import composite as C\nshared = C.HyperMap()\n")
    source = """
from maps import shared

def apply(fn, firsts, seconds):
    return _hyper_map(fn, firsts, seconds)

class Helper(nn.Cell):
    def construct(self, x):
        y = ops.relu(x)
        return apply(add, (y, y), (y,))

class Driven(nn.Cell):
    def construct(self, sizes, x):
        return _hyper_map(add, sizes, (1, 2))

class Held(nn.Cell):
    def __init__(self, sizes=(1, 2, 3)):
        super().__init__()
        self.sizes = sizes

    def construct(self, x):
        return shared(add, self.sizes, (4, 5))

def run():
    x = Tensor(np.ones(2, np.float32))
    Helper()(x)
    Driven()([1, 2], x)
    Held()(x)
"""
    assert flagged(tmp_path, source, MAPPED) == sorted([
        "return _hyper_map(add, sizes, (1, 2))", "return _hyper_map(fn, firsts, seconds)",
        "return shared(add, self.sizes, (4, 5))"])


@pytest.mark.parametrize("statements", [
    "pairs = ((y, y), (y,))\nreturn max(pairs)",
    "return min([[y], [y + 1]])",
    "return max((1, (y, 2)))",                                    # a number and a nested tensor
])
def test_max_or_min_of_tensors_in_nested_sequences_is_flagged(tmp_path, statements):
    last = statements.splitlines()[-1].strip()
    assert flagged(tmp_path, mapped_in_construct(statements), EXTREMUM) == [last]


@pytest.mark.parametrize("statements", [
    "return max((y, y))",                                         # tensors as elements
    "return max(((y,), y))",                                      # one is a tensor: another path
    "return max(((1, 2), (3,)))",                                 # no tensor
    "return max(y, y)",
    "return max(((x,), (x,)))",                                   # x: not known to be a tensor
    "return min(x)",
])
def test_max_or_min_of_tensors_or_of_unknown_values_is_not_flagged(tmp_path, statements):
    assert flagged(tmp_path, mapped_in_construct(statements), EXTREMUM) == []


# ----- sparse-tensor-conversion ---------------------------------------------------------------

SPARSE = "sparse-tensor-conversion"
SPARSE_CELL = """
import mindspore as ms
from mindspore import COOTensor

class Net(nn.Cell):
    def __init__(self, flag=None):
        super().__init__()
        self.coo = COOTensor(Tensor([[0, 1]], ms.int32), Tensor([1.0], ms.float32), (2, 2))
        self.csr = ms.CSRTensor(Tensor([0, 1], ms.int32), Tensor([0], ms.int32), Tensor([1.0]), (1, 2))
        self.flag = flag
        self.other = Tensor([1.0])

    def construct(self, x):
        local = COOTensor(Tensor([[0, 1]], ms.int32), x[:1], (2, 2))
        a = float(self.coo)
        b = int(self.csr)
        c = list(local)
        d = bool(ms.COOTensor(Tensor([[0, 1]], ms.int32), x[:1], (2, 2)))
        e = tuple(local)
        f = float(self.other)
        g = bool(self.flag)
        h = list(local.values)
        return a, b, c, d, e, f, g, h
"""


def test_a_sparse_tensor_given_to_bool_int_float_or_list_is_flagged(tmp_path):
    assert flagged(tmp_path, SPARSE_CELL, SPARSE) == sorted([
        "a = float(self.coo)", "b = int(self.csr)", "c = list(local)",
        "d = bool(ms.COOTensor(Tensor([[0, 1]], ms.int32), x[:1], (2, 2)))"])


def test_a_local_or_attribute_bound_to_something_else_too_is_not_flagged(tmp_path):
    source = """
from mindspore import COOTensor

class Net(nn.Cell):
    def __init__(self, dense=False):
        super().__init__()
        if dense:
            self.mask = Tensor([1.0])
        else:
            self.mask = COOTensor(Tensor([[0, 1]]), Tensor([1.0]), (2, 2))

    def construct(self, x):
        local = COOTensor(Tensor([[0, 1]]), x[:1], (2, 2))
        if x.sum() > 0:
            local = x
        return float(self.mask), list(local)
"""
    assert flagged(tmp_path, source, SPARSE) == []


# ----- raise-in-none-graph in a function compiled code calls -----------------------------------

NONE_HELPERS = '''
import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from none_checks import check_elsewhere


def check(v):
    if v > 5:
        raise ValueError("too big")
    return None


def check_implicit(v):
    if v > 5:
        raise ValueError("too big")


def check_returns(v):
    if v > 5:
        raise ValueError("too big")
    return v


def check_static(x):
    if x.shape[0] > 5:
        raise ValueError("too big")


def rebinds_only(v):
    if v > 5:
        v = v + 1


def outer(v):
    check_implicit(v)
    return v


class Explicit(nn.Cell):
    def construct(self, x):
        check(x.sum())
        return x


class ResultUsed(nn.Cell):
    def construct(self, x):
        y = check_implicit(x.sum())
        return x


class Method(nn.Cell):
    def inner(self, x):
        if x.sum() > 5:
            raise ValueError("bad")
        return None

    def construct(self, x):
        self.inner(x)
        return x


class AssignsParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor(np.ones(2), ms.float32), name="param")

    def func(self, y):
        if y.sum() > 0:
            self.param = y * 2

    def construct(self, x):
        self.func(x)
        return self.param


class ThroughAnother(nn.Cell):
    def construct(self, x):
        return outer(x.sum()) + x


class OtherModule(nn.Cell):
    def construct(self, x):
        check_elsewhere(x.sum())
        return x


class Returns(nn.Cell):
    def construct(self, x):
        check_returns(x.sum())
        return x


class Static(nn.Cell):
    def construct(self, x):
        check_static(x)
        return x


class RebindsOnly(nn.Cell):
    def construct(self, x):
        rebinds_only(x.sum())
        return x


class RootReturnsValue(nn.Cell):
    def construct(self, x):
        if x.sum() > 5:
            raise ValueError("bad")
        return x
'''
NONE_CHECKS = '''
def check_elsewhere(v):
    if v > 5:
        raise ValueError("too big")
'''
NONE_HELPERS_PROBE = '''
import sys
import numpy as np
import mindspore as ms
sys.path.insert(0, sys.argv[1])
import none_helpers as m

ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor(np.ones((2,), np.float32))
for name in ("Explicit", "ResultUsed", "Method", "AssignsParameter", "ThroughAnother", "OtherModule",
             "Returns", "Static", "RebindsOnly", "RootReturnsValue"):
    try:
        getattr(m, name)()(x)
        print(f"{name}|compiles")
    except RuntimeError as error:
        print(f"{name}|fails" if "output size" in str(error) else f"{name}|{error}")
'''


def _none_helper_findings(code) -> set[str]:
    """The Cells whose compile reaches a reported function, per level."""
    from msgraphlint.pipeline import new_engine

    (code / "none_helpers.py").write_text(NONE_HELPERS, "utf-8")
    (code / "none_checks.py").write_text(NONE_CHECKS, "utf-8")
    reported = {}
    for path in (code / "none_helpers.py", code / "none_checks.py"):
        for finding in new_engine().check_file(path):
            if finding.rule.symbol == "raise-in-none-graph":
                reported[finding.message.split("'")[1]] = finding.severity(Level.STRICT)
    calls = {"Explicit": "check", "ResultUsed": "check_implicit", "Method": "inner",
             "AssignsParameter": "func", "ThroughAnother": "check_implicit",
             "OtherModule": "check_elsewhere", "Returns": "check_returns", "Static": "check_static",
             "RebindsOnly": "rebinds_only", "RootReturnsValue": "construct"}
    assert set(reported.values()) <= {Severity.ERROR}
    return {cell for cell, function in calls.items() if function in reported}


def test_a_function_compiled_code_calls_that_gives_back_none_and_raises_is_found(tmp_path):
    assert _none_helper_findings(tmp_path) == {
        "Explicit", "ResultUsed", "Method", "AssignsParameter", "ThroughAnother", "OtherModule"}


@pytest.mark.compiler
@pytest.mark.parametrize("level", ["0", "2"])
def test_the_compiler_rejects_none_helpers_that_raise_at_strict_only(tmp_path, level):
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    from .engine_helpers import run_probe

    code = tmp_path / "code"
    code.mkdir()
    reported = _none_helper_findings(code)
    verdicts, output = run_probe(tmp_path, NONE_HELPERS_PROBE, str(code), MS_DEV_JIT_SYNTAX_LEVEL=level)
    failing = {name for name, verdict in verdicts.items() if verdict == "fails"}
    assert len(verdicts) == 10 and set(verdicts.values()) <= {"fails", "compiles"}, output
    assert failing == (reported if level == "0" else set()), output
