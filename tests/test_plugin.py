"""The pylint plugin: same findings as the CLI, through pylint's own machinery."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import astroid
import pytest
from pylint.interfaces import HIGH
from pylint.lint import PyLinter
from pylint.testutils import CheckerTestCase, MessageTest

from msgraphlint.knowledge import catalogue
from msgraphlint.pipeline import new_engine
from msgraphlint.checkers.third_party import ThirdPartyFamily
from msgraphlint.plugin import make_checker_class

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
PYLINT = [sys.executable, "-m", "pylint", "--load-plugins=msgraphlint", "--disable=all",
          "--enable=msgraphlint", "--output-format=json2", "--score=n", "--persistent=n"]


def pylint_json(*args: str, cwd: Path, stdin: str | None = None) -> list[dict]:
    result = subprocess.run([*PYLINT, *args], capture_output=True, text=True, cwd=cwd, input=stdin)
    assert "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout)["messages"]


class TestThirdPartyChecker(CheckerTestCase):
    CHECKER_CLASS = make_checker_class(ThirdPartyFamily, "87", with_options=True)

    def test_message_from_the_shared_engine(self, tmp_path):
        path = tmp_path / "unit_bad.py"
        path.write_text(BAD)
        module = astroid.parse(BAD, module_name="unit_bad", path=str(path))
        rule = catalogue.rule("host-call-on-tensor")
        with self.assertAddsMessages(
            MessageTest(
                msg_id=rule.symbol,
                line=6,
                col_offset=19,
                end_line=6,
                end_col_offset=37,
                args=("math.sqrt", "ops.sqrt", ""),
                confidence=HIGH,
            ),
            ignore_position=False,
        ):
            self.walk(module)

    def test_clean_module_adds_nothing(self, tmp_path):
        source = BAD.replace("math.sqrt(x.sum())", "x.sum().sqrt()")
        path = tmp_path / "unit_clean.py"
        path.write_text(source)
        with self.assertNoMessages():
            self.walk(astroid.parse(source, module_name="unit_clean", path=str(path)))


def test_pylint_cli_matches_the_msgraphlint_engine_on_every_sample():
    files = sorted(p for p in SAMPLES.rglob("*.py") if "input" not in p.parts)
    messages = pylint_json(*map(str, files), cwd=SAMPLES.parent)
    from_pylint = {(Path(m["absolutePath"]).resolve(), m["line"], m["column"] + 1, m["messageId"])
                   for m in messages}
    engine = new_engine()
    from_engine = {
        (f.path.resolve(), f.line, f.column, f.rule_id)
        for path in files
        for f in engine.check_file(path)
        if not f.suppressed
    }
    assert from_pylint == from_engine
    assert from_engine, "the samples must produce findings"
    # The same words, a rule's case included (pylint adds a severity note of its own).
    said = {(Path(m["absolutePath"]).resolve(), m["line"], m["column"] + 1, m["messageId"]):
            m["message"] for m in messages}
    for path in files:
        for f in engine.check_file(path):
            if not f.suppressed:
                assert said[(f.path.resolve(), f.line, f.column, f.rule_id)].startswith(f.message)


def test_from_stdin_lints_the_unsaved_buffer(tmp_path):
    (tmp_path / "model.py").write_text("x = 1\n")  # what is on disk is clean
    (message,) = pylint_json("--from-stdin", "model.py", cwd=tmp_path, stdin=BAD)
    assert (message["symbol"], message["line"], message["column"]) == ("host-call-on-tensor", 6, 19)


def test_inline_disable_and_parallel_jobs(tmp_path):
    for index in range(4):
        (tmp_path / f"m{index}.py").write_text(BAD)
    (tmp_path / "quiet.py").write_text(
        BAD.replace("x.sum())", "x.sum())  # pylint: disable=host-call-on-tensor")
    )
    (tmp_path / "quiet_too.py").write_text(  # the CLI's spelling is honoured by the plugin too
        BAD.replace("x.sum())", "x.sum())  # msgraphlint: disable=host-call-on-tensor")
    )
    messages = pylint_json("-j", "2", *sorted(p.name for p in tmp_path.glob("*.py")), cwd=tmp_path)
    assert sorted(m["path"] for m in messages) == ["m0.py", "m1.py", "m2.py", "m3.py"]


def test_options_from_pylintrc_change_the_reported_severity(tmp_path):
    (tmp_path / "m.py").write_text(BAD)
    (tmp_path / ".pylintrc").write_text("[MAIN]\nmsgraph-syntax-level=strict\nmsgraph-device=GPU\n")
    (message,) = pylint_json("--rcfile", ".pylintrc", "m.py", cwd=tmp_path)
    assert message["message"].endswith("[error at strict]")


def test_msgraphlint_selects_exactly_our_messages(tmp_path):
    (tmp_path / "m.py").write_text(BAD + "\n\nunused_variable_here = undefined_name\n")
    messages = pylint_json("m.py", cwd=tmp_path)
    assert {m["messageId"][1:3] for m in messages} <= set(catalogue.PYLINT_CHECKER_IDS)


# Message-id prefixes (the two digits after the letter) known to be taken by popular plugins.
THIRD_PARTY_PREFIXES = {"51": "pylint-django", "64": "pylint-pytest", "79": "pylint-odoo",
                        "80": "pylint-odoo", "99": "pylint-pydantic"}


def test_message_ids_collide_with_nobody():
    linter = PyLinter()
    linter.load_default_plugins()
    extensions = Path(__import__("pylint.extensions", fromlist=["x"]).__file__).parent
    linter.load_plugin_modules(
        [f"pylint.extensions.{p.stem}" for p in extensions.glob("*.py") if not p.stem.startswith("_")]
    )
    others = {d.msgid[1:3] for d in linter.msgs_store.messages}
    assert not set(catalogue.PYLINT_CHECKER_IDS) & others
    assert not set(catalogue.PYLINT_CHECKER_IDS) & THIRD_PARTY_PREFIXES.keys()
    linter.load_plugin_modules(["msgraphlint"])
    ours = [d for d in linter.msgs_store.messages if d.msgid[1:3] in catalogue.PYLINT_CHECKER_IDS]
    # input: pylint's own syntax-error; compiler: only `msgraphlint check --confirm` compiles.
    assert {d.msgid for d in ours} == {
        r.id for r in catalogue.rules() if r.family not in ("input", "compiler")
    }
    assert {c.name for c in linter.get_checkers() if c.msgs.keys() & {d.msgid for d in ours}} == {
        "msgraphlint"
    }


@pytest.mark.parametrize("level", ["strict", "compatible", "lax"])
def test_reported_note_only_when_pylint_category_understates(level, tmp_path):
    (tmp_path / "m.py").write_text(BAD)
    (message,) = pylint_json(f"--msgraph-syntax-level={level}", "m.py", cwd=tmp_path)
    severity = catalogue.rule("host-call-on-tensor").severity(catalogue.Level(level)).value
    assert message["message"].endswith(f"[{severity} at {level}]") == (severity != "warning")


def test_the_collector_is_handed_back_when_pylint_finishes(tmp_path):
    # The plugin freezes what is alive after each module (pylint's collections would walk the
    # engine's trees again and again); a process that lints again must get it all back.
    (tmp_path / "model.py").write_text(BAD)
    script = textwrap.dedent(
        """
        import gc, sys
        from pylint.lint import Run
        states = []
        for _ in range(2):
            Run(["--load-plugins=msgraphlint", "--disable=all", "--enable=msgraphlint",
                 "--score=n", "--persistent=n", "model.py"], exit=False)
            states.append((gc.get_freeze_count(), gc.isenabled()))
        print(states, file=sys.stderr)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert "host-call-on-tensor" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == "[(0, True), (0, True)]"


