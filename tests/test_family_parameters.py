"""parameters: set_data, Parameter attributes and in-place initialisers in compiled code."""

from __future__ import annotations

import pytest

from .engine_helpers import findings_on_lines, run_probe

FAMILY = {"parameter-set-data", "parameter-attribute-set", "inplace-random-init"}
HEADER = """
import numpy as np
from mindspore import Parameter, Tensor, nn, ops
from mindspore.common import initializer as init


class Slot:
    def __init__(self):
        self.data = None
        self.weight = None

    def set_data(self, value):
        return value

    def zero_(self):
        return 0


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gain = Parameter(Tensor(np.ones((2, 2), np.float32)), name="gain")

    def construct(self, x):
        return x * self.gain
"""


def findings(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER, body, FAMILY)


def test_set_data_on_parameters_but_not_on_a_project_object(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
                self.dense = nn.Dense(2, 2)
                self.slot = Slot()
                self.w.set_data(Tensor(np.ones((2, 2), np.float32)))

            def construct(self, x):
                self.w.set_data(x)
                self.dense.weight.set_data(x)
                self.slot.set_data(x)
                return x
    """)
    assert got == {
        ("parameter-set-data", "self.w.set_data(x)"),
        ("parameter-set-data", "self.dense.weight.set_data(x)"),
    }


def test_attributes_of_parameters_of_self_and_of_sub_cells(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
                self.dense = nn.Dense(2, 2)
                self.block = Block()
                self.slot = Slot()

            def construct(self, x):
                self.w.requires_grad = False
                self.dense.weight.requires_grad = False
                self.block.gain.name = "g"
                self.slot.weight.requires_grad = False
                self.block.other.requires_grad = False
                x.requires_grad = False
                return x
    """)
    assert got == {
        ("parameter-attribute-set", "self.w.requires_grad = False"),
        ("parameter-attribute-set", "self.dense.weight.requires_grad = False"),
        ("parameter-attribute-set", 'self.block.gain.name = "g"'),
    }


def test_inplace_initialisers_but_not_inplace_arithmetic_or_modules(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.slot = Slot()

            def construct(self, x):
                y = ops.zeros_like(x)
                y.uniform_()
                y.fill_(1.0)
                y.add_(x)
                y.mul_(2.0)
                init.zero_(y)
                self.slot.zero_()
                return x + y
    """)
    assert got == {
        ("inplace-random-init", "y.uniform_()"),
        ("inplace-random-init", "y.fill_(1.0)"),
    }


def test_host_code_is_not_checked(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
                self.w.requires_grad = False
                self.w.set_data(Tensor(np.ones((2, 2), np.float32)))

            def construct(self, x):
                return x * self.w
    """)
    assert got == set()


# ----- duplicate-parameter-name: Parameters a construction leaves sharing one name --------------

