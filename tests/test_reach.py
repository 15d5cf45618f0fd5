"""The graph-scope model: which code is compiled, however it is spelled, and how it is reached."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from msgraphlint.pipeline import new_engine
from msgraphlint.knowledge.catalogue import Level
from msgraphlint.syntax.project import Project
from msgraphlint.model.reach import ReachModel

# A line that the host-call rule flags whenever it is compiled, and only then.
HOST_CALL = "math.sqrt(x.sum())"


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), "utf-8")


def flagged(folder: Path, name: str) -> list[tuple[int, str | None]]:
    """(line, reached_from) of host-call findings in one file of a project folder."""
    findings = new_engine().check_file(folder / name)
    return [(f.line, f.reached_from) for f in findings if f.rule.symbol == "host-call-on-tensor"]


@pytest.mark.parametrize(
    "imports, base",
    [
        ("from mindspore import nn", "nn.Cell"),
        ("import mindspore.nn as nn", "nn.Cell"),
        ("import mindspore as ms", "ms.nn.Cell"),
        ("import mindspore", "mindspore.nn.Cell"),
        ("import mindspore.nn", "mindspore.nn.Cell"),
        ("from mindspore.nn import Cell as Base", "Base"),
        ("from mindspore.nn import Cell", "Cell"),
        ("from mindspore import nn\nBase = nn.Cell", "Base"),
        ("from mindspore import nn", "nn.SequentialCell"),
        ("from mindspore.nn.cell import Cell", "Cell"),
    ],
)
def test_cell_base_is_recognised_however_spelled(tmp_path, imports, base):
    source = f"import math\n{imports}\nclass Net({base}):\n    def construct(self, x):\n"
    source += f"        return {HOST_CALL}\n"
    (tmp_path / "m.py").write_text(source, "utf-8")
    assert flagged(tmp_path, "m.py") == [(source.count("\n"), None)]


def test_a_class_with_construct_that_is_not_a_cell_is_not_compiled(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        class Pipeline:
            def construct(self, x):
                return {HOST_CALL}
        class Other(SomethingUnknown):
            def construct(self, x):
                return {HOST_CALL}
        """})
    assert flagged(tmp_path, "m.py") == []


def test_cell_through_user_base_classes_in_the_same_and_other_files(tmp_path):
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """
            from mindspore import nn
            class Backbone(nn.Cell):
                pass
            """,
        "pkg/reexport.py": "from .base import Backbone as Trunk\n",
        "pkg/net.py": f"""
            import math
            from pkg.reexport import Trunk
            class Middle(Trunk):
                pass
            class Net(Middle):
                def construct(self, x):
                    return {HOST_CALL}
            """,
    })
    assert flagged(tmp_path, "pkg/net.py") == [(7, None)]


def test_roots_include_bprop_and_every_jit_spelling(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        import mindspore as ms
        import mindspore
        from mindspore import jit, nn
        class Net(nn.Cell):
            def construct(self, x):
                return x
            def bprop(self, x, out, dout):
                return ({HOST_CALL},)
        @jit
        def a(x):
            return {HOST_CALL}
        @ms.jit
        def b(x):
            return {HOST_CALL}
        @mindspore.jit(fullgraph=True)
        def c(x):
            return {HOST_CALL}
        @jit(capture_mode="bytecode")
        def d(x):
            return {HOST_CALL}
        def e(x):
            return {HOST_CALL}
        step = ms.jit(e)
        def not_compiled(x):
            return {HOST_CALL}
        """})
    lines = [line for line, _ in flagged(tmp_path, "m.py")]
    assert lines == [9, 12, 15, 18, 21, 23]


def test_jit_targets_carry_the_level_mindspore_gives_them(tmp_path):
    write(tmp_path, {"m.py": """
        import mindspore as ms
        from mindspore import jit, nn
        @jit
        def loose(x):
            return x
        @jit(fullgraph=True)
        def strict(x):
            return x
        @jit(capture_mode="bytecode")
        def split(x):
            return x
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.set_jit_config(ms.JitConfig(jit_syntax_level=ms.STRICT))
            def construct(self, x):
                return x
        class Default(nn.Cell):
            def construct(self, x):
                return x
        """})
    project = Project()
    targets = {t.label: t for t in ReachModel(project).targets(project.module(tmp_path / "m.py"))}
    assert targets["loose"].level == Level.LAX
    assert targets["strict"].level == Level.STRICT
    assert targets["split"].bytecode
    assert targets["Net.construct"].level == Level.STRICT
    assert targets["Default.construct"].level is None


def test_bytecode_capture_turns_findings_into_advice(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import jit
        @jit(capture_mode="bytecode")
        def split(x):
            return {HOST_CALL}
        """})
    (finding,) = new_engine().check_file(tmp_path / "m.py")
    assert finding.severity(Level.STRICT).value == "advice"


