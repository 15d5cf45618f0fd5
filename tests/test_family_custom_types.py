"""custom-types: plain objects and non-Parameter Cell attributes used as state in compiled code."""

from __future__ import annotations

import textwrap

import pytest

from .engine_helpers import findings_on_lines, run_probe

FAMILY = {
    "custom-object-with-tensor",
    "custom-object-mutation",
    "non-parameter-attribute-assign",
    "non-parameter-state-read",
    "jit-class-variable-init",
}
HEADER = """
import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class Box:
    def __init__(self, value):
        self.value = value

    def scaled(self, k):
        return self.value * k


class Memory:
    def __init__(self):
        self.last = None

    def remember(self, value):
        self.last = value
        return value


class Counter:
    def __init__(self):
        self.n = 0

    def tick(self):
        self.n += 1
        return self.n


@ms.jit_class
class Scaler:
    def __init__(self, k):
        self.k = k


class Failure(ValueError):
    pass
"""


def findings(tmp_path, body: str) -> set[tuple[str, str]]:
    """(symbol, source line) of this family's findings for HEADER + body."""
    return findings_on_lines(tmp_path, HEADER, body, FAMILY)


def test_plain_object_built_from_a_tensor_is_flagged_but_not_from_constants(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                a = Box(x)
                b = Box(2.0)
                return a.value * b.value
    """)
    assert got == {("custom-object-with-tensor", "a = Box(x)")}


def test_jit_class_built_from_a_tensor_has_its_own_rule(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                return Scaler(x).k + Scaler(2.0).k * x
    """)
    assert got == {("jit-class-variable-init", "return Scaler(x).k + Scaler(2.0).k * x")}


def test_classes_with_library_bases_and_cells_are_not_plain_objects(tmp_path):
    got = findings(tmp_path, """
        class Inner(nn.Cell):
            def construct(self, x):
                return x

        class Net(nn.Cell):
            def construct(self, x):
                error = Failure(x)
                return x
    """)
    assert got == set()


def test_held_object_methods_judged_by_whether_they_change_state(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.memory = Memory()
                self.counter = Counter()
                self.box = Box(3.0)

            def construct(self, x):
                y = self.memory.remember(x)
                step = self.counter.tick()
                return y * step + self.box.scaled(x)
    """)
    assert got == {
        ("custom-object-with-tensor", "y = self.memory.remember(x)"),
        ("custom-object-mutation", "step = self.counter.tick()"),
    }


def test_non_parameter_attribute_assignments_in_construct_and_its_helpers(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.steps = 0
                self.cache = None
                self.flags = [True]

            def construct(self, x):
                self.steps += 1
                self.cache, self.fresh = x, True
                self.bump()
                return x

            def bump(self):
                self.flags = [False]
    """)
    assert got == {
        ("non-parameter-attribute-assign", "self.steps += 1"),
        ("non-parameter-attribute-assign", "self.cache, self.fresh = x, True"),
        ("non-parameter-attribute-assign", "self.flags = [False]"),
    }


def test_parameters_and_attributes_of_unknown_kind_are_not_flagged(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self, scale, weight):
                super().__init__()
                self.w = Parameter(Tensor(np.zeros((2, 2), np.float32)), requires_grad=False)
                self.scale = scale
                self.weight = make_weight(weight)
                self.steps = 0

            def construct(self, x):
                self.w = self.w + x
                self.scale = self.scale * 0.5
                self.weight = x
                return x

        def make_weight(w):
            return w
    """)
    # self.steps is only assigned in __init__, which is not compiled.
    assert got == set()


def test_state_read_back_into_tensor_maths_but_not_into_a_condition(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.temperature = 1.0
                self.steps = 0
                self.scale = 2.0

            def construct(self, x):
                self.temperature = 0.5
                self.steps += 1
                if self.steps > 1:
                    x = x * self.scale
                y = x * self.temperature
                return y, self.temperature
    """)
    assert ("non-parameter-state-read", "y = x * self.temperature") in got
    assert ("non-parameter-state-read", "return y, self.temperature") in got
    reads = {line for symbol, line in got if symbol == "non-parameter-state-read"}
    assert reads == {"y = x * self.temperature", "return y, self.temperature"}


