"""mindspore-api: names and signatures of the target MindSpore (the snapshot of 2.10)."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

from .engine_helpers import check_source, findings_on_lines
from .samples_index import ROOT

HEADER = """
import mindspore as ms
from mindspore import nn, ops, mint
from mindspore.ops import operations as P
"""
SYMBOLS = {"mindspore-name-missing", "mindspore-call-mismatch", "tensor-method-mismatch",
           "uncompilable-mindspore-function"}


def flagged(tmp_path, line: str) -> set[tuple[str, str]]:
    body = f"""
class Net(nn.Cell):
    def construct(self, x, *args, **kwargs):
        return {line}
"""
    return findings_on_lines(tmp_path, HEADER, body, SYMBOLS)


@pytest.mark.parametrize(
    "line, symbol",
    [
        ("ops.concatcat((x, x))", "mindspore-name-missing"),
        ("ops.ResizeBilinear((2, 2))(x)", "mindspore-name-missing"),
        ("ms.nn.functional.relu(x)", "mindspore-name-missing"),
        ("ops.pad(x, paddings=(1, 1))", "mindspore-call-mismatch"),
        ("mint.zeros((2, 3), ms.float32)", "mindspore-call-mismatch"),  # dtype is keyword-only
        ("mint.argmax(x, axis=0)", "mindspore-call-mismatch"),
        ("ops.where(x > 0)", "mindspore-call-mismatch"),
        # overloaded: no form takes keepdims or beta (2.10 rejects both at every level)
        ("mint.max(x, dim=1, keepdims=True)", "mindspore-call-mismatch"),
        ("mint.add(x, x, beta=2)", "mindspore-call-mismatch"),
    ],
)
def test_api_the_target_version_lacks_is_reported(tmp_path, line, symbol):
    assert flagged(tmp_path, line) == {(symbol, f"return {line}")}


@pytest.mark.parametrize(
    "line",
    [
        "ops.pad(x, padding=(1, 1))",
        "mint.zeros((2, 3), dtype=ms.float32)",
        "ops.pad(*args)",  # spread arguments may bind
        "ops.pad(x, **kwargs)",
        "P.Pad(((0, 0), (1, 1)))(x)",  # a submodule the snapshot does not list: not judged
        "nn.Dense(3, 4, has_bias=True)(x)",
        "mint.max(x, dim=1, keepdim=True)",
        "mint.max(x, x)",
        "mint.add(x, x, alpha=2)",
    ],
)
def test_calls_that_bind_or_cannot_be_judged_are_not_reported(tmp_path, line):
    assert flagged(tmp_path, line) == set()


def test_a_version_guard_and_a_local_name_are_not_missing_api(tmp_path):
    body = """
class Net(nn.Cell):
    def construct(self, x):
        if hasattr(ops, "fancy_op"):
            x = ops.fancy_op(x)
        for ops in self.blocks:
            x = ops.forward_block(x)
        return x
"""
    assert findings_on_lines(tmp_path, HEADER, body, SYMBOLS) == set()


# Tensor methods on a value the model knows is a tensor (a driver passes one): a call that no
# calling form of MindSpore 2.10 takes, and one it takes. The pairs are tools/tensor_method_samples.py's
# table (compiled below, a few of them also as the samples); the extra ones here are those whose
# good call has no CPU kernel or is another rule's (the compiler still binds the call).
DRIVEN = """
import numpy as np
from mindspore import Tensor


class Net(nn.Cell):
    def construct(self, x):
        return {call}


def main():
    Net()(Tensor(np.ones((2, 3), np.float32)))