SHARED_NAMES = '''
from mindspore import Parameter, nn
from mindspore.common.initializer import initializer


def reset_dense(cell):
    if isinstance(cell, nn.Dense):
        cell.weight = Parameter(initializer("ones", cell.weight.shape))


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4)

    def construct(self, x):
        return self.fc(x)


class Direct(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = nn.Dense(4, 4)
        self.b = nn.Dense(4, 4)
        self.a.weight = Parameter(initializer("ones", (4, 4)))
        self.b.weight = Parameter(initializer("ones", (4, 4)))

    def construct(self, x):
        return self.b(self.a(x))


class OwnAndChild(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(initializer("ones", (4,)))
        self.a = nn.Dense(4, 4)
        self.a.weight = Parameter(initializer("ones", (4, 4)))

    def construct(self, x):
        return self.a(x) * self.weight


class Nested(nn.Cell):
    def __init__(self):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        self.apply(reset_dense)

    def construct(self, x):
        return self.two(self.one(x))


class Wider(Nested):
    def __init__(self):
        super().__init__()
        self.three = Inner()

    def construct(self, x):
        return self.three(super().construct(x))


class ChildrenOnly(nn.Cell):
    def __init__(self):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        for cell in self.cells():
            if isinstance(cell, nn.Dense):
                cell.weight = Parameter(initializer("ones", (4, 4)))

    def construct(self, x):
        return self.two(self.one(x))


class PathNames(nn.Cell):
    def __init__(self):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        for name, cell in self.cells_and_names():
            if isinstance(cell, nn.Dense):
                cell.weight = Parameter(initializer("ones", (4, 4)), name=name + ".weight")

    def construct(self, x):
        return self.two(self.one(x))


class HeldBlock(nn.Cell):
    def __init__(self):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        self.apply(reset_dense)

    def construct(self, x):
        return self.two(self.one(x))


class Holder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = HeldBlock()

    def construct(self, x):
        return self.block(x)


class OwnNamedAlike(nn.Cell):
    def __init__(self):
        super().__init__()
        self.q_bias = Parameter(initializer("zeros", (4,)), name="bias")
        self.v_bias = Parameter(initializer("zeros", (4,)), name="bias")

    def construct(self, x):
        return x + self.q_bias + self.v_bias


class OwnNamedLikeAttribute(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = Parameter(initializer("zeros", (4,)))
        self.extra = Parameter(initializer("zeros", (4,)), name="bias")

    def construct(self, x):
        return x + self.bias + self.extra


class OwnUnnamed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.q_bias = Parameter(initializer("zeros", (4,)), name=None)
        self.v_bias = Parameter(initializer("zeros", (4,)))

    def construct(self, x):
        return x + self.q_bias + self.v_bias


class OwnReassigned(nn.Cell):
    def __init__(self):
        super().__init__()
        self.q_bias = Parameter(initializer("zeros", (4,)), name="bias")
        self.q_bias = Parameter(initializer("ones", (4,)), name="bias")

    def construct(self, x):
        return x + self.q_bias


class HookByDefault(nn.Cell):
    def __init__(self, weight_init=True):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        if weight_init:
            self.apply(reset_dense)

    def construct(self, x):
        return self.two(self.one(x))


class HookUnlessSkipped(nn.Cell):
    def __init__(self, weight_init=""):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        if weight_init == "skip":
            pass
        else:
            self.apply(reset_dense)

    def construct(self, x):
        return self.two(self.one(x))


class HookOffByDefault(nn.Cell):
    def __init__(self, weight_init=False):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        if weight_init:
            self.apply(reset_dense)

    def construct(self, x):
        return self.two(self.one(x))


class HookTurnedOff(nn.Cell):
    def __init__(self, weight_init=True):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        if weight_init:
            self.apply(reset_dense)

    def construct(self, x):
        return self.two(self.one(x))


class HookUnderAnInput(nn.Cell):
    def __init__(self, weight_init=True):
        super().__init__()
        self.one = Inner()
        self.two = Inner()
        weight_init = weight_init and self.one is not None
        if weight_init:
            self.apply(reset_dense)

    def construct(self, x):
        return self.two(self.one(x))


def hook_turned_off():
    return HookTurnedOff(weight_init=False)
'''
# What MindSpore 2.10 does with each class: a GRAPH_MODE gradient over its weights, taken before
# its first call, as a training script does (the names as built are printed beside).
SHARED_NAMES_PROBE = '''
import sys
import numpy as np
import mindspore as ms
sys.path.insert(0, sys.argv[2])
from shared_names import (Direct, OwnAndChild, Nested, Wider, ChildrenOnly, PathNames, Holder,
                          OwnNamedAlike, OwnNamedLikeAttribute, OwnUnnamed, OwnReassigned,
                          HookByDefault, HookUnlessSkipped, HookOffByDefault, hook_turned_off)

ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, sys.argv[1].upper()))
x = ms.Tensor(np.ones((2, 4), np.float32))
for build in (Direct, OwnAndChild, Nested, Wider, ChildrenOnly, PathNames, Holder, OwnNamedAlike,
              OwnNamedLikeAttribute, OwnUnnamed, OwnReassigned, HookByDefault, HookUnlessSkipped,
              HookOffByDefault, hook_turned_off):
    net = build()
    name = type(net).__name__
    try:
        ms.value_and_grad(net, None, net.trainable_params())(x)
        print(f"{name}|compiles")
    except RuntimeError as error:
        print(f"{name}|fails" if "already exists" in str(error) else f"{name}|{error}")
'''


def _shared_name_findings(tmp_path) -> list[tuple[str, str]]:
    """(the class whose construction is reported, the line reported) per finding."""
    from msgraphlint.pipeline import new_engine

    path = tmp_path / "shared_names.py"
    path.write_text(SHARED_NAMES, "utf-8")
    lines = SHARED_NAMES.splitlines()
    return [(f.message.split("'s construction", 1)[0], lines[f.line - 1].strip())
            for f in new_engine().check_file(path) if f.rule.symbol == "duplicate-parameter-name"]