def test_nothing_outside_compiled_code(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.steps = 0
                self.box = Box(Tensor(np.ones((2,), np.float32)))

            def reset(self):
                self.steps = 0

            def construct(self, x):
                return x
    """)
    assert got == set()


def test_an_item_of_a_non_parameter_attribute_changed_in_construct_is_state_too(tmp_path):
    """self.cache[k] = v and self.rows[0].append(v) change Cell state that is not a Parameter:
    STRICT refuses them like self.cache = v ("should be initialized as a 'Parameter'")."""
    from .engine_helpers import findings_on_lines

    header = "from mindspore import nn\n"
    body = """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cache = {"a": 1}
        self.rows = [[1], [2]]
        self.names = ["a"]

    def construct(self, x):
        self.cache["b"] = 2
        self.rows[0].append(3)
        first = self.names[0]
        return x
"""
    assert findings_on_lines(tmp_path, header, body, {"non-parameter-attribute-assign"}) == {
        ("non-parameter-attribute-assign", 'self.cache["b"] = 2'),
        ("non-parameter-attribute-assign", "self.rows[0].append(3)"),
    }


def test_a_tensor_written_on_every_call_and_read_back_is_stale_a_memo_is_not_reported(tmp_path):
    """The message states what LAX does with each shape (probed with 2.10): a tensor assigned on
    every call is read back stale; a counter only loses its gradient; a memo written under a test
    of itself runs as PyNative does, so nothing is said about reading it."""
    from .engine_helpers import check_source

    source = HEADER + textwrap.dedent("""
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.cache = None
                self.memo = None
                self.steps = 0

            def construct(self, x):
                self.cache = x * 2
                self.steps = self.steps + 1
                if self.memo is None:
                    self.memo = x * 3
                return self.cache + x, x * self.steps, self.memo + x
    """)
    reads = [f for f in check_source(tmp_path, source) if f.rule.symbol == "non-parameter-state-read"]
    by_attribute = {f.args[0]: f for f in reads}
    assert set(by_attribute) == {"cache", "steps"}
    assert by_attribute["cache"].case == "stale"
    assert "first run is the one later runs read back (stale)" in by_attribute["cache"].message
    assert by_attribute["cache"].evidence_kind == "stale"
    assert by_attribute["steps"].case == ""
    assert "stale" not in by_attribute["steps"].message
    assert by_attribute["steps"].evidence_kind == "gradient"


def test_attributes_a_mindspore_base_class_makes_are_not_judged_but_a_cells_own_are(tmp_path):
    """nn.Adam makes beta1_power a Parameter (the compiler takes the update at STRICT, probed);
    a plain Cell makes none, so an attribute first made in construct is Cell state."""
    got = findings_on_lines(tmp_path, HEADER, """
class MyAdam(nn.Adam):
    def construct(self, gradients):
        self.beta1_power *= self.beta1
        return self.beta1_power


class Plain(nn.Cell):
    def construct(self, x):
        self.seen = x
        return x
""", FAMILY)
    assert got == {("non-parameter-attribute-assign", "self.seen = x")}


def test_an_optimizers_own_parameters_are_graph_state_and_its_other_state_is_not(tmp_path):
    """nn.Adam makes beta1_power a Parameter (knowledge/data/cells/): updating it in construct is
    an update of graph state (mindflow's AdaHessian); a counter of the subclass's own is not."""
    got = findings_on_lines(tmp_path, HEADER, """
        class Hessian(nn.Adam):
            def __init__(self, params):
                super().__init__(params)
                self.calls = 0

            def construct(self, gradients):
                self.beta1_power *= self.beta1
                self.calls += 1
                return self.beta1_power
        """, FAMILY)
    assert got == {("non-parameter-attribute-assign", "self.calls += 1")}


SUB_CELLS = """
import mindspore as ms
from mindspore import nn, ops
from mindspore import nn as layers


class Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.open = False

    def construct(self, x):
        return x + 1 if self.open else x


class Settings:
    def __init__(self):
        self.open = False


def make_gate():
    return Gate()

"""


def _sub_cell_lines(tmp_path, body: str) -> set[str]:
    return {line for symbol, line in findings_on_lines(tmp_path, SUB_CELLS, body, {"sub-cell-attribute-assign"})}


def test_a_sub_cell_attribute_assigned_in_compiled_code_is_reported_however_it_is_reached(tmp_path):
    body = """
    class InConstruct(nn.Cell):
        def __init__(self):
            super().__init__()
            self.gate = Gate()

        def construct(self, x):
            self.gate.open = True
            return self.gate(x)


    class InAHelper(nn.Cell):
        def __init__(self):
            super().__init__()
            self.gate = Gate()

        def _switch(self, on):
            self.gate.open = on

        def construct(self, x):
            self._switch(True)
            return self.gate(x)


    class OnAMindSporeLayer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(2, 2)

        def construct(self, x):
            self.dense.has_bias = False
            return self.dense(x)


    class Augmented(nn.Cell):
        def __init__(self):
            super().__init__()
            self.gate = ms.nn.Dropout(p=0.1)

        def construct(self, x):
            self.gate.p += 0.1
            return self.gate(x)
    """
    assert _sub_cell_lines(tmp_path, body) == {
        "self.gate.open = True", "self.gate.open = on", "self.dense.has_bias = False", "self.gate.p += 0.1"}


def test_what_is_not_a_sub_cell_or_not_compiled_is_not_reported(tmp_path):
    body = """
    class HoldsAPlainObject(nn.Cell):
        def __init__(self):
            super().__init__()
            self.settings = Settings()

        def construct(self, x):
            self.settings.open = True
            return x


    class BuiltByAFactory(nn.Cell):
        def __init__(self, gate):
            super().__init__()
            self.gate = gate
            self.other = make_gate()

        def construct(self, x):
            self.gate.open = True
            self.other.open = True
            return self.gate(x)


    class SetInInit(nn.Cell):
        def __init__(self):
            super().__init__()
            self.gate = Gate()
            self.gate.open = True

        def construct(self, x):
            return self.gate(x)


    class ReadsOnly(nn.Cell):
        def __init__(self):
            super().__init__()
            self.gate = Gate()

        def construct(self, x):
            return x * 2 if self.gate.open else x


    def switch_on(net):
        net.gate.open = True
    """
    assert _sub_cell_lines(tmp_path, body) == set()


# ----- branch-on-state-assigned-later: a test LAX decides once, while compiling ----------------

STATE_BRANCHES = """
from mindspore import nn


class Flag(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False

    def construct(self, x):
        if self.flag:
            x = x * 2
        self.flag = True
        return x


class CountBranch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = 0

    def construct(self, x):
        self.steps = self.steps + 1
        if self.steps > 1:
            x = x * 2
        return x


class Toggle(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False

    def construct(self, x):
        if self.flag:
            x = x * 2
        self.flag = not self.flag
        return x


class FlagAfter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False

    def construct(self, x):
        self.flag = True
        if self.flag:
            x = x * 2
        return x


class FirstCallOnly(nn.Cell):
    def __init__(self):
        super().__init__()
        self.built = False

    def construct(self, x):
        if not self.built:
            self.built = True
            return x * 3
        return x


class BeforeCounter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = 0

    def construct(self, x):
        if self.steps > 0:
            x = x * 2
        self.steps = self.steps + 1
        return x


class BeforeTensor(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cache = None

    def construct(self, x):
        if self.cache is None:
            y = x * 3
        else:
            y = x
        self.cache = x * 2
        return y


class Helper(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False

    def scale(self, x):
        if self.flag:
            return x * 2
        return x

    def construct(self, x):
        y = self.scale(x)
        self.flag = True
        return y


class Ternary(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False

    def construct(self, x):
        y = x * 2 if self.flag else x
        self.flag = True
        return y


class Memo(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cache = None

    def construct(self, x):
        if self.cache is None:
            self.cache = x * 3
        return self.cache + x


class MemoConstRead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 0.0

    def construct(self, x):
        if self.scale < 0.5:
            self.scale = 2.0
        return x * self.scale


class TensorAfterRead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cache = None

    def construct(self, x):
        if self.cache is None:
            y = x * 3
        else:
            y = x
        self.cache = x * 2
        return y + self.cache


class MapLater(nn.Cell):
    def __init__(self):
        super().__init__()
        self.map = False

    def construct(self, x):
        if self.map:
            y = x * 2
        else:
            self.map = True
            y = x
        return y


class EarlyReturnTraining(nn.Cell):
    def __init__(self):
        super().__init__()
        self.rescaled = False

    def construct(self, x):
        if self.rescaled == (not self.training):
            y = x
        else:
            y = x * 2
        self.rescaled = not self.training
        return y


class CacheHit(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cached = None

    def construct(self, x):
        if self.cached is not None:
            return self.cached
        self.cached = x * 2
        return self.cached


class HelperAfter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False

    def scale(self, x):
        if self.flag:
            return x * 2
        return x

    def construct(self, x):
        self.flag = True
        return self.scale(x)


class MarkBefore(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False

    def mark(self):
        self.flag = True

    def construct(self, x):
        self.mark()
        if self.flag:
            x = x * 2
        return x


class MarkAfter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False

    def mark(self, x):
        self.flag = True
        return x

    def construct(self, x):
        if self.flag:
            x = x * 2
        return self.mark(x)
"""
# Each class called three times (x = 1, 1, 3) in PyNative and at LAX: "differs" when the outputs
# do (the branch LAX took on the first call is kept), "same" otherwise.
STATE_BRANCHES_PROBE = """
import sys
import numpy as np
import mindspore as ms
sys.path.insert(0, sys.argv[1])
import state_branches

def outputs(mode, build):
    ms.set_context(mode=mode, jit_syntax_level=ms.LAX)
    net = build()
    return [float(net(ms.Tensor(np.full((2,), v, np.float32))).asnumpy()[0]) for v in (1, 1, 3)]

for name in sorted(n for n in dir(state_branches) if n[:1].isupper() and n != "nn"):
    build = getattr(state_branches, name)
    same = outputs(ms.PYNATIVE_MODE, build) == outputs(ms.GRAPH_MODE, build)
    print(f"{name}|{'same' if same else 'differs'}")
"""
REPORTED_BRANCHES = {"Flag", "Toggle", "FirstCallOnly", "BeforeCounter", "BeforeTensor",
                     "TensorAfterRead", "MapLater", "Helper", "HelperAfter", "MarkBefore", "MarkAfter"}


def _branch_findings(folder) -> set[str]:
    """The classes whose branch is reported (the class each finding's line is in)."""
    from msgraphlint.pipeline import new_engine

    path = folder / "state_branches.py"
    path.write_text(STATE_BRANCHES, "utf-8")
    lines = STATE_BRANCHES.splitlines()
    owners = {}
    for number, line in enumerate(lines, 1):
        if line.startswith("class "):
            current = line[len("class "):].split("(")[0]
        owners[number] = current if line.startswith(("class ", " ")) else None
    return {owners[f.line] for f in new_engine().check_file(path)
            if f.rule.symbol == "branch-on-state-assigned-later"}


def test_branches_on_state_assigned_later_are_reported_and_their_siblings_are_not(tmp_path):
    """Reported: a test of the state before every assignment of it in its function (a flag, a
    toggle, a counter, a tensor, a first-call branch, an else that sets it), and a test in one
    function of state another function assigns, whichever runs first. Not: a test after the
    assignment in the same function, a conditional expression, a tensor memo read back, a branch
    that only sets a constant, a test that also reads self.training, a cache hit handed back."""
    assert _branch_findings(tmp_path) == REPORTED_BRANCHES


@pytest.mark.compiler
def test_lax_keeps_the_first_branch_exactly_where_the_rule_says(tmp_path):
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    code = tmp_path / "code"
    code.mkdir()
    reported = _branch_findings(code)
    verdicts, output = run_probe(tmp_path, STATE_BRANCHES_PROBE, str(code))
    differing = {name for name, verdict in verdicts.items() if verdict == "differs"}
    assert len(verdicts) == 18, output
    assert differing == reported