def test_reach_follows_self_methods_base_classes_and_functions_transitively(tmp_path):
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/utils.py": f"""
            import math
            def normalise(x):
                return _inner(x)
            def _inner(x):
                return {HOST_CALL}
            def unused(x):
                return {HOST_CALL}
            """,
        "pkg/base.py": f"""
            import math
            from mindspore import nn
            class Base(nn.Cell):
                def _post(self, x):
                    return {HOST_CALL}
            """,
        "pkg/net.py": """
            from pkg.base import Base
            from pkg.utils import normalise
            class Net(Base):
                def construct(self, x):
                    return self._post(normalise(x))
            """,
    })
    assert flagged(tmp_path, "pkg/utils.py") == [
        (5, "reached from Net.construct via normalise -> _inner"),
    ]
    assert flagged(tmp_path, "pkg/base.py") == [(5, "reached from Net.construct via _post")]


def test_reach_handles_recursion_and_cycles(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        def ping(x):
            return pong(x)
        def pong(x):
            return ping({HOST_CALL})
        class Net(nn.Cell):
            def construct(self, x):
                return self.loop(ping(x))
            def loop(self, x):
                return self.loop(x)
        """})
    assert flagged(tmp_path, "m.py") == [(6, "reached from Net.construct via ping -> pong")]


def test_code_outside_the_reach_is_never_flagged(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        class Net(nn.Cell):
            def __init__(self, x=2.0):
                super().__init__()
                self.scale = {HOST_CALL.replace("x.sum()", "x")}
            def construct(self, x):
                return x * self.scale
            def evaluate(self, x):
                return {HOST_CALL}
        def train(net, x):
            return {HOST_CALL}
        """})
    assert flagged(tmp_path, "m.py") == []


def test_super_calls_and_subclass_overrides(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        class Base(nn.Cell):
            def construct(self, x):
                return self.head(x)
            def head(self, x):
                return x
        class Child(Base):
            def construct(self, x):
                return super().construct(x)
            def head(self, x):
                return {HOST_CALL}
        """})
    # Child.head is compiled for Child, reached through Base.construct's self.head().
    assert flagged(tmp_path, "m.py") == [(12, "reached from Child.construct via super().construct -> head")]


def test_unparsable_neighbour_does_not_stop_reach(tmp_path):
    write(tmp_path, {
        "broken.py": "def oops(:\n",
        "net.py": f"""
            import math
            import broken
            from mindspore import nn
            class Net(nn.Cell):
                def construct(self, x):
                    return {HOST_CALL}
            """,
    })
    assert flagged(tmp_path, "net.py") == [(6, None)]


def test_editor_buffers_replace_the_file_and_keep_cross_file_reach(tmp_path):
    """pylint hands the engine each module's bytes; identical bytes must not lose the reach
    found through other files, and changed bytes (an unsaved buffer) must be what is checked."""
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/utils.py": f"import math\ndef helper(x):\n    return {HOST_CALL}\n",
        "pkg/net.py": """
            from mindspore import nn
            from pkg.utils import helper
            class Net(nn.Cell):
                def construct(self, x):
                    return helper(x)
            """,
    })
    engine = new_engine()
    utils = tmp_path / "pkg" / "utils.py"
    assert [f.line for f in engine.check_file(tmp_path / "pkg" / "net.py")] == []
    assert [f.line for f in engine.check_file(utils, utils.read_bytes())] == [3]
    edited = f"import math\n\n\ndef helper(x):\n    return {HOST_CALL}\n".encode()
    assert [f.line for f in engine.check_file(utils, edited)] == [5]
    assert [f.line for f in engine.check_file(utils, b"def helper(x):\n    return x\n")] == []


def test_reach_stops_at_constexpr_helpers_and_jit_itself(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        import mindspore as ms
        from mindspore import nn, ops
        from mindspore.ops import constexpr
        from mindspore.ops.primitive import _primexpr
        @constexpr
        def folded(x):
            return {HOST_CALL}
        @_primexpr
        def also_folded(x):
            return {HOST_CALL}
        def helper(x):
            return {HOST_CALL}
        class Net(nn.Cell):
            def construct(self, x):
                step = ms.jit(helper)
                return folded(x) + also_folded(x) + helper(x)
        """})
    # helper: compiled both as `step = jit(helper)` (a root: it comes first) and via construct
    assert flagged(tmp_path, "m.py") == [(13, None)]


def test_inherited_construct_is_compiled_with_the_subclass_overrides(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        class Base(nn.Cell):
            def construct(self, x):
                return self.pool(x)
            def pool(self, x):
                return x
        class MaxPool(Base):
            def pool(self, x):
                return {HOST_CALL}
        """})
    assert flagged(tmp_path, "m.py") == [(10, "reached from MaxPool.construct via pool")]


