"""third-party: host library calls on constants (advice) versus on tensor values."""

from __future__ import annotations

from .engine_helpers import findings_on_lines

FAMILY = {"host-call-on-tensor", "numpy-on-constants", "numpy-reduction-on-tensor"}
HEADER = """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
"""


def findings(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER, body, FAMILY)


def test_numpy_on_the_output_of_a_shape_primitive_is_on_constants(tmp_path):
    # Audit false alarm (mindformers/models/llama/llama.py:367): bs, seq_len = self.shape(tokens)
    # with self.shape = ops.Shape(); np.zeros((bs, ...)) compiles at STRICT and LAX (MindSpore 2.10).
    got = findings(tmp_path, """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.shape = ops.Shape()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        bs, seq_len = self.shape(x)
        mask = Tensor(np.zeros((bs, 1, seq_len)), dtype=x.dtype)
        y = self.dense(x)
        return mask, np.tanh(y)
""")
    assert got == {
        ("numpy-on-constants", "mask = Tensor(np.zeros((bs, 1, seq_len)), dtype=x.dtype)"),
        ("host-call-on-tensor", "return mask, np.tanh(y)"),
    }


def test_numpy_on_a_tensor_is_still_a_host_call(tmp_path):
    got = findings(tmp_path, """
class Net(nn.Cell):
    def construct(self, x):
        return Tensor(np.cumsum(x))
""")
    assert got == {("host-call-on-tensor", "return Tensor(np.cumsum(x))")}


def test_counts_and_ranks_read_from_a_tensor_are_ints_while_compiling(tmp_path):
    """x.numel(), x.dim() and their kin are known while compiling, like x.shape: numpy on them
    compiles at STRICT (probed with 2.10), so it is numpy on constants, here, through a local and
    in a helper; the tensor's values (x.sum()) still are a host call on a tensor."""
    got = findings(tmp_path, """
def scale_for(count):
    return 1.0 / np.sqrt(count)


class Net(nn.Cell):
    def construct(self, x):
        n = x.numel()
        pads = np.zeros(x.dim())
        flags = np.array([x.is_floating_point(), x.is_signed(), ops.is_complex(x)])
        k = np.sqrt(ops.numel(x) + x.ndimension() + x.nelement())
        return x * scale_for(n) * k * len(pads) * len(flags), np.sqrt(x.sum())
""")
    assert got == {
        ("numpy-on-constants", "return 1.0 / np.sqrt(count)"),
        ("numpy-on-constants", "pads = np.zeros(x.dim())"),
        ("numpy-on-constants", "flags = np.array([x.is_floating_point(), x.is_signed(), ops.is_complex(x)])"),
        ("numpy-on-constants", "k = np.sqrt(ops.numel(x) + x.ndimension() + x.nelement())"),
        ("host-call-on-tensor", "return x * scale_for(n) * k * len(pads) * len(flags), np.sqrt(x.sum())"),
    }


def test_parameters_annotated_as_plain_python_are_not_tensors(tmp_path):
    """`adapter_names: list[str]` (peft's LoRA layers) is a list of strings, not a tensor;
    `Optional[Tensor]` still is one."""
    path = tmp_path / "net.py"
    path.write_text(
        "from typing import Optional\nfrom mindspore import nn, Tensor\n\n"
        "class Lora(nn.Cell):\n"
        "    def construct(self, x, names: list[str] = None, t: Optional[Tensor] = None):\n"
        "        unique = set(names)\n"
        "        other = set(t)\n"
        "        return x\n"
    )
    from msgraphlint.pipeline import new_engine

    found = [(f.rule.symbol, f.line) for f in new_engine().check_file(path)]
    assert found == [("host-call-on-tensor", 7)]


# ----- MindSpore's third-party rule: what it compiles and what it calls through fallback --------