"""
SAMPLES = ROOT / "samples" / "mindspore_api"
_spec = importlib.util.spec_from_file_location("tensor_method_samples", ROOT / "tools" / "tensor_method_samples.py")
TABLE = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(TABLE)
EXTRA_PAIRS = [
    ("x.repeat(3, axis=0)", "x.repeat(3, 1)"),
    ("x.fill_(0.0, inplace=True)", "x.fill_(0.0)"),
    ("x.tolist(1)", "x.tolist()"),
    ("x.std(dim=1, unbiased=False)", "x.std(dim=1, correction=0)"),
    ("x.chunk(3, dimension=1)", "x.chunk(3, dim=1)"),
    ("x.cumsum(dim=1, exclusive=True)", "x.cumsum(dim=1)"),
    ("x.roll(1, 1, 0)", "x.roll(1, 1)"),
    ("x.view(2, 3, axis=1)", "x.view(ms.float16)"),
]
PAIRS = [(bad, good) for _, bad, good in TABLE.CASES] + EXTRA_PAIRS


def test_the_pairs_cover_forty_common_tensor_methods():
    methods = {bad.split("(")[0].rsplit(".", 1)[-1] for bad, _ in PAIRS}
    assert len(methods) >= 40
    assert {"view", "reshape", "permute", "transpose", "repeat", "expand", "flatten", "unsqueeze",
            "squeeze", "sum", "mean", "max", "min", "argmax", "std", "var", "split", "chunk",
            "masked_fill", "type_as", "to", "narrow", "gather", "index_select", "clamp", "softmax",
            "norm", "topk", "sort", "cumsum", "new_zeros", "new_ones", "fill_", "add_", "mul_",
            "item", "tolist"} <= methods


@pytest.mark.parametrize("bad, good", PAIRS, ids=[bad for bad, _ in PAIRS])
def test_a_tensor_method_call_no_form_takes_is_reported_and_one_it_takes_is_not(tmp_path, bad, good):
    assert findings_on_lines(tmp_path, HEADER, DRIVEN.format(call=bad), SYMBOLS) == {
        ("tensor-method-mismatch", f"return {bad}")}
    assert findings_on_lines(tmp_path, HEADER, DRIVEN.format(call=good), SYMBOLS) == set()


def test_a_receiver_not_known_to_be_a_tensor_is_not_bound(tmp_path):
    # numpy's repeat takes axis; a value of unknown type says nothing (precision first).
    body = """
class Net(nn.Cell):
    def construct(self, x):
        return x.repeat(3, axis=0)
"""
    assert findings_on_lines(tmp_path, HEADER, body, SYMBOLS) == set()


def test_a_tensor_held_on_self_is_bound(tmp_path):
    body = """
import numpy as np
from mindspore import Tensor


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.grid = Tensor(np.ones((1, 4, 1), np.float32))

    def construct(self, x):
        return self.grid.repeat(x.shape[0], axis=0)
"""
    assert findings_on_lines(tmp_path, HEADER, body, SYMBOLS) == {
        ("tensor-method-mismatch", "return self.grid.repeat(x.shape[0], axis=0)")}


def test_the_message_lists_the_forms_and_the_fix(tmp_path):
    source = HEADER + DRIVEN.format(call="x.repeat(3, axis=0)")
    (finding,) = [f for f in check_source(tmp_path, source) if f.rule.symbol == "tensor-method-mismatch"]
    assert "Tensor.repeat(*repeats); Tensor.repeat(repeats)" in finding.message
    assert "x.repeat_interleave(3, dim=0)" in finding.message


# MindSpore functions whose own body calls mindspore.log (a deprecation notice): graph mode
# compiles that body and rejects the call at every level (MindSpore 2.10, CPU).
@pytest.mark.parametrize(
    "line",
    [
        "ops.matrix_determinant(x)",
        "ops.log_matrix_determinant(x)",
        "ops.soft_shrink(x)",
        "ms.ops.functional.matrix_determinant(x)",
        "ms.dtype_to_nptype(x.dtype)",
    ],
)
def test_a_mindspore_function_whose_body_calls_mindspore_log_is_reported(tmp_path, line):
    assert flagged(tmp_path, line) == {("uncompilable-mindspore-function", f"return {line}")}


@pytest.mark.parametrize(
    "line",
    [
        "ops.det(x)",
        "ops.softshrink(x)",
        "ops.batch_dot(x, x)",  # @deprecated: the parser unwraps it, and the body compiles
        "ops.padding(x)",
    ],
)
def test_a_mindspore_function_that_compiles_is_not_reported(tmp_path, line):
    assert flagged(tmp_path, line) == set()


def test_the_uncompilable_message_names_the_function_and_the_version(tmp_path):
    source = HEADER + DRIVEN.format(call="ops.matrix_determinant(x)")
    (finding,) = [f for f in check_source(tmp_path, source)
                  if f.rule.symbol == "uncompilable-mindspore-function"]
    assert "mindspore.ops.matrix_determinant" in finding.message
    assert "calls mindspore.log in MindSpore 2.10" in finding.message


def test_the_target_version_decides_which_api_is_there():
    """ops.transpose's keyword was input_perm up to 2.7 and is dims from 2.8 (MindSpore 2.7.0,
    2.8.0 and 2.10.0 compile the sample's call as these say); the finding names both."""
    from msgraphlint.cli import app
    from typer.testing import CliRunner

    sample = str(SAMPLES / "mindspore_call_mismatch_bad.py")

    def reported(target: str) -> list[str]:
        result = CliRunner().invoke(app, ["check", "--no-cache", "--format", "json",
                                          "--target-version", target, sample])
        return [f["message"] for f in json.loads(result.stdout)
                if "transpose" in f["message"]]

    (newest,) = reported("2.10")
    assert "input_perm" in newest and "2.7 takes the call, 2.8 to 2.10 do not" in newest
    assert reported("2.7") == []
    assert reported("2.8.0") == [newest.replace("2.10.0", "2.8.0")]


