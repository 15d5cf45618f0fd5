"""Faults in what a run meets never abort it (issue 33): symbolic link loops, folders and files it
may not read, a damaged result cache, an empty selection; and the CLI's worker processes end
when it does, however it ends."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import psutil
import pytest
from typer.testing import CliRunner

from msgraphlint.cli import app
from msgraphlint.engine import analyze
from msgraphlint.engine.cache import FINDING_FIELDS, ResultCache, valid_document
from msgraphlint.engine.findings import Finding
from msgraphlint.pipeline import new_engine

from .samples_index import SAMPLES

# Two findings in one file: their order is decided by line and column.
BAD = textwrap.dedent(
    """
    import math
    from mindspore import nn


    class Net(nn.Cell):
        def construct(self, x):
            y = x * math.sqrt(x.sum())
            return y + math.exp(x.sum())
    """
).lstrip()
EXPECTED_BAD = {("bad.py", 7, "host-call-on-tensor"), ("bad.py", 8, "host-call-on-tensor")}


def run(*args: str, cwd: Path):
    """The CLI in-process from ``cwd``: (exit code, stdout, stderr)."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def found(out: str) -> set[tuple[str, int, str]]:
    return {(f["path"], f["line"], f["symbol"]) for f in json.loads(out)}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "bad.py").write_text(BAD)
    return tmp_path


# ----- symbolic link loops ------------------------------------------------------------------------


def test_a_symbolic_link_loop_is_a_finding_and_the_other_files_are_still_checked(project):
    (project / "sub").mkdir()
    (project / "sub" / "x.py").symlink_to("y.py")
    (project / "sub" / "y.py").symlink_to("x.py")
    (project / "sub" / "self.py").symlink_to("self.py")
    (project / "sub" / "up").symlink_to("..")  # a folder link back up: never walked
    code, out, err = run("check", "--format", "json", "--no-cache", cwd=project)
    assert code == 1, err
    assert "Traceback" not in out + err and "internal error" not in err
    assert found(out) == EXPECTED_BAD | {
        ("sub/self.py", 1, "unreadable-file"),
        ("sub/x.py", 1, "unreadable-file"),
        ("sub/y.py", 1, "unreadable-file"),
    }
    assert all("symbolic link loop" in f["message"]
               for f in json.loads(out) if f["symbol"] == "unreadable-file")


def test_a_symbolic_link_loop_named_on_the_command_line_is_a_finding(project):
    (project / "self.py").symlink_to("self.py")
    code, out, err = run("check", "self.py", "bad.py", "--format", "json", "--no-cache", cwd=project)
    assert code == 1, err
    assert found(out) == EXPECTED_BAD | {("self.py", 1, "unreadable-file")}


# ----- what the walk may not read -----------------------------------------------------------------


def refuse(monkeypatch, below: Path, error: int = errno.EACCES) -> None:
    """Every listing, stat and read at or below ``below`` fails as it does for a user without
    the permission (the tests run as root in CI, where chmod 000 stops nothing)."""
    below = os.path.abspath(below)

    def refused(path) -> bool:
        path = os.path.abspath(os.fspath(path))
        return path == below or path.startswith(below + os.sep)

    def failing(original):
        def call(path, *args, **kwargs):
            if not isinstance(path, int) and refused(path):
                raise OSError(error, os.strerror(error), os.fspath(path))
            return original(path, *args, **kwargs)
        return call

    monkeypatch.setattr(os, "scandir", failing(os.scandir))
    monkeypatch.setattr(os, "stat", failing(os.stat))
    monkeypatch.setattr(os, "listdir", failing(os.listdir))
    monkeypatch.setattr(Path, "read_bytes", failing(Path.read_bytes))


def test_a_folder_that_cannot_be_read_is_a_finding_and_the_rest_is_still_checked(project, monkeypatch):
    (project / "locked").mkdir()
    (project / "locked" / "hidden.py").write_text(BAD)
    (project / "later").mkdir()  # walked after the locked folder
    (project / "later" / "bad.py").write_text(BAD)
    refuse(monkeypatch, project / "locked")
    code, out, err = run("check", "--format", "json", "--no-cache", cwd=project)
    assert code == 1, err
    assert "Traceback" not in out + err and "internal error" not in err
    later = {("later/bad.py", line, symbol) for _, line, symbol in EXPECTED_BAD}
    assert found(out) == EXPECTED_BAD | later | {("locked", 1, "unreadable-file")}
    (message,) = [f["message"] for f in json.loads(out) if f["path"] == "locked"]
    assert "Permission denied" in message and "folder" in message


