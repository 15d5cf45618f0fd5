"""--fix, --unsafe-fixes and --diff (docs/fixes.md): exact rewrites that never make a file worse.

Every fixable rule's bad sample is fixed in a scratch copy and compared with its expected fixed
file, tests/fixed/<family>/<symbol>_bad.py (rewritten by `pytest --update-expected`); the fixed
file parses, has none of the findings the fixes were for, and a second --fix changes nothing.
tests/test_compiler.py compiles the fixed files with the real MindSpore.
"""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path

import pytest

from msgraphlint.knowledge import catalogue
from msgraphlint import pipeline
from msgraphlint.config import Config
from msgraphlint.engine.cache import ResultCache
from msgraphlint.syntax.project import Project

from .conftest import UPDATE_EXPECTED, changed_expected_files
from .samples_index import ROOT, sample_path
from .test_cli import run as run_cli

FIXED = Path(__file__).resolve().parent / "fixed"
FIXABLE = [rule for rule in catalogue.rules() if rule.autofix]


def fixed_copy(rule) -> Path:
    return FIXED / rule.family.replace("-", "_") / f"{rule.symbol.replace('-', '_')}_bad.py"


def fix(paths, unsafe: bool = True, diff: bool = False) -> pipeline.Outcome:
    request = pipeline.Request(list(paths), Config(), jobs=1, use_cache=False, progress=False,
                               fix=True, unsafe_fixes=unsafe, diff=diff)
    return pipeline.run(request)


def scratch(tmp_path: Path, source: Path) -> Path:
    target = tmp_path / source.name
    shutil.copyfile(source, target)
    return target


@pytest.mark.parametrize("rule", FIXABLE, ids=lambda r: r.symbol)
def test_fixable_rule_fixes_its_bad_sample_exactly(rule, tmp_path, request):
    path = scratch(tmp_path, sample_path(rule, "bad"))
    outcome = fix([path])
    assert any(f.rule_id == rule.id for f in outcome.fixed), "no fix of this rule was applied"
    assert not any(f.rule_id == rule.id and f.fix for f in outcome.findings)
    text = path.read_text("utf-8")
    compile(text, str(path), "exec")  # it parses
    expected = fixed_copy(rule)
    if request.config.getoption(UPDATE_EXPECTED):
        if not expected.is_file() or expected.read_text("utf-8") != text:
            expected.parent.mkdir(parents=True, exist_ok=True)
            expected.write_text(text, "utf-8")
            changed_expected_files(request.config).append(("wrote", str(expected.relative_to(ROOT))))
        return
    assert expected.is_file(), f"no {expected}: run pytest tests/test_fix.py --update-expected"
    assert text == expected.read_text("utf-8"), "".join(difflib.unified_diff(
        expected.read_text("utf-8").splitlines(True), text.splitlines(True), "expected", "fixed"))
    again = fix([path])
    assert again.fixed == [] and path.read_text("utf-8") == text  # a second --fix changes nothing


def test_every_fixed_file_belongs_to_a_fixable_rule():
    stray = sorted({p for p in FIXED.rglob("*.py")} - {fixed_copy(rule) for rule in FIXABLE})
    assert stray == []


def test_safe_fixes_only_unless_unsafe_ones_are_asked_for(tmp_path):
    path = scratch(tmp_path, sample_path(catalogue.rule("host-call-on-tensor"), "bad"))
    before = path.read_text("utf-8")
    outcome = fix([path], unsafe=False)
    assert outcome.fixed == [] and path.read_text("utf-8") == before
    assert any(f.fix and f.fix.applicability == "unsafe" for f in outcome.findings)
    assert fix([path], unsafe=True).fixed


def test_diff_writes_nothing_and_exits_1(tmp_path):
    path = scratch(tmp_path, sample_path(catalogue.rule("detach-call"), "bad"))
    before = path.read_text("utf-8")
    code, out, err = run_cli("check", str(path), "--diff", "--no-cache")
    assert code == 1
    assert "-        return x * x.detach()" in out and "+        return x * ops.stop_gradient(x)" in out
    assert "would fix 2 problems in 1 file" in err
    assert path.read_text("utf-8") == before
    fix([path])
    code, out, err = run_cli("check", str(path), "--diff", "--no-cache")
    assert (code, out) == (0, "") and "nothing to fix" in err


def test_text_marks_what_fix_would_fix_and_counts_it(tmp_path):
    path = scratch(tmp_path, sample_path(catalogue.rule("tensor-size-call"), "bad"))
    code, out, _ = run_cli("check", str(path), "--no-cache", "--no-color")
    assert code == 1
    assert out.count("E8765 tensor-size-call [*] ") == 2
    assert "[*] 2 fixable with --fix." in out
    code, out, _ = run_cli("check", str(path), "--fix", "--no-cache", "--no-color")
    assert code == 0 and "Fixed 2 problems. No problems found" in out