def test_an_unknown_target_version_is_a_configuration_error():
    from msgraphlint.cli import app
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["check", "--target-version", "1.9", str(SAMPLES)])
    assert result.exit_code == 2
    assert "no API snapshot of MindSpore 1.9; there are: 2.7, 2.8, 2.9, 2.10" in result.stderr


def test_a_tensor_an_init_helper_returns_in_a_tuple_is_bound(tmp_path):
    """Reduced from mindflow's FNO: __init__ unpacks a helper's tuple, whose first item is a
    Tensor on every path that returns (MindSpore 2.10 rejects the repeat at every level)."""
    body = """
import numpy as np
from mindspore import Tensor


class Net(nn.Cell):
    def __init__(self, n):
        super().__init__()
        self.grid, self.perm = self._make(n)

    def _make(self, n):
        if n == 1:
            grid = Tensor(np.ones((1, 4, 1), np.float32))
            perm = (0, 2, 1)
        elif n == 2:
            grid = Tensor(np.ones((1, 4, 4, 1), np.float32))
            perm = (0, 3, 1, 2)
        else:
            raise ValueError(n)
        return grid, perm

    def construct(self, x):
        return self.grid.repeat(x.shape[0], axis=0), self.perm.count(0)
"""
    assert findings_on_lines(tmp_path, HEADER, body, SYMBOLS) == {
        ("tensor-method-mismatch", "return self.grid.repeat(x.shape[0], axis=0), self.perm.count(0)")}
    # The same helper returning something else on one path: not known, not bound.
    unknown = body.replace("            raise ValueError(n)", "            grid, perm = n, ()")
    assert findings_on_lines(tmp_path, HEADER, unknown, SYMBOLS) == set()


@pytest.mark.parametrize(
    "call, shape, reported",
    [
        ("x.repeat(2, 1)", "(2, 3, 4)", True),  # numpy's repeat(n, axis): two counts for 3-D
        ("x.repeat((2, 1))", "(2, 3, 4)", True),
        ("x.repeat(2, 1, 1)", "(2, 3, 4)", False),  # one count per dimension
        ("x.repeat(2, 1)", "(2, 3)", False),  # binds on 2-D (no CPU kernel, but it compiles)
        ("x.repeat(*counts)", "(2, 3, 4)", False),  # spread: the count is not known
    ],
)
def test_repeat_with_fewer_counts_than_dimensions(tmp_path, call, shape, reported):
    body = f"""
import numpy as np
from mindspore import Tensor


class Net(nn.Cell):
    def construct(self, x, *counts):
        return {call}


def main():
    Net()(Tensor(np.ones({shape}, np.float32)))
"""
    found = findings_on_lines(tmp_path, HEADER, body, {"repeat-count-below-rank"})
    assert found == ({("repeat-count-below-rank", f"return {call}")} if reported else set())


def test_the_rank_of_a_tensor_declared_with_a_shape_is_known(tmp_path):
    body = """
import mindspore as ms
from mindspore import Tensor
from mindspore.common.initializer import Zero


class Net(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.pad = Tensor(shape=(1, channels, 4, 2), dtype=ms.float32, init=Zero())

    def construct(self, x):
        return self.pad.repeat(x.shape[0], 0)
"""
    assert findings_on_lines(tmp_path, HEADER, body, {"repeat-count-below-rank"}) == {
        ("repeat-count-below-rank", "return self.pad.repeat(x.shape[0], 0)")}



COMPILE_ALL = """
import json, sys
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.LAX)
from pairs_module import CELLS
x = Tensor(np.full((2, 3), 0.5, np.float32))
verdicts = {}
for name, cell in CELLS.items():
    try:
        cell()(x)
        verdicts[name] = "compiled"
    except Exception as error:  # the compiler's own rejection, whatever its type
        verdicts[name] = f"rejected: {type(error).__name__}: {str(error).splitlines()[0][:200]}"
json.dump(verdicts, sys.stdout)
"""