def test_the_pylint_command_exits_without_walking_its_trees_again(tmp_path):
    # At exit the interpreter collects once more; what is alive then (pylint's and the engine's
    # trees) is frozen first. A handler registered before the run runs after the plugin's.
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(BAD)
    script = textwrap.dedent(
        """
        import atexit, gc, sys
        from pylint.lint import Run
        atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0, file=sys.stderr))
        Run(["--load-plugins=msgraphlint", "--disable=all", "--enable=msgraphlint",
             "--score=n", "--persistent=n", "a.py", "b.py"], exit=False)
        print("frozen after the run:", gc.get_freeze_count() > 0, file=sys.stderr)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert result.stdout.count("host-call-on-tensor") == 2
    assert result.stderr.strip().splitlines()[-2:] == ["frozen after the run: False", "frozen at exit: True"]


def test_the_jit_module_lists_of_the_nearest_pyproject_are_honoured(tmp_path):
    # The CLI and the plugin must agree on what is compiled: einops is compiled unless the project
    # says MindSpore leaves it to the interpreter, math is the interpreter's unless it says so.
    source = textwrap.dedent(
        """
        import math
        import einops
        from mindspore import nn

        class Net(nn.Cell):
            def construct(self, x):
                return einops.rearrange(x, "a b -> b a") * math.sqrt(x.sum())
        """
    ).lstrip()
    (tmp_path / "net.py").write_text(source)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    host_calls = lambda: sorted(m["message"].split("'")[1] for m in pylint_json("net.py", cwd=tmp_path)
                                if m["symbol"] == "host-call-on-tensor")
    assert host_calls() == ["math.sqrt"]
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'demo'\n[tool.msgraphlint]\njit-ignore-modules = ['einops']\n"
        "jit-modules = ['math']\n")
    assert host_calls() == ["einops.rearrange"]


def test_the_target_version_comes_from_the_option_over_the_pyproject(tmp_path):
    """ops.transpose's keyword was input_perm up to 2.7 (probed with 2.7, 2.8 and 2.10)."""
    source = textwrap.dedent(
        """
        from mindspore import nn, ops

        class Net(nn.Cell):
            def construct(self, x):
                return ops.transpose(x, input_perm=(1, 0))
        """
    ).lstrip()
    (tmp_path / "net.py").write_text(source)
    (tmp_path / "pyproject.toml").write_text("[tool.msgraphlint]\ntarget-version = '2.7'\n")
    mismatches = lambda *options: [m for m in pylint_json("net.py", *options, cwd=tmp_path)
                                   if m["symbol"] == "mindspore-call-mismatch"]
    assert mismatches() == []
    (found,) = mismatches("--msgraph-target-version=2.10")
    assert "input_perm" in found["message"] and "MindSpore 2.10.0" in found["message"]