def test_nested_jit_functions_and_wrapped_gradients_are_compiled(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        import mindspore as ms
        def forward(x):
            return {HOST_CALL}
        grad_fn = ms.value_and_grad(forward)
        def loss_of(x):
            return {HOST_CALL}
        def train(x):
            @ms.jit
            def step(x):
                inner = ms.grad(loss_of)
                return grad_fn(x), inner(x), ms.grad(forward)(x)
            return step(x)
        """})
    assert flagged(tmp_path, "m.py") == [
        (4, "reached from step via forward"),
        (7, "reached from step via loss_of"),
    ]


def test_local_names_shadow_module_functions(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        def margin(x):
            return {HOST_CALL}
        class Net(nn.Cell):
            def construct(self, x, helper=None):
                def margin(row):
                    return row * 2
                return margin(x) + helper(x)
        """})
    assert flagged(tmp_path, "m.py") == []


def test_relative_package_imports_count_as_importers(tmp_path):
    write(tmp_path, {
        "pkg/__init__.py": "from .functional import helper\n",
        "pkg/functional.py": f"import math\ndef helper(x):\n    return {HOST_CALL}\n",
        "pkg/net.py": """
            from mindspore import nn
            from . import helper
            class Net(nn.Cell):
                def construct(self, x):
                    return helper(x)
            """,
    })
    assert flagged(tmp_path, "pkg/functional.py") == [(3, "reached from Net.construct via helper")]


def test_importers_are_the_files_that_name_the_module_not_every_module_of_that_name(tmp_path):
    write(tmp_path, {
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/utils.py": "def helper(x):\n    return x\n",
        "pkg/net.py": "from .utils import helper\n",
        "pkg/deep/__init__.py": "",
        "pkg/deep/user.py": "from ..utils import helper\n",
        "pkg/plain.py": "import pkg.utils\n",
        "other/__init__.py": "",
        "other/utils.py": "",
        "other/uses_other.py": "from other.utils import thing\n",
        "other/uses_pkg_package.py": "from pkg.deep import user\n",
        "scripts/by_path.py": "from deep.user import f\n",  # run with pkg/ on sys.path
        "scripts/helpers.py": "",
        "scripts/sibling.py": "from . import helpers\n",  # no package: still the sibling
    })
    project = Project()
    project.add_project_of(tmp_path / "pkg" / "utils.py")
    importers = lambda name: sorted(str(p.relative_to(tmp_path)) for p in project.importers_of(tmp_path / name))
    assert importers("pkg/utils.py") == ["pkg/deep/user.py", "pkg/net.py", "pkg/plain.py"]
    # `from pkg.deep import user` binds nothing of pkg/__init__.py; `import pkg.utils` binds pkg
    assert importers("pkg/__init__.py") == ["pkg/plain.py"]
    assert importers("pkg/deep/user.py") == ["other/uses_pkg_package.py", "scripts/by_path.py"]
    assert importers("scripts/helpers.py") == ["scripts/sibling.py"]


def test_names_that_only_end_like_a_module_do_not_import_it(tmp_path):
    # Seen on the model suites: each of these made a package's files importers of another
    # package, and every process parsed and reached most of the suite.
    write(tmp_path, {
        "pyproject.toml": "",
        "ocr/__init__.py": "",
        "ocr/common/layer.py": "from .activation import act\n",  # a folder without __init__.py
        "ocr/common/activation.py": "",
        "yolo/__init__.py": "",
        "yolo/layers/__init__.py": "",
        "yolo/layers/activation.py": "",
        "yolo/utils/__init__.py": "",
        "yolo/utils/random.py": "",
        "yolo/utils/ops.py": "",
        "llm/uses_layer.py": "from mindspore.nn.layer import Dense\n",
        "llm/uses_random.py": "import random\n",
        "llm/uses_ops.py": "import mindspore.ops as ops\n",
        "llm/uses_namespace.py": "from ocr.common.layer import thing\n",
    })
    project = Project()
    project.add_project_of(tmp_path / "ocr" / "__init__.py")
    importers = lambda name: sorted(str(p.relative_to(tmp_path)) for p in project.importers_of(tmp_path / name))
    assert importers("yolo/layers/activation.py") == []
    assert importers("ocr/common/activation.py") == ["ocr/common/layer.py"]
    assert importers("ocr/common/layer.py") == ["llm/uses_namespace.py"]
    assert importers("yolo/utils/random.py") == []
    assert importers("yolo/utils/ops.py") == []