EINOPS_AND_MATH = """
import math
import einops
from mindspore import nn

class Net(nn.Cell):
    def construct(self, x):
        y = einops.rearrange(x, "b c -> c b")
        return y * math.sqrt(x.sum())
"""


def _host_calls(tmp_path, monkeypatch, environ: dict[str, str], pyproject: str = "") -> list[str]:
    from msgraphlint.cli import app
    from typer.testing import CliRunner
    import json

    for name in ("MS_JIT_MODULES", "MS_JIT_IGNORE_MODULES"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n" + pyproject)
    (tmp_path / "net.py").write_text(EINOPS_AND_MATH)
    result = CliRunner().invoke(app, ["check", str(tmp_path / "net.py"), "--no-cache", "--format", "json",
                                      "--config", str(tmp_path / "pyproject.toml")])
    return sorted(f["message"].split("'")[1] for f in json.loads(result.stdout)
                  if f["symbol"] == "host-call-on-tensor")


def test_the_standard_library_is_called_through_fallback_and_other_packages_are_compiled(tmp_path, monkeypatch):
    """math is standard library (third-party to MindSpore); einops is neither standard nor on
    MindSpore's whitelist, so MindSpore compiles it like the project's own code."""
    assert _host_calls(tmp_path, monkeypatch, {}) == ["math.sqrt"]


def test_ms_jit_ignore_modules_and_ms_jit_modules_are_honoured(tmp_path, monkeypatch):
    assert _host_calls(tmp_path, monkeypatch, {"MS_JIT_IGNORE_MODULES": "einops"}) == [
        "einops.rearrange", "math.sqrt"]
    assert _host_calls(tmp_path, monkeypatch, {"MS_JIT_MODULES": "math"}) == []


def test_the_jit_module_lists_can_live_in_pyproject(tmp_path, monkeypatch):
    settings = '\n[tool.msgraphlint]\njit-ignore-modules = ["einops"]\njit-modules = ["math"]\n'
    assert _host_calls(tmp_path, monkeypatch, {}, settings) == ["einops.rearrange"]


def test_graph_implemented_standard_functions_are_not_host_calls():
    from msgraphlint.knowledge.fallback import JitModules

    modules = JitModules()
    assert not modules.is_fallback("operator.add") and not modules.is_fallback("functools.partial")
    assert modules.is_fallback("functools.reduce") and modules.is_fallback("numpy.sum")
    assert not modules.is_fallback("mindspore.ops.add") and not modules.is_fallback("einops.rearrange")


def test_a_bad_jit_module_list_is_a_clean_configuration_error(tmp_path):
    from msgraphlint.config import ConfigError, from_pyproject
    import pytest

    (tmp_path / "pyproject.toml").write_text('[tool.msgraphlint]\njit-modules = "einops"\n')
    with pytest.raises(ConfigError, match="jit-modules"):
        from_pyproject(tmp_path / "pyproject.toml")


def test_a_project_module_named_like_the_standard_library_is_compiled(tmp_path):
    """MindSpore decides by the module's file: the project's own code.py is compiled code."""
    from .engine_helpers import check_source

    (tmp_path / "code.py").write_text("def scale(x):\n    return x * 2\n")
    source = (
        "from mindspore import nn\n"
        "from code import scale\n"
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        return scale(x)\n"
    )
    assert [f.rule.symbol for f in check_source(tmp_path, source)] == []


def test_the_length_of_a_host_array_made_from_a_tensor_is_known_only_at_run_time(tmp_path):
    # Audit, mindformers csa.py:388-389: `valid` is a numpy array a helper builds from the
    # tensor's data, so len(valid) is data and np.full((n, width)) is host code on it; the
    # length of the tensor itself is its static shape.
    got = findings(tmp_path, """
def blocks(ends):
    count = ends[-1] // 4
    return np.zeros(count, bool), np.full(count, -1)


class Net(nn.Cell):
    def construct(self, x):
        ends = np.unique(x.asnumpy()).tolist()
        valid, owner = blocks(ends)
        width = len(valid)
        rows = len(x)
        grid = np.full((rows, width), -1)
        ranks = np.arange(rows)
        return Tensor(grid), Tensor(ranks), x.shape
""")
    assert got == {
        ("host-call-on-tensor", "ends = np.unique(x.asnumpy()).tolist()"),
        ("host-call-on-tensor", "return np.zeros(count, bool), np.full(count, -1)"),
        ("host-call-on-tensor", "grid = np.full((rows, width), -1)"),
        ("numpy-on-constants", "ranks = np.arange(rows)"),
    }


def test_a_helper_is_host_only_where_its_arguments_make_it_so(tmp_path):
    # Review of the host-value model: a helper given constants returns a constant array, and one
    # element of a returned pair may be host while the other is a tensor; numpy's own pairs are
    # host values too.
    got = findings(tmp_path, """
def make_mask(n):
    return np.triu(np.ones((n, n)))


def scale_and_mask(x, n):
    return x * 2, np.ones(n)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.n = 4

    def construct(self, x):
        k = len(make_mask(self.n))
        y, m = scale_and_mask(x, self.n)
        vals, counts = np.unique(x.asnumpy(), return_counts=True)
        a = np.ones(k)
        b = np.zeros(len(m))
        c = np.zeros(len(vals))
        return Tensor(a), Tensor(b), Tensor(c), y
""")
    assert got == {
        ("numpy-on-constants", "return np.triu(np.ones((n, n)))"),
        ("numpy-on-constants", "return x * 2, np.ones(n)"),
        ("host-call-on-tensor", "vals, counts = np.unique(x.asnumpy(), return_counts=True)"),
        ("numpy-on-constants", "a = np.ones(k)"),
        ("numpy-on-constants", "b = np.zeros(len(m))"),
        ("host-call-on-tensor", "c = np.zeros(len(vals))"),
    }


def test_what_a_plain_helper_gives_back_is_followed(tmp_path):
    # h and w come back from the input's shape: compile-time ints, as from a method or a
    # sub-Cell; the tensor the same helper returns stays an input's.
    got = findings(tmp_path, """
def spatial(x):
    return x.shape[2], x.shape[3]


def flatten_with_size(x):
    return x.reshape(x.shape[0], -1), x.shape[1]


class Net(nn.Cell):
    def construct(self, x):
        h, w = spatial(x)
        grid = np.zeros((h, w))
        flat, channels = flatten_with_size(x)
        ones = np.ones(channels)
        total = np.sum(flat)
        return Tensor(grid), Tensor(ones), total
""")
    assert got == {
        ("numpy-on-constants", "grid = np.zeros((h, w))"),
        ("numpy-on-constants", "ones = np.ones(channels)"),
        ("numpy-reduction-on-tensor", "total = np.sum(flat)"),
    }


def test_returns_of_a_function_defined_in_a_helper_are_not_the_helpers(tmp_path):
    # rows's own return is a shape, a compile-time int; the bare `return` and the `yield` of
    # the functions it defines say nothing of it
    got = findings(tmp_path, """
def rows(x):
    def log():
        return
    def each():
        yield 1
    return x.shape[0]


class Net(nn.Cell):
    def construct(self, x):
        n = rows(x)
        return Tensor(np.zeros(n)), x
""")
    assert got == {("numpy-on-constants", "return Tensor(np.zeros(n)), x")}


# ----- jit-typing-comment -------------------------------------------------------------------

TYPING = {"jit-typing-comment"}


def typing_findings(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER + "import math\nfrom mindspore import jit\n", body, TYPING)


def test_an_unreadable_typing_comment_on_interpreted_host_code_is_flagged(tmp_path):
    assert typing_findings(tmp_path, """
@jit
def f(x):
    a = np.exp(x)  # @jit.typing: () -> tensor_type[float33]
    b = x.asnumpy()  # @jit.typing: () -> float32[int32]
    # @jit.typing: () -> tuple_[list_]
    c = x.asnumpy()
    d = Tensor(np.sum(x.asnumpy()))  # @jit.typing: () -> tensor_type[string]
    e = x.asnumpy()  # @jit.typing: () -> Float32
    return a, b, c, d, e

class Net(nn.Cell):
    def construct(self, x):
        return x.asnumpy()  # @jit.typing: () -> list_[type_none]
""") == {
        ("jit-typing-comment", "a = np.exp(x)  # @jit.typing: () -> tensor_type[float33]"),
        ("jit-typing-comment", "b = x.asnumpy()  # @jit.typing: () -> float32[int32]"),
        ("jit-typing-comment", "c = x.asnumpy()"),
        ("jit-typing-comment", "d = Tensor(np.sum(x.asnumpy()))  # @jit.typing: () -> tensor_type[string]"),
        ("jit-typing-comment", "e = x.asnumpy()  # @jit.typing: () -> Float32"),
        ("jit-typing-comment", "return x.asnumpy()  # @jit.typing: () -> list_[type_none]"),
    }


def test_readable_ignored_or_uninterpreted_typing_comments_are_not_flagged(tmp_path):
    assert typing_findings(tmp_path, """
@jit
def f(x):
    dt = ms.int32
    a = x.asnumpy()  # @jit.typing: () -> tensor_type[float32]
    b = x.asnumpy()  # @jit.typing: () -> list_[tensor_type[float32]]
    c = x.asnumpy()  # @jit.typing: () -> tensor_type[{dt}]
    d = x.asnumpy()  # @jit.typing: (x) -> tensor_type[float33]
    e = x.asnumpy()  # @jit.typing: () -> float32
    g = np.ones(3)  # @jit.typing: () -> tensor_type[float33]
    h = ops.relu(x)  # @jit.typing: () -> tensor_type[float33]
    i = x.tolist()  # @jit.typing: () -> tensor_type[float33]
    # @jit.typing: () -> tensor_type[float33]

    j = x.asnumpy()
    k = x.asnumpy()  # note: @jit.typing: () -> tensor_type[float33]
    return a, b, c, d, e, g, h, i, j, k
""") == set()


def test_a_typing_comment_is_judged_by_what_the_callers_pass(tmp_path):
    # A helper given a tensor runs np.exp in the interpreter; a jit function the driver gives an
    # int folds math.sqrt while compiling, and never reads the comment.
    assert typing_findings(tmp_path, """
def helper(v):
    return np.exp(v)  # @jit.typing: () -> tensor_type[float33]

class Net(nn.Cell):
    def construct(self, x):
        return helper(x)

@jit
def root(n):
    return math.sqrt(n)  # @jit.typing: () -> tensor_type[float33]

def run():
    return root(4), Net()(Tensor(np.ones(3, np.float32)))
""") == {("jit-typing-comment", "return np.exp(v)  # @jit.typing: () -> tensor_type[float33]")}


def test_a_numpy_reduction_of_a_host_array_is_numpys_own(tmp_path):
    # np.max(idx.asnumpy()) reduces a numpy array, not a tensor: no tensor method is called with
    # numpy's keywords, and LAX compiles it through the interpreter (probed with 2.10: the Cell's
    # gradient is 0 where PyNative's is 1). np.max(idx) on the tensor itself is the tensor's method.
    got = findings(tmp_path, """
class Net(nn.Cell):
    def construct(self, x, idx):
        k = int(np.max(idx.asnumpy()))
        host = idx.asnumpy()
        m = np.sum(host)
        return x * k * m, np.max(idx)
""")
    assert got == {
        ("host-call-on-tensor", "k = int(np.max(idx.asnumpy()))"),
        ("host-call-on-tensor", "m = np.sum(host)"),
        ("numpy-reduction-on-tensor", "return x * k * m, np.max(idx)"),
    }
