"""cell-construction: telling Cells, primitives and Parameters apart, constant versus tensor
arguments, and which project Cells carry weights."""

from __future__ import annotations

import textwrap

from .engine_helpers import check_source

HEADER = (
    "import mindspore as ms\n"
    "from mindspore import Parameter, jit, mint, nn, ops\n"
    "from mindspore.ops import operations as P\n\n"
)


def findings(tmp_path, body: str):
    return check_source(tmp_path, HEADER + textwrap.dedent(body))


def symbols(found) -> list[str]:
    return sorted(f.rule.symbol for f in found)


def in_construct(tmp_path, statement: str, classes: str = ""):
    return findings(
        tmp_path,
        classes
        + f"""
class Net(nn.Cell):
    def construct(self, x):
        {statement}
        return x
""",
    )


# ----- tensor arguments -------------------------------------------------------------------


def test_mindspore_cells_with_tensor_arguments_are_errors(tmp_path):
    found = in_construct(tmp_path, "y = nn.Dense(x, 4)(x) + nn.Dropout(p=x.mean())(x)")
    assert symbols(found) == ["cell-created-with-tensor-args"] * 2
    assert any("'nn.Dense(...)'" in f.message for f in found)


def test_project_cell_with_a_tensor_argument_is_an_error(tmp_path):
    classes = """
class Scale(nn.Cell):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def construct(self, x):
        return x * self.factor
"""
    found = in_construct(tmp_path, "y = Scale(x.max())(x)", classes)
    assert symbols(found) == ["cell-created-with-tensor-args"]


def test_shapes_are_constants_not_tensor_arguments(tmp_path):
    found = in_construct(tmp_path, "y = nn.Softmax(axis=x.ndim - 1)(x)")
    assert symbols(found) == ["cell-created-in-construct"]


def test_shape_primitive_held_in_init_gives_constants(tmp_path):
    # Audit false alarm (mindcv/models/repmlp.py:100): self.shape = ops.Shape() in __init__,
    # nn.AvgPool2d(kernel_size=(shape[2], shape[3])) in construct compiles at STRICT and LAX.
    found = findings(tmp_path, """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.shape = ops.Shape()
        self.rank = P.Rank()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        shape = self.shape(x)
        pool = nn.AvgPool2d(kernel_size=(shape[2], shape[3]), stride=1)
        y = nn.Softmax(axis=self.rank(x) - 1)(x)
        z = nn.Dropout(p=self.dense(x).mean())(x)
        return pool(x)
""")
    assert symbols(found) == ["cell-created-in-construct"] * 2 + ["cell-created-with-tensor-args"]
    assert [f.line for f in found if f.rule.symbol == "cell-created-with-tensor-args"] == [17]


def test_attribute_holding_a_shape_primitive_only_sometimes_is_not_trusted(tmp_path):
    found = findings(tmp_path, """
class Net(nn.Cell):
    def __init__(self, dynamic):
        super().__init__()
        self.shape = ops.Shape()
        if dynamic:
            self.shape = ops.TensorShape()

    def construct(self, x):
        shape = self.shape(x)
        return nn.AvgPool2d(kernel_size=(shape[2], shape[3]))(x)
""")
    assert symbols(found) == ["cell-created-with-tensor-args"]


def test_primitive_with_a_tensor_argument_is_not_reported(tmp_path):
    # The compiler differs per primitive (HShrink(lambd=tensor) compiles, Softmax(axis=tensor)
    # does not): no claim either way.
    assert in_construct(tmp_path, "y = ops.HShrink(lambd=x.mean())(x)") == []


def test_cell_in_a_helper_follows_what_the_callers_pass(tmp_path):
    # The scope model propagates constants into helpers: `n` is 4 here, a tensor below.
    constant = findings(
        tmp_path,
        """
class Net(nn.Cell):
    def construct(self, x):
        return self.block(x, 4)

    def block(self, x, n):
        return nn.Dense(2, n)(x)
""",
    )
    assert symbols(constant) == ["weighted-cell-created-in-construct"]
    variable = findings(
        tmp_path,
        """
class Net(nn.Cell):
    def construct(self, x):
        return self.block(x, x.sum())

    def block(self, x, n):
        return nn.Dense(2, n)(x)
""",
    )
    assert symbols(variable) == ["cell-created-with-tensor-args"]


# ----- constant arguments -----------------------------------------------------------------


def test_cells_and_primitives_from_constants_are_advice(tmp_path):
    statement = "y = nn.ReLU()(x) + ops.ReduceSum()(x) + P.ReduceSum(True)(x, 0)"
    found = in_construct(tmp_path, statement)
    assert symbols(found) == ["cell-created-in-construct"] * 3
    spelled = sorted(f.args[0] for f in found)
    assert spelled == ["P.ReduceSum(...)", "nn.ReLU()", "ops.ReduceSum()"]


def test_creation_in_a_jit_function_is_reported(tmp_path):
    found = findings(
        tmp_path,
        """
@jit
def step(x):
    return nn.ReLU()(x)
""",
    )
    assert symbols(found) == ["cell-created-in-construct"]


def test_creation_in_init_and_non_primitive_ops_classes_are_not_reported(tmp_path):
    found = findings(
        tmp_path,
        """
class Net(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.relu = nn.ReLU()
        self.fc = nn.Dense(2, 2)
        self.inner = inner

    def construct(self, x):
        grads = ops.GradOperation()(self.inner)(x)
        if isinstance(self.fc, nn.Dense):
            x = self.fc(x)
        return self.relu(x) + grads + ops.relu(x)
""",
    )
    assert found == []


# ----- weights ----------------------------------------------------------------------------


def test_mindspore_layers_with_weights_are_warnings(tmp_path):
    found = in_construct(tmp_path, "y = nn.Dense(2, 2)(x) + mint.nn.Linear(2, 2)(x)")
    assert symbols(found) == ["weighted-cell-created-in-construct"] * 2


def test_project_cells_with_weights_are_warnings(tmp_path):
    classes = """
class OwnParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(ops.ones((2, 2), ms.float32), name="w")

    def construct(self, x):
        return x * self.w


class HoldsDense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)

    def construct(self, x):
        return self.fc(x)


class Nested(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = HoldsDense()

    def construct(self, x):
        return self.inner(x)


class MyDense(nn.Dense):
    pass
"""
    statement = "y = OwnParameter()(x) + HoldsDense()(x) + Nested()(x) + MyDense(2, 2)(x)"
    found = in_construct(tmp_path, statement, classes)
    assert symbols(found) == ["weighted-cell-created-in-construct"] * 4


def test_project_cell_without_weights_is_advice_even_in_a_reference_cycle(tmp_path):
    classes = """
class Ping(nn.Cell):
    def make(self):
        return Pong()

    def construct(self, x):
        return ops.relu(x)


class Pong(nn.Cell):
    def make(self):
        return Ping()

    def construct(self, x):
        return ops.relu(x)
"""
    found = in_construct(tmp_path, "y = Ping()(x)", classes)
    assert symbols(found) == ["cell-created-in-construct"]


# ----- Parameters -------------------------------------------------------------------------


def test_parameters_created_in_construct_are_errors(tmp_path):
    statement = 'y = Parameter(x, name="a") + ms.Parameter(ops.ones((2,), ms.float32), name="b")'
    found = in_construct(tmp_path, statement)
    assert symbols(found) == ["parameter-created-in-construct"] * 2


def test_parameters_created_in_init_are_not_reported(tmp_path):
    found = findings(
        tmp_path,
        """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(ops.ones((2, 2), ms.float32), name="w")

    def construct(self, x):
        return x * self.w
""",
    )
    assert found == []