def test_import_lines_name_modules_not_aliases_comments_or_other_folders(tmp_path):
    write(tmp_path, {
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/resnet.py": "",
        "pkg/models.py": "from . import (  # the names the paper uses as\n    resnet,\n)\n",
        "tools/common/deep/user.py": "from ..shared import helper\n",  # no __init__.py anywhere
        "tools/common/shared.py": "",
        "other/shared.py": "",
        "scripts/__init__.py": "",
        "scripts/random.py": "",
        "scripts/train.py": "import random\n",  # the script's own folder is first on sys.path
        "scripts/sub/__init__.py": "",
        "scripts/sub/random.py": "",  # sub.random: not what the script's `import random` names
    })
    project = Project()
    project.add_project_of(tmp_path / "pkg" / "__init__.py")
    importers = lambda name: sorted(str(p.relative_to(tmp_path)) for p in project.importers_of(tmp_path / name))
    assert importers("pkg/resnet.py") == ["pkg/models.py"]
    assert importers("tools/common/shared.py") == ["tools/common/deep/user.py"]
    assert importers("other/shared.py") == []
    assert importers("scripts/random.py") == ["scripts/train.py"]
    assert importers("scripts/sub/random.py") == []


def test_multi_line_imports_are_seen_when_the_helper_file_is_checked_alone(tmp_path):
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/helpers.py": f"import math\ndef normalise(x):\n    return {HOST_CALL}\n",
        "pkg/model.py": """
            from mindspore import nn
            from pkg import (
                helpers,
            )
            class Net(nn.Cell):
                def construct(self, x):
                    return helpers.normalise(x)
            """,
    })
    assert flagged(tmp_path, "pkg/helpers.py") == [(3, "reached from Net.construct via normalise")]


def test_static_methods_have_no_self_and_long_expressions_do_not_exhaust_the_stack(tmp_path):
    long_sum = " + ".join(["x"] * 400)
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        class Net(nn.Cell):
            @staticmethod
            def helper(x):
                return {HOST_CALL}
            def construct(self, x):
                y = {long_sum}
                return self.helper(y)
        """})
    assert flagged(tmp_path, "m.py") == [(6, "reached from Net.construct via helper")]


def test_jit_wrapping_inside_a_function_makes_a_root(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        import mindspore as ms
        def train_step(x):
            return {HOST_CALL}
        def main(x):
            def eval_step(x):
                return {HOST_CALL}
            step = ms.jit(train_step)
            evaluate = ms.jit(fn=eval_step)
            return step(x), evaluate(x)
        """})
    assert flagged(tmp_path, "m.py") == [(4, None), (7, None)]


# ----- sub-Cells: construct's inputs are what the parent passes ---------------------------------

SUB_CELL = """
    import numpy as np
    from mindspore import Tensor, nn

    class Mask(nn.Cell):
        def construct(self, rows, cols):
            return Tensor(np.ones((rows, cols)))

    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mask = Mask()

        def construct(self, x):
            rows, cols = x.shape
            return x * self.mask({arguments})
    {extra}
"""


def mask_rules(folder: Path, arguments: str = "rows, cols", extra: str = "") -> set[str]:
    write(folder, {"net.py": SUB_CELL.format(arguments=arguments, extra=extra)})
    line = 6  # the np.ones line of Mask.construct
    return {f.rule.symbol for f in new_engine().check_file(folder / "net.py") if f.line == line}


def test_a_sub_cell_called_with_ints_from_a_shape_sees_constants(tmp_path):
    assert mask_rules(tmp_path) == {"numpy-on-constants"}


@pytest.mark.parametrize("arguments, extra", [
    ("x, cols", ""),  # the parent passes a tensor: an input
    ("rows, cols", "net = Mask()\n"),  # also built on its own: its inputs are anyone's
    ("rows, cols", "__all__ = ['Mask', 'Block']\n"),  # exported: users may call it themselves
    ("rows, cols", "LAYERS = [Mask()]\n"),  # held some other way than self.<attr> = Mask()
])
def test_a_sub_cell_keeps_tensor_inputs_unless_every_use_says_otherwise(tmp_path, arguments, extra):
    assert mask_rules(tmp_path, arguments, extra) == {"host-call-on-tensor"}


def test_confirm_compiles_a_sub_cell_inside_its_parent(tmp_path):
    from msgraphlint.confirm.plan import Planner
    from msgraphlint.confirm_settings import ConfirmSettings

    write(tmp_path, {"net.py": SUB_CELL.format(arguments="rows, cols", extra="")})
    project = Project()
    planner = Planner(ReachModel(project), ConfirmSettings(), Level.LAX, tmp_path)
    planner.add_module(project.module(tmp_path / "net.py"))
    assert {t.label for t in planner.targets.values()} == {"Block"}
    (block,) = planner.targets.values()
    assert {root.label for root in block.roots} == {"Mask.construct", "Block.construct"}


