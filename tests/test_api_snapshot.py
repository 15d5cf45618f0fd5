"""The public-API snapshot (msgraphlint/knowledge/data/api/mindspore-<version>.json): which names MindSpore's modules
have and what their calls bind to, read from MindSpore 2.10 so the static path never imports it.

The facts below were checked against the installed MindSpore 2.10.0 (CPU) before being written.
"""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest

from msgraphlint.knowledge import api_snapshot

from .samples_index import ROOT

REQUIRED_MODULES = (
    "mindspore", "mindspore.ops", "mindspore.nn", "mindspore.mint", "mindspore.mint.nn",
    "mindspore.mint.nn.functional", "mindspore.ops.functional", "mindspore.Tensor",
)
PARAMETER_KINDS = {"positional_only", "positional_or_keyword", "var_positional", "keyword_only",
                   "var_keyword"}


def params(module: str, name: str) -> list[str]:
    return [param[0] for param in api_snapshot.load()[module][name]["params"]]


def snapshot_entry(module: str, name: str) -> dict:
    return api_snapshot.load()[module][name]


def test_snapshot_loads_and_is_well_formed():
    snapshot = api_snapshot.load()
    assert snapshot["mindspore_version"]
    assert set(REQUIRED_MODULES) <= set(api_snapshot.module_keys(snapshot))
    for module in api_snapshot.module_keys(snapshot):
        for name, entry in snapshot[module].items():
            assert entry["kind"] in {"function", "class", "module", "other"}, (module, name)
            if "params" in entry:
                assert entry["kind"] in {"function", "class"}, (module, name)
                for param_name, kind, has_default in entry["params"]:
                    assert isinstance(param_name, str) and kind in PARAMETER_KINDS
                    assert isinstance(has_default, bool)


def test_load_does_not_import_mindspore():
    code = ("import sys; from msgraphlint.knowledge import api_snapshot; api_snapshot.load(); "
            "assert 'mindspore' not in sys.modules, 'load() imported mindspore'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_ops_pad_takes_padding_not_paddings():
    # ops.pad(input_x, padding, mode='constant', value=None); `paddings` is the ops.Pad primitive's.
    assert params("mindspore.ops", "pad") == ["input_x", "padding", "mode", "value"]
    assert params("mindspore.ops", "Pad") == ["paddings"]


@pytest.mark.parametrize("name", ["ResizeBilinear", "concatcat"])
def test_ops_has_no_made_up_or_removed_names(name):
    assert name not in api_snapshot.load()["mindspore.ops"]


def test_the_resize_names_2_10_has():
    snapshot = api_snapshot.load()
    assert params("mindspore.ops", "ResizeBilinearV2") == ["align_corners", "half_pixel_centers"]
    assert snapshot["mindspore.ops"]["ResizeBilinearV2"]["kind"] == "class"
    assert "interpolate" in snapshot["mindspore.ops"]
    assert "ResizeBilinear" not in snapshot["mindspore.nn"]


def test_nn_dense_signature():
    assert snapshot_entry("mindspore.nn", "Dense")["kind"] == "class"
    assert {"in_channels", "out_channels", "has_bias"} <= set(params("mindspore.nn", "Dense"))


def test_mint_cat():
    assert params("mindspore.mint", "cat") == ["tensors", "dim"]


def test_signatures_hidden_by_pass_through_decorators_are_recovered():
    # nn.Adam.__init__ is wrapped by opt_init_args_register, mint.reshape by jit_view_unsupported:
    # neither uses functools.wraps.
    assert params("mindspore.nn", "Adam")[:2] == ["params", "learning_rate"]
    assert params("mindspore.mint", "reshape") == ["input", "shape"]


def test_unknown_signatures_have_no_params():
    # mint.add is a generated overload taking (*args, **kwargs); Tensor.abs is a C++ method.
    assert "params" not in snapshot_entry("mindspore.mint", "add")
    assert "params" not in snapshot_entry("mindspore.Tensor", "abs")


def test_tensor_methods_drop_self():
    assert params("mindspore.Tensor", "addcmul") == ["tensor1", "tensor2", "value"]
    assert params("mindspore.Tensor", "from_numpy") == ["array"]  # a staticmethod: nothing dropped
    assert snapshot_entry("mindspore.Tensor", "shape") == {"kind": "other"}


def test_names_all_lists_but_the_module_lacks_are_kept_apart():
    # MindSpore 2.10's mint.__all__ also lists mint.nn's classes: `mint.Linear` is no attribute.
    snapshot = api_snapshot.load()
    assert "Linear" in snapshot["unresolved_all"]["mindspore.mint"]
    assert "Linear" not in snapshot["mindspore.mint"]
    assert "Linear" in snapshot["mindspore.mint.nn"]


def test_unimported_submodules_are_listed():
    assert snapshot_entry("mindspore", "scipy") == {"kind": "module"}


def test_differences_summarise_a_stale_snapshot():
    current = api_snapshot.load()
    stale = copy.deepcopy(current)
    del stale["mindspore.ops"]["pad"]
    stale["mindspore.nn"]["Dense"]["params"].pop()
    assert api_snapshot.differences(current, current) == []
    assert api_snapshot.differences(stale, current) == [
        "mindspore.nn: ~1 (Dense)", "mindspore.ops: +1 (pad)",
    ]


def test_snapshot_matches_the_installed_mindspore():
    pytest.importorskip("mindspore")
    current = api_snapshot.take()
    assert api_snapshot.differences(api_snapshot.load(), current) == []
    assert current == api_snapshot.load()


def test_check_command_agrees():
    """`python -m msgraphlint.knowledge.api_snapshot --check` in a fresh process: exit 0, nothing printed."""
    pytest.importorskip("mindspore")
    done = subprocess.run(
        [sys.executable, "-m", "msgraphlint.knowledge.api_snapshot", "--check"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