def test_json_and_sarif_carry_the_fix(tmp_path):
    path = scratch(tmp_path, sample_path(catalogue.rule("detach-call"), "bad"))
    _, out, _ = run_cli("check", str(path), "--no-cache", "--format", "json")
    (first, _) = json.loads(out)
    assert first["fix"]["applicability"] == "safe"
    assert [e["content"] for e in first["fix"]["edits"]] == ["from mindspore import ops\n",
                                                               "ops.stop_gradient(x)"]
    _, out, _ = run_cli("check", str(path), "--no-cache", "--format", "sarif")
    (change,) = json.loads(out)["runs"][0]["results"][0]["fixes"][0]["artifactChanges"]
    region = change["replacements"][1]["deletedRegion"]
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (8, 20, 30)


def write(tmp_path: Path, body: str, name: str = "net.py") -> Path:
    path = tmp_path / name
    path.write_text(body, "utf-8")
    return path


def test_precedence_is_kept_when_the_receiver_is_an_operation(tmp_path):
    path = write(tmp_path, (
        "import mindspore as ms\nfrom mindspore import nn\n\n"
        "class Move(nn.Cell):\n"
        "    def construct(self, labels, logits):\n"
        "        return (labels != 0).to(self.device, ms.int32)  # keep this comment\n"
    ))
    fix([path])
    assert "        return (labels != 0).astype(ms.int32)  # keep this comment\n" in path.read_text()


def test_a_numpy_reduction_of_a_comparison_is_reported_but_not_rewritten(tmp_path):
    # numpy averages booleans; MindSpore's mean of a bool tensor is rejected (ReduceMean), so
    # (predicted == label).mean() would trade one error for another.
    path = write(tmp_path, (
        "import numpy as np\nimport mindspore as ms\n\n"
        "@ms.jit\n"
        "def accuracy(predicted, label):\n"
        "    return np.mean(predicted == label) + np.mean(predicted)\n"
    ))
    outcome = fix([path])
    assert "np.mean(predicted == label) + predicted.mean()" in path.read_text()
    assert [f.rule.symbol for f in outcome.findings] == ["numpy-reduction-on-tensor"]


def test_imports_are_reused_under_the_files_own_name(tmp_path):
    path = write(tmp_path, (
        "import mindspore.ops as P\nfrom mindspore import nn\n\n"
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        return x * x.detach()\n"
    ))
    fix([path])
    text = path.read_text()
    assert "return x * P.stop_gradient(x)" in text and text.count("import") == 2


def test_nested_fixes_land_in_a_later_pass(tmp_path):
    path = write(tmp_path, (
        "from mindspore import nn, ops\n\n"
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        return x.detach().detach()\n"
    ))
    outcome = fix([path])
    assert "return ops.stop_gradient(ops.stop_gradient(x))" in path.read_text()
    assert len(outcome.fixed) == 2


def test_a_fix_that_would_not_parse_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    from msgraphlint.fix import rules

    broken = rules.FIXERS["detach-call"]

    def unparsable(finding, source):
        fix = broken(finding, source)
        edit = fix.edits[-1]
        return type(fix)(fix.applicability, fix.description,
                         (*fix.edits[:-1], type(edit)(edit.path, edit.line, edit.column,
                                                      edit.end_line, edit.end_column, "ops.(")))

    monkeypatch.setitem(rules.FIXERS, "detach-call", unparsable)
    path = scratch(tmp_path, sample_path(catalogue.rule("detach-call"), "bad"))
    before = path.read_text("utf-8")
    outcome = fix([path])
    assert path.read_text("utf-8") == before and outcome.fixed == []
    assert any("left as it was" in notice for notice in outcome.notices)


def test_nothing_is_written_when_the_run_fails(tmp_path):
    fixable = scratch(tmp_path, sample_path(catalogue.rule("detach-call"), "bad"))
    before = fixable.read_text("utf-8")
    # The engine fails on this file (too deeply nested to analyse): the run has failed.
    write(tmp_path, "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n"
          "        return " + "x + " * 20000 + "x\n", "deep.py")
    outcome = fix([tmp_path])
    if not outcome.internal_errors:
        pytest.skip("the engine analysed the deep file: no failure to test with")
    assert fixable.read_text("utf-8") == before and outcome.fixed == []


def test_fix_documentation_is_generated_from_the_catalogue():
    from msgraphlint.docgen import fixes_page

    assert (ROOT / "docs" / "fixes.md").read_text("utf-8") == fixes_page(), (
        "run: python -m msgraphlint.docgen docs/rules"
    )