def test_a_file_that_cannot_be_read_is_a_finding_and_the_rest_is_still_checked(project, monkeypatch):
    (project / "secret.py").write_text(BAD)
    refuse(monkeypatch, project / "secret.py")
    code, out, err = run("check", "--format", "json", "--no-cache", cwd=project)
    assert code == 1, err
    assert found(out) == EXPECTED_BAD | {("secret.py", 1, "unreadable-file")}
    # named on the command line, inside a folder that refuses it
    code, out, err = run("check", "secret.py", "bad.py", "--format", "json", "--no-cache",
                         cwd=project)
    assert code == 1, err
    assert found(out) == EXPECTED_BAD | {("secret.py", 1, "unreadable-file")}


def test_any_other_error_of_the_walk_is_a_finding_too(project, monkeypatch):
    (project / "mount").mkdir()
    (project / "mount" / "gone.py").write_text(BAD)
    refuse(monkeypatch, project / "mount", errno.EIO)
    code, out, err = run("check", "--format", "json", "--no-cache", cwd=project)
    assert code == 1, err
    assert found(out) == EXPECTED_BAD | {("mount", 1, "unreadable-file")}
    assert "Input/output error" in out


def test_an_excluded_folder_that_cannot_be_read_is_not_reported(project, monkeypatch):
    (project / "pyproject.toml").write_text('[tool.msgraphlint]\nexclude = ["locked"]\n')
    (project / "locked").mkdir()
    refuse(monkeypatch, project / "locked")
    code, out, err = run("check", "--format", "json", "--no-cache", cwd=project)
    assert code == 1, err
    assert found(out) == EXPECTED_BAD


def unprivileged(folder: Path) -> list[str] | None:
    """A command prefix that runs as nobody, when this Python can be run so (setpriv keeps the
    capabilities until exec, so the interpreter may live under /root), else None."""
    if shutil.which("setpriv") is None:
        return None
    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run([*prefix, sys.executable, "-c", "import msgraphlint.cli"], cwd=folder,
                           capture_output=True)
    return prefix if probe.returncode == 0 else None