def test_duplicate_parameter_names_are_found_where_the_outermost_cell_leaves_them(tmp_path):
    """Bare names given after the sub-Cells are attached: on two sub-Cells, on the Cell's own
    Parameter and a child, by a hook over the whole tree (reported where the class runs it, the
    hook being a module function), in a subclass by the base's __init__ (reported where the
    subclass runs it), on the Cell's own Parameters by one name= (twice, or an attribute's), and
    by a hook under an if on a constructor parameter that its default takes (no construction
    shown). Not: a hook over the direct children only (the Dense sit one level down), names made
    from the path, a Cell another Cell holds (renamed when attached), a hook its default or its
    one construction turns off, a hook under a test the model cannot decide."""
    assert _shared_name_findings(tmp_path) == [
        ("Direct", 'self.a.weight = Parameter(initializer("ones", (4, 4)))'),
        ("Direct", 'self.b.weight = Parameter(initializer("ones", (4, 4)))'),
        ("OwnAndChild", 'self.a.weight = Parameter(initializer("ones", (4, 4)))'),
        ("Nested", "self.apply(reset_dense)"),
        ("Wider", "super().__init__()"),
        ("OwnNamedAlike", 'self.v_bias = Parameter(initializer("zeros", (4,)), name="bias")'),
        ("OwnNamedLikeAttribute", 'self.extra = Parameter(initializer("zeros", (4,)), name="bias")'),
        ("HookByDefault", "self.apply(reset_dense)"),
        ("HookUnlessSkipped", "self.apply(reset_dense)"),
    ]


@pytest.mark.compiler
@pytest.mark.parametrize("level", ["strict", "lax"])
def test_the_compiler_rejects_the_gradient_over_shared_names_and_not_over_the_others(tmp_path, level):
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    code = tmp_path / "code"  # the probe apart: its imports of the classes are no uses of them
    code.mkdir()
    (code / "shared_names.py").write_text(SHARED_NAMES, "utf-8")
    verdicts, output = run_probe(tmp_path, SHARED_NAMES_PROBE, level, str(code))
    assert verdicts == {"Direct": "fails", "OwnAndChild": "fails", "Nested": "fails", "Wider": "fails",
                        "ChildrenOnly": "compiles", "PathNames": "compiles", "Holder": "compiles",
                        "OwnNamedAlike": "fails", "OwnNamedLikeAttribute": "fails",
                        "OwnUnnamed": "compiles", "OwnReassigned": "compiles",
                        "HookByDefault": "fails", "HookUnlessSkipped": "fails",
                        "HookOffByDefault": "compiles", "HookTurnedOff": "compiles"}, output
    reported = {name for name, _ in _shared_name_findings(code)}
    assert reported == {name for name, verdict in verdicts.items() if verdict == "fails"}


def test_a_hook_from_another_module_leaves_shared_names_too(tmp_path):
    """The hook's module makes the Parameters; the class's own module names no Parameter."""
    from msgraphlint.pipeline import new_engine

    (tmp_path / "inits.py").write_text(
        "from mindspore import Parameter, nn\n"
        "from mindspore.common.initializer import initializer\n\n\n"
        "def reset_dense(cell):\n"
        "    if isinstance(cell, nn.Dense):\n"
        "        cell.weight = Parameter(initializer('ones', cell.weight.shape))\n", "utf-8")
    net = tmp_path / "net.py"
    net.write_text(
        "from mindspore import nn\nfrom inits import reset_dense\n\n\n"
        "class Net(nn.Cell):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.a = nn.Dense(4, 4)\n"
        "        self.b = nn.Dense(4, 4)\n"
        "        self.apply(reset_dense)\n\n"
        "    def construct(self, x):\n"
        "        return self.b(self.a(x))\n", "utf-8")
    found = [(f.line, f.message.split(":")[0]) for f in new_engine().check_file(net)
             if f.rule.symbol == "duplicate-parameter-name"]
    assert found == [(10, "Net's construction names several Parameters 'weight' (on a, b by inits.py")]


# ----- parameters-of-unattached-cells: two Cells built apart, their Parameters read together ----