def test_a_pytorch_style_port_is_left_with_nothing_a_safe_fix_could_do(tmp_path):
    """samples/models/torch_port: forward, .size(0), .detach(), ms_function, .cuda() and np.mean
    on a tensor all have safe fixes; the compiler test compiles the result."""
    port = tmp_path / "torch_port"
    shutil.copytree(ROOT / "samples" / "models" / "torch_port", port)
    outcome = fix([port], unsafe=False)
    assert {f.rule.symbol for f in outcome.fixed} == {
        "forward-without-construct", "tensor-size-call", "detach-call", "removed-ms-function",
        "device-move-call", "numpy-reduction-on-tensor"}
    assert [f for f in outcome.findings if f.fix and f.fix.applicability == "safe"] == []
    assert outcome.findings == []
    text = (port / "model.py").read_text()
    assert fix([port]).fixed == [] and (port / "model.py").read_text() == text


@pytest.mark.compiler
def test_fix_confirm_writes_only_what_mindspore_accepts(tmp_path):
    """--fix --confirm at STRICT: the detach sample's fixes compile and match PyNative, so they
    are written; beside an np.where that keeps the Cell rejected at STRICT, the fix is written
    too (the rejection is that finding's own); where the fixed Cell fails with an error no
    finding accounts for, the fix is not applied."""
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    from msgraphlint.knowledge.catalogue import Level

    accepted = scratch(tmp_path, sample_path(catalogue.rule("detach-call"), "bad"))
    beside = write(tmp_path, (
        "import numpy as np\nfrom mindspore import nn\n\n"
        "class Mixed(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        y = x * x.detach()\n"
        "        return y + np.where(x > 0, x, 0)\n"
    ), "mixed.py")
    rejected = write(tmp_path, (
        "import mindspore as ms\nfrom mindspore import nn, ops\n\n"
        "class Shaped(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        y = x * x.detach()\n"
        "        return ops.matmul(y, ops.ones((7, 5), ms.float32))\n"
        "\n"
        "if __name__ == \"__main__\":\n"
        "    Shaped()(ms.Tensor([[1.0, 2.0, 3.0]]))\n"
    ), "shaped.py")
    before = rejected.read_text()
    request = pipeline.Request([tmp_path], Config(level=Level.STRICT), jobs=2, use_cache=False,
                               progress=False, fix=True, confirm="findings")
    outcome = pipeline.run(request)
    assert "ops.stop_gradient(x)" in accepted.read_text()
    assert "ops.stop_gradient(x)" in beside.read_text()
    assert rejected.read_text() == before
    assert any("detach_call_bad.py: 2 fixes verified: 2 targets compile at STRICT" in n
               for n in outcome.notices)
    assert any("mixed.py: 1 fix verified: 1 target at STRICT on CPU fails or differs from PyNative"
               " only as the findings left after the fixes do (host-call-on-tensor at mixed.py:8)"
               in n for n in outcome.notices), outcome.notices
    assert any("shaped.py: 1 fix not applied: MindSpore rejects Shaped at STRICT" in n
               for n in outcome.notices), outcome.notices
    assert {f.path.name for f in outcome.fixed} == {"detach_call_bad.py", "mixed.py"}


def test_a_finding_has_the_same_fix_checked_here_in_processes_or_read_from_the_cache(tmp_path):
    """The processes that check the files seek the fixes where the files are parsed; the
    result cache keeps them, so that a re-run parses nothing for them."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("")
    shutil.copyfile(sample_path(catalogue.rule("detach-call"), "bad"), project / "net.py")
    for number in range(70):  # enough files for --jobs 2 to start its processes
        (project / f"helper_{number}.py").write_text(f"VALUE = {number}\n")

    def fixes(jobs: int, use_cache: bool) -> list:
        request = pipeline.Request([project], Config(), jobs=jobs, use_cache=use_cache,
                                   progress=False)
        found = [(f.rule_id, f.line, f.fix) for f in pipeline.run(request).findings if f.fix]
        assert found, "the detach() call has a fix"
        return found

    here = fixes(jobs=1, use_cache=False)
    assert fixes(jobs=2, use_cache=False) == here
    hits: list[Path] = []
    lookup = ResultCache.lookup

    def counted(cache, path, project):
        found = lookup(cache, path, project)
        if found is not None:
            hits.append(path)
        return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MSGRAPHLINT_CACHE_DIR", str(tmp_path / "cache"))
        patch.setattr(ResultCache, "lookup", counted)
        assert fixes(jobs=1, use_cache=True) == here and hits == []  # checked, and stored
        parsed: list[Path] = []
        module = Project.module
        patch.setattr(Project, "module", lambda self, path, raw=None: parsed.append(path) or module(
            self, path, raw))
        assert fixes(jobs=1, use_cache=True) == here  # read back
        assert project / "net.py" in hits and parsed == []
