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


def test_every_release_has_a_snapshot_and_the_default_is_the_installed_or_newest():
    assert api_snapshot.versions() == ("2.7", "2.8", "2.9", "2.10")
    installed = api_snapshot.installed_version()
    expected = installed if installed in api_snapshot.versions() else "2.10"
    assert api_snapshot.default_version() == expected
    assert api_snapshot.resolve_version("2.8.0") == "2.8"
    with pytest.raises(ValueError, match="no API snapshot of MindSpore 3.0"):
        api_snapshot.resolve_version("3.0")


@pytest.mark.parametrize("release", ["2.7", "2.8", "2.9", "2.10"])
def test_snapshot_loads_and_is_well_formed(release):
    snapshot = api_snapshot.load(release)
    assert snapshot["mindspore_version"].startswith(release + ".")
    assert set(REQUIRED_MODULES) <= set(api_snapshot.module_keys(snapshot))
    for module in api_snapshot.module_keys(snapshot):
        for name, entry in snapshot[module].items():
            assert entry["kind"] in {"function", "class", "module", "other"}, (module, name)
            if "params" in entry:
                assert entry["kind"] in {"function", "class"}, (module, name)
                for param_name, kind, has_default in entry["params"]:
                    assert isinstance(param_name, str) and kind in PARAMETER_KINDS
                    assert isinstance(has_default, bool)
            for form in entry.get("overloads", []):
                assert entry["kind"] == "function", (module, name)
                for param_name, kind, has_default, types in form:
                    assert isinstance(param_name, str) and kind in PARAMETER_KINDS
                    assert isinstance(has_default, bool) and isinstance(types, list)


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


def test_tensor_methods_keep_the_calling_forms_mindspore_lists():
    """Read from 2.10's own "valid calling" lists and docstrings (probed: each form compiles)."""
    tensor = api_snapshot.load("2.10")["mindspore.Tensor"]

    def forms(name):
        return {tuple((p[0], p[1]) for p in form) for form in tensor[name]["overloads"]}

    assert (("repeats", "var_positional"),) in forms("repeat")
    assert (("dim", "positional_or_keyword"), ("keepdim", "positional_or_keyword"),
            ("dtype", "keyword_only")) in forms("sum")
    assert (("axis", "positional_or_keyword"), ("dtype", "positional_or_keyword"),
            ("keepdims", "positional_or_keyword"), ("initial", "positional_or_keyword")) in forms("sum")
    # A Python method binds in a graph as the graph's own function: standard_method.amax.
    assert forms("amax") == {(("axis", "positional_or_keyword"), ("keep_dims", "positional_or_keyword"))}


def test_the_api_moved_between_releases():
    """Facts read from the 2.7 and 2.10 wheels (and compiled with both)."""
    old, new = api_snapshot.load("2.7"), api_snapshot.load("2.10")
    assert [p[0] for p in old["mindspore.ops"]["transpose"]["params"]] == ["input", "input_perm"]
    assert [p[0] for p in new["mindspore.ops"]["transpose"]["params"]] == ["input", "dims"]
    assert "chunk_ext" in old["mindspore.ops"] and "chunk_ext" not in new["mindspore.ops"]


def test_overloaded_functions_keep_the_forms_their_parser_lists():
    """mint.add and mint.max are (*args, **kwargs) wrappers: their C++ parser names the forms."""
    mint = api_snapshot.load("2.10")["mindspore.mint"]
    names = lambda name: {tuple(p[0] for p in form) for form in mint[name]["overloads"]}
    assert ("input", "dim", "keepdim") in names("max") and ("input", "other") in names("max")
    assert ("input", "other", "alpha") in names("add")