COLLECTED = '''
from mindspore import ParameterTuple, Parameter, Tensor, nn, ops
import mindspore as ms


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc(x)


class Named(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor([1.0], ms.float32), name="name_a")

    def construct(self, x):
        return x + self.param


class LocalLayers(nn.Cell):
    def __init__(self):
        super().__init__()
        a = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        b = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        self.pa = ParameterTuple(a.get_parameters())
        self.pb = ParameterTuple(b.get_parameters())

    def construct(self, x):
        return x + self.pa[1] + self.pb[1]


class LocalBlocks(nn.Cell):
    def __init__(self):
        super().__init__()
        online = Block()
        target = Block()
        self.online = ParameterTuple(online.trainable_params())
        self.target = ParameterTuple(target.trainable_params())

    def construct(self, x):
        return x + (self.online[0] - self.target[0]).sum()


class OtherElements(nn.Cell):
    def __init__(self):
        super().__init__()
        a = Block()
        b = Block()
        self.pa = ParameterTuple(a.get_parameters())
        self.pb = ParameterTuple(b.get_parameters())

    def construct(self, x):
        return x + self.pa[1] + self.pb[0].sum()


class Passed(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.param1 = ParameterTuple(net1.get_parameters())
        self.param2 = ParameterTuple(net2.get_parameters())

    def construct(self, x):
        return x + self.param1[0] + self.param2[0]


class PassedOnce(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.param1 = ParameterTuple(net1.get_parameters())
        self.param2 = ParameterTuple(net2.get_parameters())

    def construct(self, x):
        return x + self.param1[0] + self.param2[0]


class PassedAttached(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.param1 = ParameterTuple(net1.get_parameters())
        self.param2 = ParameterTuple(net2.get_parameters())

    def construct(self, x):
        return x + self.param1[0] + self.param2[0]


class OneRead(nn.Cell):
    def __init__(self):
        super().__init__()
        a = Block()
        b = Block()
        self.pa = ParameterTuple(a.get_parameters())
        self.pb = ParameterTuple(b.get_parameters())

    def construct(self, x):
        return x + self.pa[1]


class AttachedFirst(nn.Cell):
    def __init__(self):
        super().__init__()
        a = Block()
        b = Block()
        self.a = a
        self.b = b
        self.pa = ParameterTuple(a.get_parameters())
        self.pb = ParameterTuple(b.get_parameters())

    def construct(self, x):
        return x + self.pa[1] + self.pb[1]


class OneAttached(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Block()
        b = Block()
        self.pa = ParameterTuple(self.a.get_parameters())
        self.pb = ParameterTuple(b.get_parameters())

    def construct(self, x):
        return x + self.pa[1] + self.pb[1]


class Mixed(nn.Cell):
    def __init__(self):
        super().__init__()
        a = Block()
        b = Named()
        self.pa = ParameterTuple(a.get_parameters())
        self.pb = ParameterTuple(b.get_parameters())

    def construct(self, x):
        return x + self.pa[1] + self.pb[0]


def run_passed(x):
    net1 = Named()
    net2 = Named()
    out_net = Passed(net1, net2)
    return out_net(x)


def run_passed_once(x):
    net = Named()
    return PassedOnce(net, net)(x)


def run_passed_attached(x):
    net1 = Named()
    net2 = Named()
    holder = nn.CellList([net1, net2])
    return PassedAttached(net1, net2)(x), holder
'''
# What MindSpore 2.10 does with each: its first call in GRAPH_MODE at the level.
COLLECTED_PROBE = '''
import sys
import numpy as np
import mindspore as ms
sys.path.insert(0, sys.argv[2])
import collected as c

ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, sys.argv[1].upper()))
x = ms.Tensor(np.ones((1, 2), np.float32))
runs = {name: (lambda build: lambda x: build()(x))(getattr(c, name)) for name in (
    "LocalLayers", "LocalBlocks", "OtherElements", "OneRead", "AttachedFirst", "OneAttached", "Mixed")}
runs.update({name: getattr(c, name) for name in ("run_passed", "run_passed_once", "run_passed_attached")})
for name, run in runs.items():
    try:
        run(x)
        print(f"{name}|compiles")
    except RuntimeError as error:
        print(f"{name}|fails" if "already exists" in str(error) else f"{name}|{error}")
'''


def _collected_findings(path) -> set[str]:
    """The classes reported, by the line each finding is on."""
    from msgraphlint.pipeline import new_engine

    path.write_text(COLLECTED, "utf-8")
    classes = {}
    for number, line in enumerate(COLLECTED.splitlines(), 1):
        if line.startswith("class "):
            current = line[6:].split("(")[0]
        classes[number] = current if line.startswith(("class ", " ")) else None
    return {classes[f.line] for f in new_engine().check_file(path)
            if f.rule.symbol == "parameters-of-unattached-cells"}


def test_parameters_of_unattached_cells_read_together_are_found(tmp_path):
    """Two Cells of one class that nothing attaches (locals of __init__, or a driver's locals
    passed in), both sets read in construct, whichever elements. Not: one set read, Cells
    attached before (by the Cell or by the driver), one Cell passed twice, two classes."""
    assert _collected_findings(tmp_path / "collected.py") == {
        "LocalLayers", "LocalBlocks", "OtherElements", "Passed"}


@pytest.mark.compiler
@pytest.mark.parametrize("level", ["strict", "lax"])
def test_the_compiler_rejects_parameters_of_unattached_cells_read_together(tmp_path, level):
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    code = tmp_path / "code"
    code.mkdir()
    verdicts, output = run_probe(tmp_path, COLLECTED_PROBE, level, str(code)) if (
        code / "collected.py").write_text(COLLECTED, "utf-8") else ({}, "")
    assert verdicts == {"LocalLayers": "fails", "LocalBlocks": "fails", "OtherElements": "fails",
                        "OneRead": "compiles", "AttachedFirst": "compiles", "OneAttached": "compiles",
                        "Mixed": "compiles", "run_passed": "fails", "run_passed_once": "compiles",
                        "run_passed_attached": "compiles"}, output
    # Passed is reported for run_passed: the construction that passes two Cells built apart.
    assert _collected_findings(code / "collected.py") == {
        "LocalLayers", "LocalBlocks", "OtherElements", "Passed"}
