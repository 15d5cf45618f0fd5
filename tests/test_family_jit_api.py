"""jit-api: removed ms_function, jit-forbidden APIs and classmethods in compiled code."""

from __future__ import annotations

import textwrap

from msgraphlint.engine.analyze import CellContext
from msgraphlint.pipeline import new_engine
from msgraphlint.checkers.jit_api import JitApiFamily

from .engine_helpers import findings_on_lines

FAMILY = {"removed-ms-function", "jit-forbidden-api", "classmethod-call"}
HEADER = """
import mindspore as ms
from mindspore import context, nn
from mindspore import log as logger


class Plain:
    @classmethod
    def double(cls, v):
        return v * 2

    @staticmethod
    def triple(v):
        return v * 3

    def to(self, v):
        return v
"""


def findings(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER, body, FAMILY)


def module_findings(tmp_path, source: str) -> set[tuple[str, str]]:
    """removed-ms-function is a module-level check: call it directly on the parsed module."""
    source = textwrap.dedent(source)
    lines = source.splitlines()
    engine = new_engine()
    module = engine.project.module(tmp_path / "train.py", raw=source.encode())
    found = []
    JitApiFamily().visit_module(module, CellContext(engine, module, found))
    return {(f.rule.symbol, lines[f.line - 1].strip()) for f in found}


def test_ms_function_imports_and_attribute_uses(tmp_path):
    got = module_findings(tmp_path, """
        import mindspore as ms
        import mindspore.common.api as api
        from mindspore import jit, ms_function
        from mindspore.common.api import ms_function as compiled

        @ms.ms_function
        def step(x):
            return x

        wrapped = api.ms_function(step)
    """)
    assert got == {
        ("removed-ms-function", "from mindspore import jit, ms_function"),
        ("removed-ms-function", "from mindspore.common.api import ms_function as compiled"),
        ("removed-ms-function", "@ms.ms_function"),
        ("removed-ms-function", "wrapped = api.ms_function(step)"),
    }


def test_jit_and_an_own_ms_function_are_fine(tmp_path):
    got = module_findings(tmp_path, """
        import mindspore as ms
        from mindspore import jit
        from .compat import ms_function

        def helper():
            return ms_function

        @ms.jit
        def step(x):
            return x
    """)
    assert got == set()


def test_ms_function_as_a_version_fallback_is_fine(tmp_path):
    # Audit false alarm (mindcv/optim/adamw.py, mindocr/utils/train_step_wrapper.py): on 2.6+ the
    # jit import succeeds or the version test picks it, and the ms_function line never runs.
    got = module_findings(tmp_path, """
        try:
            from mindspore import jit
        except ImportError:
            from mindspore import ms_function as jit

        if is_ms_version_2():
            from mindspore import jit as compiled
        else:
            from mindspore import ms_function as compiled

        if OLD_MINDSPORE:
            from mindspore.common.api import ms_function as step
        else:
            from mindspore import jit as step

        try:
            from mindspore import ms_function as first
        except ImportError:
            from mindspore import jit as first
    """)
    assert got == set()


def test_ms_function_without_a_jit_fallback_is_still_reported(tmp_path):
    got = module_findings(tmp_path, """
        try:
            from mindspore import ms_function as jit
        except ValueError:
            from mindspore import jit

        if USE_OLD:
            from mindspore import ms_function
        else:
            import numpy
    """)
    assert got == {
        ("removed-ms-function", "from mindspore import ms_function as jit"),
        ("removed-ms-function", "from mindspore import ms_function"),
    }


def test_forbidden_cell_methods_on_self_and_sub_cells(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.dense = nn.Dense(2, 2)
                self.plain = Plain()

            def construct(self, x):
                n = len(self.trainable_params())
                d = self.dense.state_dict()
                p = self.parameters_dict()
                y = self.plain.to(x)
                return x * n
    """)
    assert got == {
        ("jit-forbidden-api", "n = len(self.trainable_params())"),
        ("jit-forbidden-api", "d = self.dense.state_dict()"),
        ("jit-forbidden-api", "p = self.parameters_dict()"),
    }


def test_a_cell_overriding_a_forbidden_name_is_left_alone(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def to(self, x):
                return x * 2

            def construct(self, x):
                return self.to(x)
    """)
    assert got == set()


