"""The CLI as a user runs it: exit codes, formats, configuration, and bad input without tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from msgraphlint.cli import app

from .samples_index import SAMPLES

BAD = textwrap.dedent(
    """
    import math
    from mindspore import nn

    class Net(nn.Cell):
        def construct(self, x):
            return x * math.sqrt(x.sum())
    """
).lstrip()
CLEAN = textwrap.dedent(
    """
    from mindspore import nn, ops

    class Net(nn.Cell):
        def construct(self, x):
            return x * ops.sqrt(x.sum())
    """
).lstrip()


def run(*args: str, cwd: Path | None = None, stdin: str | None = None):
    """Run the CLI in-process from ``cwd``; returns (exit code, stdout, stderr)."""
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), input=stdin, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


def test_exit_codes_follow_findings(project):
    assert run("check", "clean.py", cwd=project)[0] == 0
    code, out, _ = run("check", "bad.py", cwd=project)
    assert code == 1
    assert "bad.py:6:20: W8720 host-call-on-tensor" in out
    assert "Found 1 problem (1 warning); 1 file checked at LAX on CPU." in out


def test_default_path_is_the_current_folder_and_skips_venvs_and_hidden(project):
    for hidden in (".git/hook.py", "venv/lib/x.py", "build/lib/x.py", "node_modules/x.py"):
        (project / hidden).parent.mkdir(parents=True, exist_ok=True)
        (project / hidden).write_text(BAD)
    (project / "myenv").mkdir()
    (project / "myenv" / "pyvenv.cfg").write_text("home = /usr\n")
    (project / "myenv" / "x.py").write_text(BAD)
    code, out, _ = run("check", cwd=project)
    assert code == 1
    assert "2 files checked" in out
    assert out.count("W8720") == 1


def test_syntax_level_changes_severity_not_findings(project):
    _, lax, _ = run("check", "bad.py", "--format", "json", cwd=project)
    _, strict, _ = run("check", "bad.py", "--format", "json", "--syntax-level", "strict", cwd=project)
    assert [f["severity"] for f in json.loads(lax)] == ["warning"]
    assert [f["severity"] for f in json.loads(strict)] == ["error"]
    # spelled as MindSpore spells it (jit_syntax_level=STRICT), as the config file accepts it
    _, upper, _ = run("check", "bad.py", "--format", "json", "--syntax-level", "STRICT", cwd=project)
    assert upper == strict


def test_json_output_is_the_documented_list(project):
    _, out, _ = run("check", "bad.py", "--format", "json", cwd=project)
    (finding,) = json.loads(out)
    assert finding == {
        "path": "bad.py",
        "line": 6,
        "column": 20,
        "end_line": 6,
        "end_column": 38,
        "rule_id": "W8720",
        "symbol": "host-call-on-tensor",
        "family": "third-party",
        "severity": "warning",
        "level": "lax",
        "device": "CPU",
        "message": finding["message"],
        "reached_from": None,
        "target": "Net.construct",
        "help_uri": "https://github.com/msgraphlint/msgraphlint/blob/main/docs/rules/host-call-on-tensor.md",
        "fix": finding["fix"],
    }
    assert "math.sqrt" in finding["message"] and "ops.sqrt" in finding["message"]
    assert finding["fix"]["applicability"] == "unsafe"
    assert [edit["content"] for edit in finding["fix"]["edits"]][-1] == "ops.sqrt"


def test_output_file(project):
    code, out, _ = run("check", "bad.py", "--format", "sarif", "--output", "out/report.sarif", cwd=project)
    assert code == 1 and out == ""
    log = json.loads((project / "out" / "report.sarif").read_text())
    assert log["runs"][0]["results"][0]["ruleId"] == "W8720"


@pytest.mark.parametrize("selector", ["W8720", "host-call-on-tensor", "third-party"])
def test_select_and_ignore_by_id_symbol_or_family(project, selector):
    assert run("check", "bad.py", "--ignore", selector, cwd=project)[0] == 0
    assert run("check", "bad.py", "--select", selector, cwd=project)[0] == 1
    assert run("check", "bad.py", "--select", "numpy-reduction-on-tensor", cwd=project)[0] == 0


def test_unknown_selector_is_a_usage_error(project):
    code, _, err = run("check", "bad.py", "--select", "no-such-rule", cwd=project)
    assert code == 2
    assert "'no-such-rule' is not a rule id, symbol or family" in err


def test_pyproject_defaults_and_command_line_overrides(project):
    (project / "pyproject.toml").write_text(
        '[tool.msgraphlint]\nsyntax-level = "strict"\nformat = "json"\nignore = ["numpy-on-constants"]\n'
    )
    _, out, _ = run("check", "bad.py", cwd=project)
    assert json.loads(out)[0]["severity"] == "error"
    _, out, _ = run("check", "bad.py", "--syntax-level", "lax", cwd=project)
    assert json.loads(out)[0]["severity"] == "warning"


def test_pyproject_is_found_from_the_checked_path(project, tmp_path_factory):
    (project / "pyproject.toml").write_text('[tool.msgraphlint]\nignore = ["third-party"]\n')
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    assert run("check", str(project / "bad.py"), cwd=elsewhere)[0] == 0


@pytest.mark.parametrize(
    "content, message",
    [
        ('[tool.msgraphlint]\nsyntax-level = "loose"\n', "syntax level 'loose' is not one of"),
        ('[tool.msgraphlint]\ndevice = "TPU"\n', "device 'TPU' is not one of CPU, GPU, Ascend"),
        ('[tool.msgraphlint]\nselcet = ["x"]\n', "unknown key(s) in [tool.msgraphlint]: selcet"),
        ('[tool.msgraphlint\n', "invalid TOML"),
        ('[tool.msgraphlint]\nexclude = "tests"\n', "exclude must be a list of glob patterns"),
    ],
)
def test_bad_configuration_is_a_clear_usage_error(project, content, message):
    (project / "pyproject.toml").write_text(content)
    code, out, err = run("check", "bad.py", cwd=project)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_exclude_patterns(project):
    (project / "pyproject.toml").write_text('[tool.msgraphlint]\nexclude = ["bad*.py"]\n')
    assert run("check", cwd=project)[0] == 0


def test_missing_path_is_a_usage_error(project):
    code, _, err = run("check", "nope.py", "bad.py", cwd=project)
    assert code == 2
    assert "no such file or folder: nope.py" in err


def test_bad_option_value_is_a_usage_error(project):
    code, _, err = run("check", "--syntax-level", "loose", cwd=project)
    assert code == 2 and "loose" in err


def test_stdin(project):
    code, out, _ = run("check", "-", "--stdin-filename", "buffer.py", stdin=BAD, cwd=project)
    assert code == 1
    assert "buffer.py:6:20: W8720" in out


def test_bad_files_are_reported_and_the_others_still_checked(project):
    (project / "py2.py").write_text('print "hello"\n')
    (project / "gbk.py").write_bytes('NAME = "模型"\n'.encode("gbk"))
    (project / "bom.py").write_bytes(b"\xef\xbb\xbf" + BAD.encode())
    (project / "binary.py").write_bytes(bytes(range(256)))
    (project / "dangling.py").symlink_to(project / "gone.py")
    code, out, err = run("check", "--format", "json", cwd=project)
    assert code == 1
    assert "Traceback" not in out + err
    found = {(f["path"], f["symbol"]) for f in json.loads(out)}
    assert found == {
        ("bad.py", "host-call-on-tensor"),
        ("bom.py", "utf8-bom"),
        ("bom.py", "host-call-on-tensor"),  # a BOM file is still checked
        ("py2.py", "syntax-error"),
        ("gbk.py", "undecodable-file"),
        ("binary.py", "undecodable-file"),
        ("dangling.py", "unreadable-file"),
    }


def test_finding_columns_count_characters_after_chinese_text(tmp_path):
    (tmp_path / "m.py").write_text(
        "import math\nfrom mindspore import nn\n\nclass Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        注释 = '模型输出'; return 注释, math.sqrt(x.sum())\n",
        "utf-8",
    )
    _, out, _ = run("check", "m.py", "--format", "json", cwd=tmp_path)
    (finding,) = json.loads(out)
    line = (tmp_path / "m.py").read_text("utf-8").splitlines()[5]
    assert finding["column"] == line.index("math.sqrt") + 1
    assert finding["end_column"] == len(line) + 1


def test_rules_and_explain(project):
    code, out, _ = run("rules", "--syntax-level", "strict")
    assert code == 0
    assert "W8720  host-call-on-tensor" in out and "error" in out.split("W8720")[1].splitlines()[0]
    code, out, _ = run("rules", "--format", "json")
    assert {r["symbol"] for r in json.loads(out)} >= {"host-call-on-tensor", "syntax-error"}
    code, out, _ = run("explain", "host-call-on-tensor")
    assert code == 0 and "## Why it breaks, per syntax level" in out and "| STRICT |" in out
    code, _, err = run("explain", "host-call-on-tensr")
    assert code == 2 and "did you mean host-call-on-tensor" in err


def test_installed_entry_point_never_shows_a_traceback(tmp_path):
    """The real console script, on the bundled samples and on a folder it cannot use."""
    script = Path(sys.executable).with_name("msgraphlint")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "msgraphlint.cli"]
    result = subprocess.run([*command, "check", str(SAMPLES)], capture_output=True, text=True)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    result = subprocess.run([*command, "check", str(tmp_path / "missing")], capture_output=True, text=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_a_crash_on_one_file_is_reported_and_hides_nothing(project, monkeypatch):
    from msgraphlint.engine.analyze import Engine, Family

    class Explodes(Family):
        name = "explodes"

        def visit_Return(self, node, ctx):
            if ctx.module.name == "clean":
                raise ValueError("boom")

    original = Engine.__post_init__

    def with_exploding_family(self):
        self.families = [*self.families, Explodes()]
        original(self)

    monkeypatch.setattr(Engine, "__post_init__", with_exploding_family)
    code, out, err = run("check", cwd=project)
    assert code == 2
    assert "bad.py:6:20: W8720" in out
    assert "internal error: " in err and "clean.py: ValueError: boom" in err
    assert "Traceback" not in out + err


def test_readme_example_output_is_what_the_tool_prints():
    readme = (SAMPLES.parent / "README.md").read_text("utf-8")
    intro = "On one of the bundled ported models (`msgraphlint check samples/models/resnet_port`):"
    shown = readme.split(intro, 1)[1].split("```\n", 2)[1].rstrip("\n")
    code, out, _ = run("check", "samples/models/resnet_port", "--no-color", cwd=SAMPLES.parent)
    assert code == 1
    assert out.rstrip("\n") == shown


def test_each_file_is_checked_once_however_it_is_named(project):
    (project / "link.py").symlink_to(project / "bad.py")
    code, out, _ = run("check", "bad.py", str(project / "bad.py"), "link.py", cwd=project)
    assert out.count("W8720") == 1 and "1 file checked" in out


def test_select_never_hides_a_file_that_could_not_be_checked(project):
    (project / "py2.py").write_text('print "hello"\n')
    code, out, _ = run("check", "--select", "numpy-reduction-on-tensor", cwd=project)
    assert code == 1 and "py2.py:1:" in out and "E8700 syntax-error" in out


def test_exclude_patterns_hold_for_absolute_paths(project):
    (project / "sub").mkdir()
    (project / "sub" / "bad.py").write_text(BAD)
    (project / "pyproject.toml").write_text('[tool.msgraphlint]\nexclude = ["sub/*"]\n')
    assert run("check", str(project), cwd=project.parent)[0] == 1  # ./bad.py is still checked
    code, out, _ = run("check", str(project / "sub"), cwd=project.parent)
    assert code == 0 and "0 files checked" in out


def test_python_syntax_warnings_do_not_leak_to_stderr(tmp_path):
    """In a real process: pytest would swallow the warnings an in-process run prints."""
    (tmp_path / "old.py").write_text('PATTERN = "\\d+"\nx = 1if True else 0\n')
    script = Path(sys.executable).with_name("msgraphlint")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "msgraphlint.cli"]
    result = subprocess.run([*command, "check", "old.py"], capture_output=True, text=True, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")


def test_style_advice_is_opt_in():
    """cell-created-in-construct and numpy-on-constants are reported only when selected."""
    sample = "samples/cell_construction/cell_created_in_construct_bad.py"
    root = Path(__file__).resolve().parent.parent
    code, out, _ = run("check", sample, "--no-cache", "--no-color", cwd=root)
    assert code == 0 and "No problems found" in out
    for selector in ("cell-created-in-construct", "C8761", "cell-construction"):
        _, out, _ = run("check", sample, "--no-cache", "--no-color", "--select", selector, cwd=root)
        assert out.count("C8761 cell-created-in-construct") == 3


JIT_HOST_COPY = textwrap.dedent(
    """
    import mindspore as ms

    @ms.jit
    def step(x):
        return x.asnumpy()
    """
).lstrip()


def test_ms_dev_jit_syntax_level_sets_the_level_of_every_graph(tmp_path, monkeypatch):
    """jit functions compile at LAX whatever set_context says; the environment variable reaches
    them too (MindSpore 2.10), so the same file is an error only under MS_DEV_JIT_SYNTAX_LEVEL=0."""
    (tmp_path / "m.py").write_text(JIT_HOST_COPY, "utf-8")
    monkeypatch.delenv("MS_DEV_JIT_SYNTAX_LEVEL", raising=False)
    plain = json.loads(run("check", str(tmp_path), "--syntax-level", "strict", "--format", "json")[1])
    assert [(f["symbol"], f["severity"], f["level"]) for f in plain] == [("asnumpy-in-graph", "warning", "lax")]
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    _, out, err = run("check", str(tmp_path), "--format", "json")
    assert [(f["symbol"], f["severity"], f["level"]) for f in json.loads(out)] == [
        ("asnumpy-in-graph", "error", "strict")]
    assert "MS_DEV_JIT_SYNTAX_LEVEL" in err


def test_a_bad_ms_dev_jit_syntax_level_is_a_clean_error(tmp_path, monkeypatch):
    (tmp_path / "m.py").write_text(JIT_HOST_COPY, "utf-8")
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "strict")
    code, _, err = run("check", str(tmp_path))
    assert code == 2
    assert "MS_DEV_JIT_SYNTAX_LEVEL='strict'" in err and "Traceback" not in err
