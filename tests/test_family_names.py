"""names: undefined names, attributes never set, builtins the graph does not implement; and the
snapshots of MindSpore's own lists (graph builtins, jit-forbidden registry, nn.Cell attributes)."""

from __future__ import annotations

import importlib.util
import json
import textwrap

import pytest

from msgraphlint.knowledge import catalogue, snapshots
from msgraphlint.model.attributes import CELL_ATTRIBUTES
from msgraphlint.checkers import jit_api, names

from .engine_helpers import findings_on_lines

FAMILY = {"undefined-name", "missing-attribute", "non-graph-builtin"}
HEADER = """
import mindspore as ms
from mindspore import nn, ops
try:
    import optional_lib
except ImportError:
    optional_lib = None
"""


def findings(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER, body, FAMILY)


# ----- undefined-name ------------------------------------------------------------------------


def test_undefined_names_reported(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            K = 2.0

            def construct(self, x):
                y = x * K
                z = [i for i in range(3)]
                return self.helper(y) + np.ones(2) + undefined_fn(z)

            def helper(self, v):
                return v + missing_global
        """)
    assert got == {
        ("undefined-name", "y = x * K"),
        ("undefined-name", "return self.helper(y) + np.ones(2) + undefined_fn(z)"),
        ("undefined-name", "return v + missing_global"),
    }


def test_names_bound_elsewhere_are_not_reported(tmp_path):
    got = findings(tmp_path, """
        def outer_helper(v):
            return v * LATER

        class Net(nn.Cell):
            def construct(self, x, *rest, scale=1.0, **options):
                total = 0
                for v in (x, x):
                    total = total + v
                squares = [w * w for w in (x, x)]
                def inner(a):
                    return a + total
                fn = lambda b: b * scale
                if (n := len(rest)) > 0:
                    total = total + n
                return inner(x) + fn(x) + outer_helper(x) + squares[0] + optional_lib + __name__

        def set_global():
            global FROM_FUNCTION
            FROM_FUNCTION = 1

        class UsesGlobal(nn.Cell):
            def construct(self, x):
                return x * FROM_FUNCTION * MAIN_ONLY

        if __name__ == "__main__":
            MAIN_ONLY = 2
        LATER = 2.0
        """)
    assert got == set()


def test_code_the_compiler_may_fold_away_is_not_reported(tmp_path):
    # Seen with 2.10: an undefined name under a False constant condition compiles.
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self, flag=False):
                super().__init__()
                self.flag = flag
                self.layers = nn.CellList([])

            def construct(self, x, mask=None):
                if self.flag:
                    x = x + undefined_a
                if mask is not None:
                    x = x * undefined_b
                for layer in self.layers:
                    x = layer(x) + undefined_c
                y = self.flag and undefined_d
                return x
                x = undefined_e
        """)
    assert got == set()