def test_a_sub_cell_left_out_of_all_is_still_a_sub_cell(tmp_path):
    """`__all__` naming only the model keeps its blocks' inputs from their parents (mindcv's
    edgenext); a package `import *` of a module without `__all__` exports every block."""
    assert mask_rules(tmp_path, extra="__all__ = ['Block']\n") == {"numpy-on-constants"}
    write(tmp_path, {"__init__.py": "from .net import *\n"})
    assert mask_rules(tmp_path) == {"host-call-on-tensor"}


DEBUG_SWITCH = """
    from mindspore import nn

    class Attention(nn.Cell):
        def __init__(self):
            super().__init__()
            self.save = {value}

        def keep(self, m):
            self.kept = m

        def construct(self, x, other=None):
            if other is not None and self.save:
                self.keep(x)
            return x * 2
"""


@pytest.mark.parametrize("value, extra, reached", [
    ("False", "", False),  # folded: the branch is never compiled
    ("True", "", True),
    ("False", "net = Attention()\nnet.save = True\n", True),  # set from outside: not known
    ("None if True else False", "", True),  # not a literal: not known
])
def test_branches_on_constant_switches_are_dropped(tmp_path, value, extra, reached):
    path = tmp_path / "net.py"
    path.write_text(textwrap.dedent(DEBUG_SWITCH.format(value=value)).lstrip() + extra, "utf-8")
    findings = new_engine().check_file(path)
    assert any(f.rule.symbol == "non-parameter-attribute-assign" for f in findings) == reached


def test_an_error_path_under_a_static_test_is_not_compiled_for_working_inputs(tmp_path):
    """`if x.shape != (...): raise ValueError(f"... {x.size()}")` is folded while compiling: its
    body is compiled only for inputs that already fail. A raise under a test on tensor values is
    compiled, and reported."""
    write(tmp_path, {"net.py": """
        from mindspore import nn

        class Attn(nn.Cell):
            def construct(self, out):
                rows, cols = out.shape
                if out.shape != (rows, 2):
                    raise ValueError(f"wrong shape {out.size()}")
                if out.sum() > 0:
                    raise ValueError(f"positive {out.size()}")
                return out * 2
    """})
    lines = [f.line for f in new_engine().check_file(tmp_path / "net.py")
             if f.rule.symbol == "tensor-size-call"]
    assert lines == [9]


def test_construct_with_ctx_first_takes_it_as_an_input_not_the_cell(tmp_path):
    """`construct(ctx, x, identity=None)` (torch.autograd.Function ports): GRAPH_MODE binds the
    first input to ctx, so `ctx.identity = ...` is no assignment to the Cell."""
    write(tmp_path, {"net.py": """
        from mindspore import nn

        class FixedPointMul(nn.Cell):
            def construct(ctx, x, identity=None):
                ctx.identity = identity
                return x * 2
    """})
    findings = new_engine().check_file(tmp_path / "net.py")
    assert not [f for f in findings if f.rule.family == "custom-types"]


def test_a_sub_cell_held_in_another_module_returns_into_its_parent(tmp_path):
    """dict-return-at-strict is about a dict handed back to Python: a block whose every use is an
    attribute of a Cell in another file returns into that Cell's graph (probed on cogvideox)."""
    write(tmp_path, {
        "blocks.py": """
            from mindspore import nn

            class Block(nn.Cell):
                def construct(self, x):
                    return {"out": x * 2}
        """,
        "model.py": """
            from mindspore import nn
            from blocks import Block

            class Model(nn.Cell):
                def __init__(self):
                    super().__init__()
                    self.block = Block()

                def construct(self, x):
                    return self.block(x)["out"]
        """,
    })
    symbols = {f.rule.symbol for f in new_engine().check_file(tmp_path / "blocks.py")}
    assert "dict-return-at-strict" not in symbols


def test_a_block_imported_on_from_an_importer_keeps_tensor_inputs(tmp_path):
    """`from model import Block` in a third file: its uses there are not followed, so the
    block's inputs stay the graph's."""
    write(tmp_path, {
        "blocks.py": """
            import numpy as np
            from mindspore import Tensor, nn

            class Block(nn.Cell):
                def construct(self, rows):
                    return Tensor(np.ones((rows, 2)))
        """,
        "model.py": """
            from mindspore import nn
            from blocks import Block

            class Model(nn.Cell):
                def __init__(self):
                    super().__init__()
                    self.block = Block()

                def construct(self, x):
                    return self.block(x.shape[0])
        """,
    })
    held = {f.rule.symbol for f in new_engine().check_file(tmp_path / "blocks.py")}
    assert "numpy-on-constants" in held
    write(tmp_path, {"train.py": "from model import Block\nnet = Block()\n"})
    assert "host-call-on-tensor" in {f.rule.symbol for f in new_engine().check_file(tmp_path / "blocks.py")}


