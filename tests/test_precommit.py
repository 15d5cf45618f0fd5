"""The pre-commit hook as a user gets it: the manifest, the documented recipe, and the real
``pre-commit try-repo`` building msgraphlint in its own virtualenv, where MindSpore is absent."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .samples_index import ROOT

BAD = textwrap.dedent(
    """
    import math
    from mindspore import nn

    class Net(nn.Cell):
        def construct(self, x):
            return x * math.sqrt(x.sum())
    """
).lstrip()
PORT = BAD.replace("return x * ", "return x.size(0) * ")
CLEAN = BAD.replace("import math\n", "").replace("math.sqrt(x.sum())", "x.sum().sqrt()")
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "msgraphlint tests",
    "GIT_AUTHOR_EMAIL": "tests@msgraphlint.invalid",
    "GIT_COMMITTER_NAME": "msgraphlint tests",
    "GIT_COMMITTER_EMAIL": "tests@msgraphlint.invalid",
}


def git(*args: str, cwd: Path) -> str:
    result = subprocess.run(
        ["git", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", *args],
        cwd=cwd, capture_output=True, text=True, env={**os.environ, **GIT_IDENTITY},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def commit_all(folder: Path) -> None:
    git("init", "-q", cwd=folder)
    git("add", "-A", cwd=folder)
    git("commit", "-q", "-m", "snapshot", cwd=folder)


def manifest() -> list[dict]:
    """The hooks as pre-commit itself reads and validates them."""
    clientlib = pytest.importorskip("pre_commit.clientlib", reason="pre-commit comes with the test extra")
    return clientlib.load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))


def documented_hook() -> dict:
    """The hook entry of the .pre-commit-config.yaml recipe in docs/precommit.md."""
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit")
    text = (ROOT / "docs" / "precommit.md").read_text("utf-8")
    block = re.search(r"<!-- pre-commit-config -->\s*```yaml\n(.*?)```", text, re.S)
    assert block, "docs/precommit.md lost its <!-- pre-commit-config --> block"
    (repo,) = yaml.safe_load(block.group(1))["repos"]
    (hook,) = repo["hooks"]
    return hook


def test_manifest_declares_the_hook_as_documented():
    hook, fixer = manifest()
    assert fixer["id"] == "msgraphlint-fix" and fixer["entry"] == "msgraphlint check --fix"
    assert {key: fixer[key] for key in ("language", "types_or", "require_serial")} == {
        key: hook[key] for key in ("language", "types_or", "require_serial")}
    assert "msgraphlint-fix" in (ROOT / "docs" / "precommit.md").read_text("utf-8")
    assert hook["id"] == "msgraphlint"
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "pyi"]
    assert hook["require_serial"] is True
    assert hook["pass_filenames"] is True
    assert hook["entry"] == "msgraphlint check"
    assert documented_hook()["id"] == hook["id"]


def test_documented_args_make_the_severity_threshold_configurable(tmp_path):
    """The recipe's args, run the way pre-commit runs them: entry + args + the files."""
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "clean.py").write_text(CLEAN)
    script = Path(sys.executable).with_name("msgraphlint")
    entry = [str(script), *manifest()[0]["entry"].split()[1:]]
    args = [str(arg) for arg in documented_hook().get("args", [])]

    def hook(*files: str, extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
        return subprocess.run([*entry, *args, *extra, *files], cwd=tmp_path,
                              capture_output=True, text=True)

    assert hook("clean.py").returncode == 0
    failed = hook("bad.py", "clean.py")
    assert failed.returncode == 1 and "bad.py:6:20: W8720" in failed.stdout
    # W8720 is a warning at LAX: a threshold of error lets it through.
    assert hook("bad.py", extra=("--fail-on=error",)).returncode == 0


def test_the_fix_hook_rewrites_the_file_and_reports_what_is_left(tmp_path):
    """The msgraphlint-fix entry, run the way pre-commit runs it: entry + the files."""
    path = tmp_path / "port.py"
    path.write_text(PORT)
    script = Path(sys.executable).with_name("msgraphlint")
    fixer = next(hook for hook in manifest() if hook["id"] == "msgraphlint-fix")
    result = subprocess.run([str(script), *fixer["entry"].split()[1:], "port.py"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert "x.shape[0]" in path.read_text() and "Fixed 1 problem." in result.stdout
    assert result.returncode == 1 and "W8720" in result.stdout  # math.sqrt has no safe fix


def test_the_static_path_never_imports_mindspore_or_pylint(tmp_path):
    """What makes the hook work in pre-commit's virtualenv: importing MindSpore here would fail."""
    (tmp_path / "bad.py").write_text(BAD)
    probe = textwrap.dedent(
        """
        import json, sys
        sys.modules["mindspore"] = None  # any import of it now raises ImportError
        from msgraphlint.cli import app
        try:
            app(["check", "bad.py"])
        except SystemExit as done:
            code = done.code
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in {"mindspore", "pylint", "astroid"})
        with open("probe.json", "w") as out:
            json.dump({"code": code, "loaded": loaded}, out)
        """
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert "bad.py:6:20: W8720" in result.stdout, result.stderr
    assert json.loads((tmp_path / "probe.json").read_text()) == {"code": 1, "loaded": ["mindspore"]}


@pytest.fixture(scope="module")
def hook_repository(tmp_path_factory) -> Path:
    """The project's working tree, committed into a throwaway repository.

    try-repo clones HEAD plus changes to tracked files and drops untracked ones, so a hook or
    module not yet committed would be tested as it was at HEAD (or be missing). A snapshot tests
    what is on disk, in a clean CI checkout and in a working copy alike.
    """
    pytest.importorskip("pre_commit", reason="pre-commit comes with the test extra")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True,
    )
    if listed.returncode != 0:
        pytest.skip("the project is not a git checkout")
    snapshot = tmp_path_factory.mktemp("hook-repository")
    for name in filter(None, listed.stdout.decode("utf-8").split("\0")):
        source = ROOT / name
        if source.is_file():  # listed but deleted in the working tree: leave it out
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    commit_all(snapshot)
    return snapshot


@pytest.fixture(scope="module")
def user_repository(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("user-repository")
    (folder / "bad.py").write_text(BAD)
    (folder / "clean.py").write_text(CLEAN)
    commit_all(folder)
    return folder


def try_repo(hook_repository: Path, user_repository: Path, *files: str, hook: str = "msgraphlint"):
    """One `pre-commit try-repo`: a fresh virtualenv with msgraphlint and its dependencies only."""
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repository), hook,
         "--color", "never", "--files", *files],
        cwd=user_repository, capture_output=True, text=True, timeout=1200,
        env={**os.environ, "PRE_COMMIT_HOME": str(user_repository.parent / "pre-commit-home")},
    )


@pytest.mark.slow
def test_try_repo_fails_on_the_bad_file_only(hook_repository, user_repository):
    result = try_repo(hook_repository, user_repository, "bad.py", "clean.py")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert re.search(r"msgraphlint\.+Failed", output), output
    assert "bad.py:6:20: W8720 host-call-on-tensor" in output
    assert "clean.py:" not in output
    assert "2 files checked" in output  # both were passed, only one had a problem


@pytest.mark.slow
def test_try_repo_passes_the_clean_file(hook_repository, user_repository):
    result = try_repo(hook_repository, user_repository, "clean.py")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert re.search(r"msgraphlint\.+Passed", output), output


@pytest.mark.slow
def test_try_repo_fix_hook_rewrites_and_fails_the_commit(hook_repository, user_repository):
    port = user_repository / "port.py"
    port.write_text(PORT)
    git("add", "port.py", cwd=user_repository)
    result = try_repo(hook_repository, user_repository, "port.py", hook="msgraphlint-fix")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "files were modified by this hook" in output, output
    assert "x.shape[0]" in port.read_text()
