"""Code the project runs only in PyNative mode (model/modes.py): a Cell built only there is never
compiled, so nothing in its construct is reported. Every doubt keeps it compiled."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from .engine_helpers import run_probe
from .test_reach import HOST_CALL, flagged, write

CATCHER = f"""
    import math
    import mindspore as ms
    from mindspore import context, get_context, nn, PYNATIVE_MODE, GRAPH_MODE


    class Catcher(nn.Cell):
        def construct(self, x):
            return {HOST_CALL}

"""
CATCHER_LINE = 8


def _reported(tmp_path, driver: str, extra: dict[str, str] | None = None) -> bool:
    write(tmp_path, {"m.py": CATCHER + driver, **(extra or {})})
    return (CATCHER_LINE, None) in flagged(tmp_path, "m.py")


@pytest.mark.parametrize("driver", [
    # the check in the building function, in each spelling of the mode
    """
    def calibrate(x):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return Catcher()(x)
    """,
    """
    def calibrate(x):
        if ms.get_context("mode") == ms.GRAPH_MODE:
            raise RuntimeError("PyNative only")
        return Catcher()(x)
    """,
    """
    def calibrate(x):
        if context.get_context("mode") != 1:
            raise ValueError("PyNative only")
        return Catcher()(x)
    """,
    # in a helper called first, in a method of the same class
    """
    class Quantizer:
        def _check(self):
            print("checking")
            if not get_context("mode") == PYNATIVE_MODE:
                raise ValueError("PyNative only")

        def apply(self, x):
            self._check()
            return Catcher()(x)
    """,
    # under a branch that tests for PyNative
    """
    def calibrate(x):
        if get_context("mode") == PYNATIVE_MODE:
            return Catcher()(x)
        return x
    """,
    # in a helper whose only caller is past the check
    """
    class Quantizer:
        def _first_inputs(self, x):
            catcher = Catcher()
            return catcher(x)

        def apply(self, x, deploy=False):
            if deploy:
                return x
            if get_context("mode") != PYNATIVE_MODE:
                raise ValueError("PyNative only")
            return self._first_inputs(x)
    """,
])
def test_a_cell_built_only_in_pynative_is_not_compiled(tmp_path, driver):
    assert not _reported(tmp_path, driver)


@pytest.mark.parametrize("driver", [
    # no mode check at all
    """
    def calibrate(x):
        return Catcher()(x)
    """,
    # the check comes after the construction
    """
    def calibrate(x):
        out = Catcher()(x)
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return out
    """,
    # the helper may return before its check
    """
    class Quantizer:
        def _check(self, deploy):
            if deploy:
                return
            if get_context("mode") != PYNATIVE_MODE:
                raise ValueError("PyNative only")

        def apply(self, x, deploy):
            self._check(deploy)
            return Catcher()(x)
    """,
    # the branch tests for graph mode
    """
    def calibrate(x):
        if get_context("mode") == GRAPH_MODE:
            return Catcher()(x)
        return x
    """,
    # built past the check, and also somewhere else
    """
    def calibrate(x):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return Catcher()(x)

    def serve(x):
        return Catcher()(x)
    """,
    # handed on as a class: built who knows where
    """
    def calibrate(x, make=Catcher):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return make()(x)
    """,
    # a helper with a caller that is not past the check
    """
    class Quantizer:
        def _first_inputs(self, x):
            return Catcher()(x)

        def apply(self, x):
            if get_context("mode") != PYNATIVE_MODE:
                raise ValueError("PyNative only")
            return self._first_inputs(x)

        def serve(self, x):
            return self._first_inputs(x)
    """,
])
def test_a_cell_that_graph_mode_may_build_stays_compiled(tmp_path, driver):
    assert _reported(tmp_path, driver)


def test_a_cell_the_package_exports_stays_compiled(tmp_path):
    """Users of the package may build it in graph mode."""
    driver = """
    __all__ = ["Catcher"]

    def calibrate(x):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return Catcher()(x)
    """
    assert _reported(tmp_path, driver)


def test_a_cell_built_in_another_module_past_the_check_is_not_compiled(tmp_path):
    driver = """
    def unrelated():
        return 1
    """
    other = {"calibrate.py": """
        from mindspore import get_context, PYNATIVE_MODE
        from m import Catcher

        def calibrate(x):
            if get_context("mode") != PYNATIVE_MODE:
                raise ValueError("PyNative only")
            return Catcher()(x)
        """}
    assert not _reported(tmp_path / "one_builder", driver, other)
    other["serve.py"] = """
        from m import Catcher

        def serve(x):
            return Catcher()(x)
        """
    assert _reported(tmp_path / "two_builders", driver, other)


def test_classes_defined_in_a_function_are_judged_the_same_way(tmp_path):
    """A test body or a factory that defines the catcher and the code that builds it."""
    nested = """
    import math
    from mindspore import get_context, nn, PYNATIVE_MODE


    def run(x):
        class Catcher(nn.Cell):
            def construct(self, x):
                return math.sqrt(x.sum())

        class Calibrator:
            def _check(self):
                if get_context("mode") != PYNATIVE_MODE:
                    raise ValueError("PyNative only")

            def first_inputs(self, x):
                self._check()
                return Catcher()(x)

        return Calibrator().first_inputs(x)
    """
    write(tmp_path / "past_the_check", {"m.py": nested})
    assert flagged(tmp_path / "past_the_check", "m.py") == []
    unchecked = nested.replace("                self._check()\n", "")
    write(tmp_path / "no_check", {"m.py": unchecked})
    assert [line for line, _ in flagged(tmp_path / "no_check", "m.py")] == [8]



# ----- a flag that PyNative-only code flips (mindspore_gs's outlier-suppression search) ----------

FLAGGED_CELL = f"""
    import math
    from mindspore import nn


    class FakeQuantLinear(nn.Cell):
        def __init__(self):
            super().__init__()
            self.quant_forward = False

        def _quant_forward(self, x):
            return {HOST_CALL}

        def construct(self, x):
            if self.quant_forward:
                return self._quant_forward(x)
            return x
    """
FLAGGED_LINE = 11

# The algorithm flips the flag around a pseudo-quantized pass; the driver reaches it through a
# registry of algorithm classes, never importing their module.
SMOOTHER = """
    class Smoother:
        def process(self, layer_name, layer, **kwargs):
            self._search(layer)

        def _search(self, layer):
            layer.quant_forward = True
            layer(1)
            layer.quant_forward = False
    """
PIPELINE = """
    from mindspore import get_context, PYNATIVE_MODE

    PIPELINE = []


    class Walker:
        def process(self, root, prefix="network"):
            return self.process(root, prefix)


    def quantize(layers):
        Walker().process(layers)
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("quantize in PYNATIVE_MODE")
        for algorithm in PIPELINE:
            for name, layer in layers:
                algorithm().process(name, layer)
    """


def _flag_reported(folder, files: dict[str, str]) -> bool:
    write(folder, {"pkg/__init__.py": "", "pkg/cells.py": FLAGGED_CELL, **files})
    return (FLAGGED_LINE, "reached from FakeQuantLinear.construct via _quant_forward") in [
        (line, reached) for line, reached in flagged(folder, "pkg/cells.py")]


def test_a_flag_flipped_only_in_pynative_code_leaves_its_branch_folded(tmp_path):
    """Every call that may run the method that flips it (on any receiver, from a module that
    never imports it) is past a PyNative check; the other spellings of ``process`` cannot run it:
    another class's definition, a call on a new Walker, a one-argument call, Walker's call on
    itself. Text that only shows the assignment (a docstring) sets nothing."""
    notes = '"""To see the pseudo-quantized output, set `layer.quant_forward = True`."""\n'
    assert not _flag_reported(tmp_path, {"pkg/smoother.py": SMOOTHER, "pkg/quant.py": PIPELINE,
                                         "pkg/notes.py": notes})


@pytest.mark.parametrize("elsewhere", [
    # a driver that may run it in graph mode: no check
    """
    def deploy(algorithms, layer):
        for algorithm in algorithms:
            algorithm.process("name", layer)
    """,
    # a subclass's call of it through super(), in a method graph mode may run
    """
    from pkg.smoother import Smoother

    class Clipper(Smoother):
        def clip(self, layer):
            super().process("name", layer)

    def clip_all(layer):
        Clipper().clip(layer)
    """,
    # the flag set by a script, in whatever mode it runs
    """
    from pkg.cells import FakeQuantLinear

    net = FakeQuantLinear()
    net.quant_forward = True
    """,
    # set through a keyword of add_flags
    """
    def enable(net):
        net.add_flags_recursive(quant_forward=True)
    """,
])
def test_a_flag_that_graph_mode_code_may_flip_keeps_its_branch(tmp_path, elsewhere):
    files = {"pkg/smoother.py": SMOOTHER, "pkg/quant.py": PIPELINE, "pkg/other.py": elsewhere}
    assert _flag_reported(tmp_path, files)


def test_only_the_calls_that_may_run_the_method_are_asked_about(tmp_path):
    """The same driver without its check: then the call of ``process`` decides, and it is
    reported; a call of ``process`` in another top-level package that never names this one is
    no caller."""
    unchecked = PIPELINE.replace('raise ValueError("quantize in PYNATIVE_MODE")', "pass")
    assert _flag_reported(tmp_path / "unchecked", {"pkg/smoother.py": SMOOTHER, "pkg/quant.py": unchecked})
    other_package = {"pkg/smoother.py": SMOOTHER, "pkg/quant.py": PIPELINE,
                     "tools/__init__.py": "", "tools/run.py": """
        def run(step, layer):
            step.process("name", layer)
        """}
    write(tmp_path / "apart", {"setup.py": ""})
    assert not _flag_reported(tmp_path / "apart", other_package)


def test_a_sibling_class_setting_the_flag_does_not_unfold_the_branch(tmp_path):
    """``self`` in FakeQuantLinear.construct is a FakeQuantLinear or one of its subclasses, never
    a sibling class that shares its base (an abstract base, abc.ABC among its bases); a subclass
    that sets the flag does unfold the branch."""
    header = textwrap.dedent("""
        import abc
        import math
        from mindspore import nn


        class Base(nn.Cell, abc.ABC):
            pass


        class Sibling(Base):
            def __init__(self):
                super().__init__()
                self.quant_forward = True
        """)
    cell = textwrap.dedent(FLAGGED_CELL).replace("(nn.Cell)", "(Base)").split("\n\n\n", 1)[1]
    source = header + "\n\n" + cell
    write(tmp_path / "sibling", {"cells.py": source})
    line = _line_of(tmp_path / "sibling" / "cells.py", HOST_CALL)
    assert line not in [found for found, _ in flagged(tmp_path / "sibling", "cells.py")]
    subclass = source + textwrap.dedent("""


        class Calibrating(FakeQuantLinear):
            def __init__(self):
                super().__init__()
                self.quant_forward = True
        """)
    write(tmp_path / "subclass", {"cells.py": subclass})
    assert line in [found for found, _ in flagged(tmp_path / "subclass", "cells.py")]


HOOK = """
        def add_hook(self):
            class Hook:
                def __call__(self, *args):
                    return print(self, *args)

            return Hook()

        def _quant_forward(self, x):"""


def test_a_method_of_a_class_defined_in_a_method_has_its_own_self(tmp_path):
    """A hook class written inside a method (mindspore_gs's add_hook) hands its own ``self`` to
    a function: that is not the Cell's ``self`` escaping, so the Cell is still read completely
    and its flag still folds; the Cell's own ``self`` handed on does unfold it."""
    hooked = FLAGGED_CELL.replace("\n        def _quant_forward(self, x):", HOOK)
    write(tmp_path / "hooked", {"cells.py": hooked})
    line = _line_of(tmp_path / "hooked" / "cells.py", HOST_CALL)
    assert line not in [found for found, _ in flagged(tmp_path / "hooked", "cells.py")]
    escaping = hooked.replace("            return Hook()", "            register(self)\n            return Hook()")
    write(tmp_path / "escaping", {"cells.py": escaping})
    line = _line_of(tmp_path / "escaping" / "cells.py", HOST_CALL)
    assert line in [found for found, _ in flagged(tmp_path / "escaping", "cells.py")]


def _line_of(path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


FLAG_PROBE = """
import importlib
import os
import sys
import numpy as np
import mindspore as ms
from mindspore import Tensor

# imported by name: the graph parser reads the Cell's module back from sys.modules
sys.path.insert(0, os.path.dirname(sys.argv[3]))
sample = importlib.import_module(os.path.basename(sys.argv[3])[:-3])

level, order = sys.argv[1], sys.argv[2]
x = Tensor(np.ones((2, 3), np.float32))
net = sample.FakeQuantLinear()
graph = dict(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, level.upper()))
if order == "flipped_in_pynative":
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net.quant_forward = True
    net(x)
    net.quant_forward = False
    ms.set_context(**graph)
else:
    ms.set_context(**graph)
    net.quant_forward = True
try:
    net(x).asnumpy()
    print(f"{order}|compiles")
except Exception as error:
    print(f"{order}|fails")
    print(str(error).splitlines()[0][:200])
"""


@pytest.mark.compiler
@pytest.mark.parametrize("level", ["strict", "lax"])
def test_the_compiler_never_sees_a_flag_flipped_in_pynative(tmp_path, level):
    """What the model folds, on the good sample's FakeQuantLinear: the flag flipped and reset
    in PyNative leaves the compiled graph with the value ``__init__`` gave it, so the branch
    compiles at every level; the same flag set before a graph-mode call compiles the branch,
    and STRICT rejects its asnumpy."""
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    sample = Path(__file__).parent.parent / "samples" / "gradient" / "asnumpy_in_graph_good.py"
    verdicts, output = {}, ""
    for order in ("flipped_in_pynative", "set_in_graph"):
        found, printed = run_probe(tmp_path, FLAG_PROBE, level, order, str(sample))
        verdicts.update(found)
        output += printed
    assert verdicts == {"flipped_in_pynative": "compiles",
                        "set_in_graph": "fails" if level == "strict" else "compiles"}, output


@pytest.mark.parametrize("call, binds", [
    ("x.process(1)", False),
    ("x.process(1, 2)", True),
    ("x.process(1, layer=2)", True),
    ("x.process(1, 2, 3)", False),
    ("x.process(1, 2, extra=3)", True),
    ("x.process(*pair)", True),
    ("x.process(layer=2)", False),
    ("Smoother.process(x, 1, 2)", True),
    ("Smoother.process(1, 2)", False),
])
def test_a_call_counts_as_a_caller_only_if_its_arguments_bind(call, binds):
    """The arity filter of the caller search: a call Python would refuse with TypeError cannot
    run the method (binding_problem, with the instance bound as _is_bound says)."""
    from msgraphlint.model.compiled import binding_problem
    from msgraphlint.model.modes import _is_bound

    method = ast.parse("def process(self, layer_name, layer, **kwargs): pass").body[0]
    node = ast.parse(call).body[0].value
    on_class = call.startswith("Smoother.")
    bound = _is_bound(method, on_class=on_class)
    assert (binding_problem(node.args, node.keywords, method, bound) is None) is binds


def test_the_interpreter_gives_the_flag_its_init_value_too(tmp_path):
    """One answer: the value the interpreter gives ``self.quant_forward`` follows the same
    model as the branch folding, False where only PyNative code flips it, unknown where a
    graph-mode driver may (``int(...)`` of it makes the interpreter read the function)."""
    from msgraphlint.model.reach import ReachModel
    from msgraphlint.syntax.project import Project
    from msgraphlint.values.domain import UNKNOWN, Known
    from msgraphlint.values.interpret import evaluation

    def flag_value(folder, driver: str):
        write(folder, {"pkg/__init__.py": "", "pkg/cells.py": FLAGGED_CELL.replace(
            "return x\n", "return x, int(self.quant_forward)\n"),
            "pkg/smoother.py": SMOOTHER, "pkg/quant.py": driver})
        project = Project()
        project.add_project_of(folder / "pkg")
        model = ReachModel(project)
        module = project.module(folder / "pkg/cells.py")
        compiled = next(c for c in model.compiled_functions(module) if c.node.name == "construct")
        returned = next(node for node in module.nodes(compiled.node) if isinstance(node, ast.Return)
                        and isinstance(node.value, ast.Tuple))
        return evaluation(model, compiled).value(returned.value.elts[1].args[0])

    assert flag_value(tmp_path / "pynative", PIPELINE) == Known(False)
    unchecked = PIPELINE.replace('raise ValueError("quantize in PYNATIVE_MODE")', "pass")
    assert flag_value(tmp_path / "graph", unchecked) is UNKNOWN