# ----- compiled code wherever it is written ----------------------------------------------------


@pytest.mark.parametrize(
    "wrapper",
    [
        "def run():\n{body}",
        "def factory(width):\n    if width:\n{body}",
        "class Holder:\n    def build(self):\n{body}",
        "for _ in range(2):\n{body}",
    ],
)
def test_a_cell_defined_inside_a_function_branch_or_loop_is_compiled(tmp_path, wrapper):
    cell = (
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        f"        return {HOST_CALL}\n"
    )
    indent = "        " if "if width" in wrapper or "def build" in wrapper else "    "
    body = textwrap.indent(cell, indent)
    source = "import math\nfrom mindspore import nn\n" + wrapper.format(body=body)
    (tmp_path / "m.py").write_text(source, "utf-8")
    lines = source.splitlines()
    found = flagged(tmp_path, "m.py")
    assert [lines[line - 1].strip() for line, _ in found] == [f"return {HOST_CALL}"]


def test_a_nested_cell_inherits_from_a_base_defined_beside_it(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        def run():
            class Base(nn.Cell):
                def helper(self, x):
                    return {HOST_CALL}
            class Net(Base):
                def construct(self, x):
                    return self.helper(x)
            return Net()
    """})
    assert flagged(tmp_path, "m.py") == [(6, "reached from Net.construct via helper")]


def test_a_closure_function_called_from_a_nested_cell_is_compiled(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        def run():
            def norm(x):
                return {HOST_CALL}
            def unused(x):
                return {HOST_CALL}
            class Net(nn.Cell):
                def construct(self, x):
                    return norm(x)
            return Net()
    """})
    assert flagged(tmp_path, "m.py") == [(5, "reached from Net.construct via norm")]


def test_a_module_level_function_shadowed_by_a_closure_is_not_the_callee(tmp_path):
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        def norm(x):
            return {HOST_CALL}
        def run():
            def norm(x):
                return x
            class Net(nn.Cell):
                def construct(self, x):
                    return norm(x)
            return Net()
    """})
    assert flagged(tmp_path, "m.py") == []


@pytest.mark.parametrize(
    "driver, flagged_lines",
    [
        ("net = Net()\n    net(1, 2)", []),  # ints are compile-time constants in the graph
        ("net = Net()\n    net((2, 3), 'a')", []),
        ("n = 4\n    net = Net()\n    net(n, x.shape)", []),
        ("net = Net()\n    net(Tensor([1.0]), 2)", [6]),  # a tensor is an input
        ("net = Net()\n    net(mutable(1), 2)", [6]),  # mutable() makes a variable
        ("net = Net()\n    net(1, 2)\n    grad(net)(1, 2)", [6]),  # used some other way: unknown
        ("net = Net()\n    net(*args)", [6]),
    ],
)
def test_a_roots_parameters_take_what_its_python_callers_pass(tmp_path, driver, flagged_lines):
    write(tmp_path, {"m.py": textwrap.dedent("""
        import math
        from mindspore import nn, Tensor, mutable, grad
        def run(x, args):
            class Net(nn.Cell):
                def construct(self, a, b):
                    return math.sqrt(a.sum()) + b
            DRIVER
    """).replace("DRIVER", driver)})
    assert [line for line, _ in flagged(tmp_path, "m.py")] == flagged_lines


def test_a_jit_function_called_with_constants_sees_constants(tmp_path):
    write(tmp_path, {"m.py": """
        import math
        from mindspore import jit
        @jit
        def step(a):
            return math.sqrt(a.sum())
        def run():
            return step(3)
    """})
    assert flagged(tmp_path, "m.py") == []


def test_what_a_helper_or_sub_cell_gives_back_follows_its_returns(tmp_path):
    """`x, (h, w) = self.embed(x)` with the sub-Cell returning its input's shape, and a helper
    returning a shape: ints while compiling, not inputs. A returned tensor stays one."""
    write(tmp_path, {"m.py": f"""
        import math
        from mindspore import nn
        class Embed(nn.Cell):
            def construct(self, x):
                rows, cols = x.shape
                return x * 2, (rows, cols)
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.embed = Embed()
            def size_of(self, x):
                return x.shape[0]
            def twice(self, x):
                return x * 2
            def construct(self, x):
                y, (h, w) = self.embed(x)
                n = self.size_of(x)
                a = math.sqrt(h * w + n)
                return math.sqrt(y.sum()) + math.sqrt(self.twice(x).sum()) + a
    """})
    assert [line for line, _ in flagged(tmp_path, "m.py")] == [19, 19]  # y and twice(x) only


def input_specs_of(folder: Path, name: str) -> dict[str, tuple]:
    project = Project()
    model = ReachModel(project)
    return {root.label: model.input_specs(root) for root in model.targets(project.module(folder / name))}


def test_inputs_from_a_batch_helper_module_constants_and_a_jit_alias(tmp_path):
    write(tmp_path, {"train.py": """
        import numpy as np
        import mindspore as ms

        BATCH, LENGTH, WIDTH, CLASSES = 4, 6, 3, 5

        @ms.jit
        def step(data, label):
            return data.sum() + label.sum()

        def check(data, label):
            return data.mean()

        check_step = ms.jit(check)

        def make_batch(rng):
            data = rng.standard_normal((BATCH, LENGTH, WIDTH)).astype(np.float32)
            label = rng.integers(0, CLASSES, BATCH).astype(np.int32)
            return ms.Tensor(data), ms.Tensor(label)

        def main():
            rng = np.random.default_rng(0)
            step(*make_batch(rng))
            check_step(*make_batch(rng))
    """})
    specs = input_specs_of(tmp_path, "train.py")
    assert specs["step"] == ("float32[4,6,3]", "int32[4]")  # integers(low, high, size): the size
    assert specs["check_step = jit(check)"] == ("float32[4,6,3]", "int32[4]")


def test_a_cell_input_has_the_rank_a_sub_cell_unpacks_through_a_container(tmp_path):
    write(tmp_path, {"net.py": """
        from mindspore import nn

        class Attention(nn.Cell):
            def __init__(self, width):
                super().__init__()
                self.proj = nn.Dense(width, width)

            def construct(self, x):
                batch, length, width = x.shape
                return self.proj(x).reshape(batch, length, width)

        class Layer(nn.Cell):
            def __init__(self, width=16):
                super().__init__()
                self.norm = nn.LayerNorm((width,))
                self.attn = Attention(width)

            def construct(self, x):
                return x + self.attn(self.norm(x))

        class Stack(nn.Cell):
            def __init__(self, features=8, width=16):
                super().__init__()
                self.embed = nn.Dense(features, width)
                self.layers = nn.SequentialCell([Layer(width) for _ in range(2)])

            def construct(self, x):
                return self.layers(self.embed(x))
    """})
    specs = input_specs_of(tmp_path, "net.py")
    assert specs["Layer.construct"] == ("float32[2,8,16]",)  # LayerNorm's width, Attention's rank
    assert specs["Stack.construct"] == ("float32[2,8,8]",)  # Dense's features, the layers' rank


NESTED_STEP = """
        import mindspore as ms
        from mindspore import nn

        def train(net, batches):
            @ms.jit
            def step(x):
                return net(x)
            return [step(x) for x in batches]

        def run_test():
            class Probe(nn.Cell):
                def construct(self, x):
                    return x * 2
            return Probe()(ms.Tensor([1.0]))