@pytest.mark.compiler
def test_mindspore_rejects_every_bad_call_and_compiles_every_good_one(tmp_path):
    """Every pair of the table, compiled at LAX in one child process (a binding error is a
    rejection at every level: the samples' subset is compiled at all three in test_compiler)."""
    pytest.importorskip("mindspore")
    lines = ["import mindspore as ms", "from mindspore import nn, ops", "CELLS = {}"]
    for index, (name, bad, good) in enumerate(TABLE.CASES):
        for kind, call in (("bad", bad), ("good", good)):
            lines += [f"class C{index}_{kind}(nn.Cell):", "    def construct(self, x):",
                      f"        return {call}", f"CELLS['{name}-{kind}'] = C{index}_{kind}"]
    (tmp_path / "pairs_module.py").write_text("\n".join(lines) + "\n", "utf-8")
    done = subprocess.run([sys.executable, "-c", COMPILE_ALL], cwd=tmp_path, capture_output=True,
                          text=True, timeout=900, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-3000:]
    verdicts = json.loads(done.stdout)
    wrong = {name: verdict for name, verdict in verdicts.items()
             if (verdict == "compiled") != name.endswith("-good")}
    assert wrong == {}
    assert len(verdicts) == 2 * len(TABLE.CASES) >= 80


@pytest.mark.parametrize("body, flagged", [
    # x[:, 1:] shows x is a tensor (no tuple, list or dict takes a tuple index holding a slice)
    # and the view names four dimensions
    ("return x[:, 1:].view(n, 2, 1, -1).repeat(n, 2)", True),
    ("return x[..., 0].view((n, 2, 1, -1)).repeat(n, 2)", True),
    ("y = x[:, 1:].squeeze(1); return y.reshape(n, 2, 1, -1).repeat(n, 2)", True),
    # a slice alone says nothing of x
    ("y = x[:, 1:]; return y.reshape(n, 2, 1, -1).repeat(n, 2)", False),
    # four counts; a view of the dtype; a view whose sizes are unpacked; a dict's tuple key
    ("return x[:, 1:].view(n, 2, 1, -1).repeat(n, 2, 1, 1)", False),
    ("return x[:, 1:].view(ms.float16).repeat(n, 2)", False),
    ("return x[:, 1:].view(*sizes).repeat(n, 2)", False),
    ("return x[(0, n)].view(n, 2, 1, -1).repeat(n, 2)", False),
])
def test_a_reshape_of_a_tensor_names_its_rank(tmp_path, body, flagged):
    header = """
        import mindspore as ms
        from mindspore import nn

        def expand(x, n, sizes):
        """
    source = f"""{header}    {body}


        class Net(nn.Cell):
            def construct(self, x, n):
                return expand(x, n, (2, 2))
        """
    findings = check_source(tmp_path, textwrap.dedent(source))
    assert not [f for f in findings if f.rule.symbol == "syntax-error"]
    found = [f.message for f in findings if f.rule.symbol == "repeat-count-below-rank"]
    assert bool(found) is flagged, found


@pytest.mark.parametrize("check, flagged", [
    # a check statement with nothing but tensor classes and strings, or isinstance that raises
    ('check_type(latent, "latent", data_type=ms.Parameter)', True),
    ('check_type(latent, "latent", (ms.Parameter, ms.Tensor))', True),
    ("if not isinstance(latent, ms.Tensor): raise TypeError('latent')", True),
    # another type allowed, a shape read (numpy arrays have shapes), a check of something else
    ('check_type(latent, "latent", data_type=(ms.Parameter, np.ndarray))', False),
    ("self.size = latent.shape[0]", False),
    ('check_type(other, "other", data_type=ms.Parameter)', False),
])
def test_an_argument_checked_to_be_a_parameter_is_a_tensor_where_it_is_held(tmp_path, check, flagged):
    source = textwrap.dedent(f"""
        import numpy as np
        import mindspore as ms
        from mindspore import nn
        from helpers import check_type

        class Latent(nn.Cell):
            def __init__(self, latent, other=None):
                super().__init__()
                self.latent = latent
                if latent is not None:
                    {check}

            def construct(self, x):
                if self.latent is not None:
                    return x + self.latent.view(1, -1).repeat(2, axis=0)
                return x
        """)
    findings = check_source(tmp_path, source)
    assert not [f for f in findings if f.rule.symbol == "syntax-error"]
    found = [f for f in findings if f.rule.symbol == "tensor-method-mismatch"]
    assert bool(found) is flagged, [f.message for f in found]


def test_a_method_parameter_defines_itself_is_not_bound_as_tensors_on_what_may_be_a_parameter(tmp_path):
    """Parameter.clone(init=...) is not Tensor.clone(): on a Cell's attribute or a name it is
    not bound; on a tensor an expression computes (never a Parameter) it is."""
    source = textwrap.dedent("""
        import numpy as np
        from mindspore import Parameter, Tensor, nn

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")

            def construct(self, x):
                y = self.w.clone(init="same")
                z = (self.w * 2).clone(init="same")
                return x + y + z
        """)
    found = [f.line for f in check_source(tmp_path, source) if f.rule.symbol == "tensor-method-mismatch"]
    assert found == [12]  # z, not y