def test_real_permissions_as_a_user_without_them():
    """The same with chmod 000, as a user without the permission (root reads everything)."""
    folder = Path(tempfile.mkdtemp(prefix="msgraphlint-faults-"))
    try:
        (folder / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
        (folder / "bad.py").write_text(BAD)
        (folder / "locked").mkdir()
        (folder / "locked" / "hidden.py").write_text(BAD)
        (folder / "secret.py").write_text(BAD)
        for path in [folder, *folder.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        (folder / "locked").chmod(0)
        (folder / "secret.py").chmod(0)
        prefix: list[str] | None = []
        if os.geteuid() == 0 and (prefix := unprivileged(folder)) is None:
            pytest.skip("cannot run this Python as a user without root's permissions")
        command = [*prefix, sys.executable, "-m", "msgraphlint.cli", "check", "--format", "json",
                   "--no-cache"]
        environment = {**os.environ, "MSGRAPHLINT_CACHE_DIR": str(folder / ".cache")}
        result = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=environment)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stdout + result.stderr
        assert found(result.stdout) == EXPECTED_BAD | {("locked", 1, "unreadable-file"),
                                                       ("secret.py", 1, "unreadable-file")}
    finally:
        (folder / "locked").chmod(0o755)
        shutil.rmtree(folder)


# ----- a damaged result cache ---------------------------------------------------------------------


def check_with_cache(folder: Path, cache_dir: Path):
    cache = ResultCache(folder=cache_dir)
    result = new_engine(cache=cache).check_paths([folder])
    return cache.hits, sorted((f.path.name, f.line, f.rule_id) for f in result.findings)


def first_finding(document: dict) -> dict:
    return next(f for entry in document["results"].values() for f in entry["findings"])


def first_entry(document: dict) -> dict:
    return next(entry for entry in document["results"].values() if entry["findings"])


DAMAGE = {
    "a line that is a string": lambda d: [f.update(line=str(f["line"]))
                                          for e in d["results"].values() for f in e["findings"]],
    "a column that is a float": lambda d: first_finding(d).update(column=3.0),
    "a line that is a bool": lambda d: first_finding(d).update(line=True),
    "a line of zero": lambda d: first_finding(d).update(line=0),
    "an unknown rule": lambda d: first_finding(d).update(rule_id="E0000"),
    "an unknown level": lambda d: first_finding(d).update(level_override="fast"),
    "a finding without a field": lambda d: first_finding(d).pop("message"),
    "a finding with a field too many": lambda d: first_finding(d).update(colour="red"),
    "args that are not a list": lambda d: first_finding(d).update(args="math.sqrt"),
    "evidence that is not pairs": lambda d: first_finding(d).update(evidence=[["compile"]]),
    "a fix that is a string": lambda d: first_finding(d).update(fix="use ops.stop_gradient"),
    "a fix edit at line zero": lambda d: first_finding(d).update(fix={
        "applicability": "safe", "description": "d", "edits": [
            {"path": "bad.py", "line": 0, "column": 1, "end_line": 1, "end_column": 1,
             "content": ""}]}),
    "a fix edit without its content": lambda d: first_finding(d).update(fix={
        "applicability": "safe", "description": "d", "edits": [
            {"path": "bad.py", "line": 1, "column": 1, "end_line": 1, "end_column": 1}]}),
    "findings that are a dict": lambda d: first_entry(d).update(findings={}),
    "an entry without its digest": lambda d: first_entry(d).pop("digest"),
    "a read index out of range": lambda d: first_entry(d).update(reads=[len(d["reads"])]),
    "a read index that is a string": lambda d: first_entry(d).update(reads=["0"]),
    "a unit that is not a list": lambda d: d["units"].update({k: 0 for k in d["units"]}),
    "a read of an unknown kind": lambda d: d["reads"].__setitem__(0, ["guess", "x", "y"]),
    "a read that is a string": lambda d: d["reads"].__setitem__(0, "file"),
    "importers that are not a list": lambda d: d["reads"].append(["importers", "x", "y"]),
    "results that are a list": lambda d: d.update(results=[]),
    "a tree stamp that is a number": lambda d: d.update(tree=7),
    "no format": lambda d: d.pop("format"),
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_cache_that_does_not_validate_is_ignored_and_rewritten(project, tmp_path, damage):
    _, first = check_with_cache(project, tmp_path / "cache")
    assert {(name, line) for name, line, _ in first} == {("bad.py", 7), ("bad.py", 8)}
    (stored,) = (tmp_path / "cache").glob("*.json")
    document = json.loads(stored.read_text())
    assert valid_document(document)
    DAMAGE[damage](document)
    stored.write_text(json.dumps(document))
    assert not valid_document(json.loads(stored.read_text()))
    hits, second = check_with_cache(project, tmp_path / "cache")
    assert hits == 0 and second == first
    assert valid_document(json.loads(stored.read_text())), "the damaged cache should be rewritten"
    hits, third = check_with_cache(project, tmp_path / "cache")
    assert hits == 1 and third == first


@pytest.mark.parametrize("content", [None, "", "{", "[]", "null", "[" * 100_000, "\xff\xfe"])
def test_a_truncated_or_unreadable_cache_file_is_ignored_and_rewritten(project, tmp_path, content):
    _, first = check_with_cache(project, tmp_path / "cache")
    (stored,) = (tmp_path / "cache").glob("*.json")
    if content is None:  # cut off in the middle
        stored.write_bytes(stored.read_bytes()[: stored.stat().st_size // 2])
    else:
        stored.write_text(content, "latin-1")
    hits, second = check_with_cache(project, tmp_path / "cache")
    assert hits == 0 and second == first
    assert valid_document(json.loads(stored.read_text()))


def test_the_cli_reports_through_a_damaged_cache(project, tmp_path, monkeypatch):
    monkeypatch.setenv("MSGRAPHLINT_CACHE_DIR", str(tmp_path / "home"))
    code, first, _ = run("check", "--format", "json", cwd=project)
    (stored,) = (tmp_path / "home" / "static").glob("*.json")
    document = json.loads(stored.read_text())
    DAMAGE["a line that is a string"](document)
    stored.write_text(json.dumps(document))
    again, second, err = run("check", "--format", "json", cwd=project)
    assert code == again == 1, err
    assert "Traceback" not in second + err and "internal error" not in err
    assert json.loads(second) == json.loads(first)


def test_the_validation_knows_every_field_of_a_finding():
    from dataclasses import fields

    assert set(FINDING_FIELDS) == {field.name for field in fields(Finding)}


# ----- an empty selection -------------------------------------------------------------------------


@pytest.mark.parametrize("selection", ["", ",", " , "])
def test_an_empty_select_on_the_command_line_is_a_configuration_error(project, selection):
    code, out, err = run("check", "--select", selection, cwd=project)
    assert code == 2
    assert "--select: an empty select checks no rule" in err
    assert out == "" and "Traceback" not in err


@pytest.mark.parametrize("selection", ["[]", '[""]', '""'])
def test_an_empty_select_in_pyproject_is_a_configuration_error(project, selection):
    (project / "pyproject.toml").write_text(f"[tool.msgraphlint]\nselect = {selection}\n")
    code, out, err = run("check", cwd=project)
    assert code == 2
    assert "pyproject.toml [tool.msgraphlint]: an empty select checks no rule" in err
    assert out == "" and "Traceback" not in err


def test_an_empty_ignore_ignores_nothing(project):
    (project / "pyproject.toml").write_text("[tool.msgraphlint]\nignore = []\n")
    code, out, _ = run("check", "--ignore", "", "--format", "json", "--no-cache", cwd=project)
    assert code == 1 and found(out) == EXPECTED_BAD


# ----- the CLI's workers end with it --------------------------------------------------------------


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory) -> Path:
    """Enough files that two processes take several seconds over them."""
    folder = tmp_path_factory.mktemp("big")
    (folder / "pyproject.toml").write_text("[project]\nname = 'big'\n")
    model = SAMPLES / "models" / "resnet_port"
    for index in range(300):
        shutil.copytree(model, folder / f"copy{index}")
    return folder


def alive(processes: list[psutil.Process]) -> list[int]:
    living = []
    for process in processes:
        try:
            if process.status() != psutil.STATUS_ZOMBIE:
                living.append(process.pid)
        except psutil.NoSuchProcess:
            pass
    return living


def kill(processes: list[psutil.Process]) -> None:
    for process in processes:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGKILL, signal.SIGHUP, signal.SIGINT],
                         ids=lambda number: signal.Signals(number).name)
def test_a_signal_to_the_cli_ends_its_workers_within_a_second(big_folder, tmp_path, number):
    command = [sys.executable, "-m", "msgraphlint.cli", "check", "--jobs", "2", "--no-cache", "."]
    cli = subprocess.Popen(command, cwd=big_folder, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env={**os.environ, "MSGRAPHLINT_CACHE_DIR": str(tmp_path)})
    workers: list[psutil.Process] = []
    try:
        parent = psutil.Process(cli.pid)
        deadline = time.monotonic() + 60
        while len(parent.children()) < 2 and cli.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = parent.children(recursive=True)
        assert len(workers) >= 2, "the workers should have started"
        time.sleep(0.5)  # at work on their slices
        assert cli.poll() is None, "the run should still be going"
        cli.send_signal(number)
        sent = time.monotonic()
        cli.wait(timeout=10)
        assert time.monotonic() - sent < 1.5, "the CLI should end at once, not wait for its workers"
        time.sleep(max(0.0, sent + 1.5 - time.monotonic()))
        assert alive(workers) == []
        assert "Traceback" not in cli.stderr.read().decode()
    finally:  # nothing left behind when the test fails
        cli.kill()
        cli.wait()
        kill(workers)


def test_a_worker_without_prctl_notices_its_parent_is_gone():
    """The fallback where PR_SET_PDEATHSIG is not there (not Linux): a thread that watches."""
    script = textwrap.dedent(
        """
        import os, sys, time
        from msgraphlint.engine import analyze
        parent = os.getpid()
        child = os.fork()
        if child == 0:
            sys.platform = "darwin"
            analyze.end_with_parent(parent)
            time.sleep(60)
            os._exit(0)
        print(child, flush=True)
        time.sleep(60)
        """
    )
    middle = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    worker = psutil.Process(int(middle.stdout.readline()))
    try:
        time.sleep(0.3)
        assert alive([worker]) == [worker.pid]
        middle.kill()
        middle.wait()
        time.sleep(1.5)
        assert alive([worker]) == []
    finally:
        middle.kill()
        middle.wait()
        kill([worker])


def _stuck_or_failing(*args):
    """In place of a worker's slice: the first fails at once, the other never finishes."""
    own = args[3]
    if own == 0:
        time.sleep(0.5)  # the other one is at work by now
        raise ValueError("a bug in one worker")
    time.sleep(60)


def test_workers_end_when_the_analysis_stops_on_an_error(tmp_path, monkeypatch):
    files = []
    for index in range(2 * analyze.MIN_FILES_PER_JOB):
        path = tmp_path / f"m{index}.py"
        path.write_text(BAD)
        files.append(path)
    monkeypatch.setattr(analyze, "_check_from_queue", _stuck_or_failing)
    engine = new_engine()
    before = {process.pid for process in psutil.Process().children()}
    started = time.monotonic()
    with pytest.raises(ValueError, match="a bug in one worker"):
        analyze.check_in_processes(files, 2, [type(f) for f in engine.families], engine.project)
    assert time.monotonic() - started < 10, "the stuck worker should not be waited for"
    time.sleep(1.0)
    workers = [process for process in psutil.Process().children() if process.pid not in before]
    try:
        assert alive(workers) == []
    finally:
        kill(workers)