"""


def nested_plan(folder: Path, main: str, settings=None) -> dict:
    from msgraphlint.confirm.plan import Planner
    from msgraphlint.confirm_settings import ConfirmSettings

    write(folder, {"train.py": textwrap.dedent(NESTED_STEP) + main})
    project = Project()
    planner = Planner(ReachModel(project), settings or ConfirmSettings(), Level.LAX, folder)
    planner.add_module(project.module(folder / "train.py"))
    return {t.label: t for t in planner.targets.values()}


@pytest.mark.parametrize("main, run", [
    ("def main():\n    train(None, [])\n", "main"),
    ("if __name__ == '__main__':\n    train(None, [])\n", "__main__"),
])
def test_a_target_defined_inside_a_function_is_reached_through_what_runs_it(tmp_path, main, run):
    """--confirm reaches a jit step defined in train() by running main() (or the module as a
    script) up to its first call, and a Cell defined in a function that takes no argument by
    calling that function."""
    targets = nested_plan(tmp_path, main)
    step, probe = targets["step"], targets["Probe"]
    assert step.reason is None and probe.reason is None
    assert (step.via["run"], step.via["name"], step.via["kind"]) == (run, "step", "jit")
    assert step.via["line"] == 4  # the first line of train(): the frame that binds step
    assert (probe.via["run"], probe.via["name"], probe.via["kind"]) == ("run_test", "Probe", "cell")
    assert step.spec["via"] == step.via  # handed to the child as plain data


def test_nothing_that_runs_it_says_which_setting_would(tmp_path):
    from msgraphlint.confirm_settings import ConfirmSettings, TargetSettings

    step = nested_plan(tmp_path, "")["step"]
    assert step.via is None
    assert 'entry = "path.py::main"' in step.reason
    assert '[tool.msgraphlint.confirm.targets."train.py::step"]' in step.reason
    configured = ConfirmSettings(targets={"train.py::step": TargetSettings(entry="train.py::run_test")})
    step = nested_plan(tmp_path, "", configured)["step"]
    assert step.reason is None and step.via["run"] == "run_test"


def test_a_held_object_of_unknown_origin_reaches_the_one_cell_of_the_module_defining_the_method(tmp_path):
    """self.critic comes from a config dict: the module's only Cell with build_inputs is what
    it holds. Another class defining the name, a name nn.Cell has, or a held object built by a
    call of any class says nothing."""
    template = """
        import math
        from mindspore import nn

        class Critic(nn.Cell):
            def construct(self, x):
                return x

            def {method}(self, x):
                return {host_call}
        {other}
        class Loss(nn.Cell):
            def __init__(self, networks):
                super().__init__()
                self.critic = {held}

            def construct(self, x):
                return self.critic.{method}(x)
        """
    cases = {
        "config dict": ("build_inputs", "networks['critic']", "", True),
        "constructor argument": ("build_inputs", "networks", "", True),
        "two definers": ("build_inputs", "networks['critic']",
                         "\nclass Other:\n    def build_inputs(self, x):\n        return x\n", False),
        "a name of nn.Cell": ("set_grad", "networks['critic']", "", False),
        "built by a call": ("build_inputs", "nn.Dense(2, 2)", "", False),
    }
    for name, (method, held, other, reached) in cases.items():
        folder = tmp_path / name.replace(" ", "_")
        write(folder, {"model.py": template.format(method=method, held=held, other=other,
                                                   host_call=HOST_CALL)})
        paths = {via for _, via in flagged(folder, "model.py")}
        via = f"reached from Loss.construct via self.critic.{method}"
        assert (via in paths) is reached, (name, paths)


def test_a_helper_called_only_in_branches_the_passed_literals_decide_against_is_not_evaluated(tmp_path):
    """Every compiled call leaves stack=False: the helper under `if stack:` is parsed, never
    evaluated, and so is the branch of another helper that gets use_numpy passed on from a
    caller that always leaves it False. A call that passes True is evaluated."""
    template = """
        import math
        from mindspore import nn

        def inner(x, use_numpy=False):
            if use_numpy:
                return {host_call}
            return x

        def outer(x, stack=False, use_numpy=False):
            if stack:
                x = inner(x, use_numpy)
            if x is not None:
                x = inner(x, use_numpy)
            return x

        class Net(nn.Cell):
            def construct(self, x):
                return outer({arguments})
        """
    for arguments, flagged in (("x", False), ("x, True", False), ("x, True, True", True),
                               ("x, use_numpy=True", True)):
        folder = tmp_path / str(abs(hash(arguments)))
        write(folder, {"model.py": template.format(host_call=HOST_CALL, arguments=arguments)})
        assert bool(flagged_lines := flagged_in(folder)) is flagged, (arguments, flagged_lines)


def flagged_in(folder: Path) -> list:
    return flagged(folder, "model.py")


def test_a_file_can_name_a_module_only_from_its_package_or_by_importing_it(tmp_path):
    """What the project-wide searches (subclasses, the callers of a method) parse: the files of
    the module's own top-level package, and the files whose import statements name that package;
    not a file that mentions the name in a URL or inside another name (mindocr's
    ``mindcv_models`` folder beside mindcv). A module outside any package: its importers."""
    from msgraphlint.syntax.project import Project

    write(tmp_path, {
        "setup.py": "",
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/layers.py": "class Base:\n    pass\n",
        "pkg/other.py": "from .sub.layers import Base\n",
        "app/__init__.py": "",
        "app/uses_from.py": "from pkg.sub.layers import Base\n",
        "app/uses_import.py": "import os, pkg.sub.layers as layers\n",
        "app/url_only.py": 'URL = "https://example.com/pkg/weights.ckpt"\n',
        "app/pkg_models/__init__.py": "",
        "app/inner_name.py": "from app.pkg_models import thing\n",
        "script.py": "def helper():\n    return 1\n",
        "run.py": "from script import helper\n",
        "unrelated.py": "helper = 2\n",
    })
    project = Project()
    project.add_project_of(tmp_path)
    layers = project.module(tmp_path / "pkg/sub/layers.py")
    script = project.module(tmp_path / "script.py")
    named = {name for name in ("pkg/other.py", "app/uses_from.py", "app/uses_import.py",
                               "app/url_only.py", "app/inner_name.py")
             if project.may_name(tmp_path / name, layers)}
    assert named == {"pkg/other.py", "app/uses_from.py", "app/uses_import.py"}
    assert project.may_name(tmp_path / "run.py", script)
    assert project.may_name(tmp_path / "script.py", script)  # its own file: a subclass beside it
    assert not project.may_name(tmp_path / "unrelated.py", script)