def test_forbidden_modules_and_their_reexports(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                a = ms.get_context("mode")
                b = context.get_context("device_target")
                logger.info("step")
                x.assign_value(x)
                return x * 2
    """)
    assert got == {
        ("jit-forbidden-api", 'a = ms.get_context("mode")'),
        ("jit-forbidden-api", 'b = context.get_context("device_target")'),
        ("jit-forbidden-api", 'logger.info("step")'),
        ("jit-forbidden-api", "x.assign_value(x)"),
    }


def test_classmethods_however_reached_but_not_staticmethods(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.plain = Plain()

            @classmethod
            def halve(cls, v):
                return v / 2

            def twice(self, v):
                return v * 2

            def construct(self, x):
                a = self.halve(x)
                b = type(self).halve(x)
                c = Plain.double(x)
                d = self.plain.double(x)
                e = Plain.triple(x) + self.twice(x)
                return a + b + c + d + e
    """)
    assert got == {
        ("classmethod-call", "a = self.halve(x)"),
        ("classmethod-call", "b = type(self).halve(x)"),
        ("classmethod-call", "c = Plain.double(x)"),
        ("classmethod-call", "d = self.plain.double(x)"),
    }


# ----- graph-refused-api ------------------------------------------------------------------------

REFUSED = {"graph-refused-api"}
REFUSED_HEADER = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.parallel import shard


def hook(grad):
    return grad * 2


class Sub(nn.Cell):
    def construct(self, x):
        return x * 2
"""


def refused(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, REFUSED_HEADER, body, REFUSED)


def test_shard_move_to_and_a_parameter_hook_in_compiled_code_are_flagged(tmp_path):
    assert refused(tmp_path, """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.dense = nn.Dense(3, 3)
        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="w")

    def construct(self, x):
        self.sub.shard(in_strategy=((1,),))
        self.shard(in_strategy=((1,),))
        f = ms.shard(self.sub, in_strategy=((1,),))
        g = shard(self.sub, in_strategy=((1,),))
        self.w.register_hook(hook)
        self.dense.weight.register_hook(hook)
        w = self.w
        w.register_hook(hook)
        return ops.relu(x).move_to("CPU")
""") == {
        ("graph-refused-api", 'self.sub.shard(in_strategy=((1,),))'),
        ("graph-refused-api", 'self.shard(in_strategy=((1,),))'),
        ("graph-refused-api", 'f = ms.shard(self.sub, in_strategy=((1,),))'),
        ("graph-refused-api", 'g = shard(self.sub, in_strategy=((1,),))'),
        ("graph-refused-api", 'self.w.register_hook(hook)'),
        ("graph-refused-api", 'self.dense.weight.register_hook(hook)'),
        ("graph-refused-api", 'w.register_hook(hook)'),
        ("graph-refused-api", 'return ops.relu(x).move_to("CPU")'),
    }


def test_shard_outside_compiled_code_and_other_objects_methods_are_not_flagged(tmp_path):
    assert refused(tmp_path, """
class Plan:
    def shard(self, v):
        return v

    def move_to(self, v):
        return v

class OwnShard(nn.Cell):
    def shard(self, v):
        return v

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.sub.shard(in_strategy=((1,),))
        self.plan = Plan()
        self.own = OwnShard()

    def construct(self, x, y):
        a = self.plan.shard(x)
        b = self.own.shard(x)
        c = self.plan.move_to(x)
        d = y.move_to("CPU")
        x.register_hook(hook)
        return a + b + c + d
""") == set()


def test_a_second_hook_on_one_name_in_the_function_body_is_flagged(tmp_path):
    assert refused(tmp_path, """
class Net(nn.Cell):
    def construct(self, x):
        x.register_hook(hook)
        y = ops.relu(x)
        x.register_hook(hook)
        return y
""") == {("graph-refused-api", "x.register_hook(hook)")}


def test_hooks_after_a_new_value_in_branches_or_assigned_are_not_flagged(tmp_path):
    assert refused(tmp_path, """
class Net(nn.Cell):
    def construct(self, x):
        y = x * 2
        y.register_hook(hook)
        y = y + 1
        y.register_hook(hook)
        if x.shape[0] > 1:
            y.register_hook(hook)
            y.register_hook(hook)
        z = x * 3
        z.register_hook(hook)
        for i in range(2):
            x = x + 1
        z.register_hook(hook)
        a = x.register_hook(hook)
        b = x.register_hook(hook)
        return y + z
""") == set()