def test_runtime_condition_does_not_hide_a_name(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                if x.sum() > 0:
                    x = x + undefined_a
                return x
        """)
    assert got == {("undefined-name", "x = x + undefined_a")}


@pytest.mark.parametrize("trick", ["from os.path import *", "globals()['Z'] = 1", "exec('Z = 1')"])
def test_files_that_make_names_dynamically_are_skipped(tmp_path, trick):
    got = findings(tmp_path, f"""
        {trick}

        class Net(nn.Cell):
            def construct(self, x):
                return x * Z
        """)
    assert got == set()


def test_class_constant_hint(tmp_path):
    from .engine_helpers import check_source

    found = check_source(tmp_path, HEADER + """
class Net(nn.Cell):
    K = 2.0

    def construct(self, x):
        return x * K
""")
    (finding,) = [f for f in found if f.rule.symbol == "undefined-name"]
    assert "self.K" in finding.message


# ----- missing-attribute ---------------------------------------------------------------------


def test_attribute_never_set_is_reported(tmp_path):
    got = findings(tmp_path, """
        class Base(nn.Cell):
            def __init__(self):
                super().__init__()
                self.scale = 2.0

        class Net(Base):
            OFFSET = 1.0

            def __init__(self):
                super().__init__()
                self.dense = nn.Dense(2, 2)

            def construct(self, x):
                y = self.dense(x) * self.scale + self.OFFSET
                if self.training:
                    y = y * self.phase_factor
                return self.helper(y) * self.scael

            def helper(self, y):
                return y + self.missing_in_helper
        """)
    assert got == {
        ("missing-attribute", "return self.helper(y) * self.scael"),
        ("missing-attribute", "return y + self.missing_in_helper"),
    }


def test_attributes_from_cell_methods_and_subclasses(tmp_path):
    got = findings(tmp_path, """
        class Abstract(nn.Cell):
            def construct(self, x):
                return self.head(x) * self.cls_name_len

        class Concrete(Abstract):
            def __init__(self):
                super().__init__()
                self.head = nn.ReLU()
                self.cls_name_len = 1

        class UsesCell(nn.Cell):
            def construct(self, x):
                if self.training:
                    return x * 2
                return self.cast(x) if self.requires_grad else x

            def cast(self, x):
                return x
        """)
    assert got == set()


@pytest.mark.parametrize(
    "init_line",
    [
        "setattr(self, 'late', 1)",
        "self.insert_param_to_cell('late', ms.Parameter(ms.Tensor(1.0)))",
        "optional_lib.init_weights(self)",
        "self.alias = [self]",
    ],
)
def test_classes_that_make_attributes_dynamically_give_up(tmp_path, init_line):
    got = findings(tmp_path, f"""
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                {init_line}

            def construct(self, x):
                return x * self.late
        """)
    assert got == set()


def test_external_bases_and_outside_assignments_give_up(tmp_path):
    got = findings(tmp_path, """
        class FromDense(nn.Dense):
            def construct(self, x):
                return x * self.in_channels

        class FromLibrary(nn.Cell, optional_lib.Mixin):
            def construct(self, x):
                return x * self.mixed_in

        class SetOutside(nn.Cell):
            def construct(self, x):
                return x * self.scale

        net = SetOutside()
        net.scale = 2.0
        """)
    assert got == set()


def test_attributes_set_by_a_cells_flag_methods_are_set(tmp_path):
    """add_flags / add_flags_recursive set one attribute per keyword (megafold's train_backward on
    every sub-Cell); another method's keywords set nothing."""
    got = findings(tmp_path, """
        class Step(nn.Cell):
            def construct(self, x):
                if self.train_backward:
                    return x * 2
                return x * self.scale

        class Wrapper(nn.Cell):
            def __init__(self):
                super().__init__()
                self.step = Step()
                self.step.add_flags_recursive(train_backward=True)
                self.step.set_train(mode=True, scale=2)

            def construct(self, x):
                return self.step(x)
        """)
    assert got == {("missing-attribute", "return x * self.scale")}


def test_guarded_attribute_read_is_not_reported(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                if hasattr(self, "maybe"):
                    return x * self.maybe
                return x
        """)
    assert got == set()


# ----- non-graph-builtin ---------------------------------------------------------------------


def test_builtins_outside_the_graph_on_variables(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.sizes = (2, 2)

            def construct(self, x):
                a = type(x)
                b = repr(self.sizes)
                c = len(x) + abs(x).sum() + max(x[0], x[1]).sum()
                d = sorted((x[0], x[1]))
                if not isinstance(x, ms.Tensor):
                    raise TypeError(f"got {type(x)}")
                return x * str(x)
        """)
    # repr on a constant is folded; len/abs/max are graph builtins; sorted belongs to
    # host-call-on-tensor; the raise sits under a compile-time condition.
    assert got == {
        ("non-graph-builtin", "a = type(x)"),
        ("non-graph-builtin", "return x * str(x)"),
    }


# ----- the snapshots -------------------------------------------------------------------------


def test_snapshots_carry_the_version_and_the_issue_examples():
    graph = catalogue.snapshot("graph_builtins")
    registry = catalogue.snapshot("jit_forbidden")
    cell = catalogue.snapshot("cell_attributes")
    for table in (graph, registry, cell):
        assert table["mindspore_version"]
    assert {"len", "isinstance", "range", "zip"} <= names.GRAPH_BUILTINS
    assert "type" not in names.GRAPH_BUILTINS
    assert {"trainable_params", "get_parameters"} <= jit_api.FORBIDDEN_CELL_METHODS
    assert {"mindspore.common.initializer.", "mindspore.context."} <= set(jit_api.FORBIDDEN_MODULES)
    assert jit_api.FORBIDDEN_REEXPORTS["mindspore.set_context"] == "mindspore.context.set_context"
    assert {"training", "phase", "cells_and_names", "cls_name"} <= CELL_ATTRIBUTES


def test_the_uncompilable_functions_snapshot_lists_bodies_calling_mindspore_log():
    """Read from the installed MindSpore: matrix_determinant's body starts with a logger.warning;
    batch_dot's notice comes from @deprecated, which the graph parser unwraps."""
    from msgraphlint.knowledge.api_snapshot import UNCOMPILABLE_KEY, load, versions

    functions = load("2.10")[UNCOMPILABLE_KEY]
    assert functions["mindspore.ops.matrix_determinant"] == "mindspore.ops.function.math_func.matrix_determinant"
    assert {"mindspore.ops.soft_shrink", "mindspore.ops.log_matrix_determinant",
            "mindspore.dtype_to_nptype", "mindspore.pytype_to_dtype"} <= set(functions)
    assert not {"mindspore.ops.batch_dot", "mindspore.ops.padding", "mindspore.ops.det",
                "mindspore.set_context"} & set(functions)  # set_context: jit_forbidden's
    assert all(not name.rsplit(".", 1)[-1][:1].isupper() for name in functions)  # functions only
    # read per release: 2.7's serialization helpers warned, later ones do not
    assert all(load(release)[UNCOMPILABLE_KEY] for release in versions())
    assert "mindspore.check_checkpoint" in load("2.7")[UNCOMPILABLE_KEY]
    assert "mindspore.check_checkpoint" not in functions


def test_snapshot_toml_round_trips():
    import tomllib

    table = {"mindspore_version": "9.9", "names": ["a", "b"], "reexports": {"x.y": "x.z.y"}}
    assert tomllib.loads(snapshots.to_toml("demo", table)) == table


@pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")
@pytest.mark.parametrize("name", snapshots.NAMES)
def test_snapshot_agrees_with_installed_mindspore(name):
    """`python -m msgraphlint.knowledge.snapshots` rewrites the files when this fails."""
    assert catalogue.snapshot(name) == snapshots.current(name)


def test_a_cell_defined_in_a_function_reads_its_closure_and_only_a_typo_is_undefined(tmp_path):
    """Free variables resolve from the enclosing function (closures), whatever their value."""
    from .engine_helpers import check_source

    source = (
        "from mindspore import nn\n"
        "def run(scale):\n"
        "    bias = compute()\n"
        "    class Net(nn.Cell):\n"
        "        def construct(self, x):\n"
        "            return x * scale + bias + offset_typo\n"
        "    return Net()\n"
    )
    found = [(f.rule.symbol, f.args[0]) for f in check_source(tmp_path, source)]
    assert found == [("undefined-name", "offset_typo")]


# ----- MindSpore's own Cell classes as bases (issue 31) ----------------------------------------

MINDSPORE_BASES = """
class MyAdam(nn.Adam):
    def construct(self, gradients):
        lr = self.get_lr()
        return self.moment1, self.beta1_power, lr, self.{adam}

class MyStep(nn.TrainOneStepCell):
    def construct(self, *inputs):
        loss = self.network(*inputs)
        return loss, self.grad(self.network, self.weights)(*inputs, self.{step})

class MyLoss(nn.WithLossCell):
    def construct(self, x, y):
        return self._loss_fn(self._backbone(x), y) * self.{loss}
"""


def test_an_attribute_no_mindspore_base_creates_is_reported(tmp_path):
    """A project subclass of nn.Adam, nn.TrainOneStepCell or nn.WithLossCell has what the base's
    __init__ chain creates (knowledge/data/cells/); anything else is missing."""
    got = findings(tmp_path, MINDSPORE_BASES.format(adam="not_there", step="sens_missing", loss="scale"))
    assert got == {
        ("missing-attribute", "return self.moment1, self.beta1_power, lr, self.not_there"),
        ("missing-attribute", "return loss, self.grad(self.network, self.weights)(*inputs, self.sens_missing)"),
        ("missing-attribute", "return self._loss_fn(self._backbone(x), y) * self.scale"),
    }


def test_an_attribute_a_mindspore_base_creates_is_not_reported(tmp_path):
    got = findings(tmp_path, MINDSPORE_BASES.format(adam="vhat", step="sens", loss="backbone_network"))
    assert got == set()


@pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")
def test_the_cell_classes_table_agrees_with_installed_mindspore():
    """`python -m msgraphlint.knowledge.cell_classes` rewrites the installed release's file when
    this fails."""
    from msgraphlint.knowledge import api_snapshot, cell_classes

    current = cell_classes.take()
    stored = cell_classes.load(api_snapshot.release(current["mindspore_version"]))
    assert stored == json.loads(cell_classes.to_json(current))


@pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")
def test_built_mindspore_cells_have_nothing_their_table_lacks():
    """The table is a superset of what a built instance has (nn.Adam's __init__ decorator sets
    init_args, init_params and init_learning_rate on it): missing-attribute never guesses."""
    import mindspore as ms
    from mindspore import nn

    from msgraphlint.knowledge import api_snapshot, cell_classes

    release = api_snapshot.release(ms.__version__)
    dense = nn.Dense(2, 2)
    adam = nn.Adam(dense.trainable_params())
    with_loss = nn.WithLossCell(dense, nn.MSELoss())
    built = [adam, nn.SGD(dense.trainable_params()), nn.Momentum(dense.trainable_params(), 0.1, 0.9),
             with_loss, nn.TrainOneStepCell(with_loss, adam), dense, nn.Conv2d(1, 1, 3),
             nn.BatchNorm2d(2), nn.LayerNorm((2,))]
    for instance in built:
        known = cell_classes.attributes(f"{type(instance).__module__}.{type(instance).__qualname__}", release)
        assert known is not None and set(dir(instance)) <= known, type(instance).__name__


def test_the_cell_classes_tables_cover_every_release():
    from msgraphlint.knowledge import api_snapshot, cell_classes

    for release in api_snapshot.versions():
        table = cell_classes.load(release)
        assert api_snapshot.release(table["mindspore_version"]) == release
        assert table["aliases"]["mindspore.nn.Adam"] == "mindspore.nn.optim.adam.Adam"
        assert table["parameters"]["mindspore.nn.optim.adam.Adam"]["beta1_power"] == "beta1_power"
        assert set(table["attributes"]).isdisjoint(table["incomplete"])


def test_a_mindspore_base_the_table_marks_incomplete_gives_up(tmp_path):
    """nn.SequentialCell sets attributes under computed names: its subclasses stay unread."""
    from msgraphlint.knowledge import cell_classes

    assert "mindspore.nn.layer.container.SequentialCell" in cell_classes.load()["incomplete"]
    got = findings(tmp_path, """
        class Stack(nn.SequentialCell):
            def construct(self, x):
                return x * self.anything
        """)
    assert got == set()


def test_the_release_decides_what_a_mindspore_base_creates(tmp_path):
    """nn.Optimizer set `cache_enable` until 2.7; from 2.8 it is gone."""
    from dataclasses import replace

    from msgraphlint.config import Config
    from msgraphlint.knowledge import cell_classes
    from msgraphlint.pipeline import new_engine

    optimizer = "mindspore.nn.optim.optimizer.Optimizer"
    assert "cache_enable" in cell_classes.load("2.7")["attributes"][optimizer]
    assert "cache_enable" not in cell_classes.load("2.10")["attributes"][optimizer]
    path = tmp_path / "model.py"
    path.write_text(textwrap.dedent(HEADER) + textwrap.dedent("""
        class MyAdam(nn.Adam):
            def construct(self, gradients):
                return self.cache_enable
        """), "utf-8")
    for release, flagged in (("2.7", False), ("2.8", True), ("2.9", True), ("2.10", True)):
        engine = new_engine(config=replace(Config(), target_version=release))
        found = [f for f in engine.check_file(path) if f.rule.symbol == "missing-attribute"]
        assert bool(found) is flagged, release
