"""The per-file result cache: hits on unchanged files, misses whenever something a file's findings
were computed from has changed, in that file or in another one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msgraphlint.pipeline import new_engine
from msgraphlint.engine.cache import ResultCache

CELL_USING_NUMPY = """\
import numpy as np
from base import Base


class Net(Base):
    def construct(self, x):
        return np.sum(x)
"""
CELL_BASE = "from mindspore import nn\n\n\nclass Base(nn.Cell):\n    pass\n"
PLAIN_BASE = "class Base:\n    pass\n"


def run(folder: Path, cache_dir: Path):
    cache = ResultCache(folder=cache_dir)
    result = new_engine(cache=cache).check_paths([folder])
    return cache.hits, sorted((f.path.name, f.line, f.rule_id) for f in result.findings)


@pytest.fixture
def project(tmp_path):
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "pyproject.toml").write_text("")
    return folder


def test_an_unchanged_rerun_hits_every_file_with_the_same_findings(project, tmp_path):
    (project / "base.py").write_text(CELL_BASE)
    (project / "net.py").write_text(CELL_USING_NUMPY)
    hits, first = run(project, tmp_path / "cache")
    assert hits == 0 and first, "the numpy call in construct should be found"
    hits, second = run(project, tmp_path / "cache")
    assert hits == 2
    assert second == first


def test_a_changed_base_class_in_another_file_invalidates_the_subclass(project, tmp_path):
    (project / "base.py").write_text(CELL_BASE)
    (project / "net.py").write_text(CELL_USING_NUMPY)
    _, before = run(project, tmp_path / "cache")
    assert any(name == "net.py" for name, _, _ in before)
    (project / "base.py").write_text(PLAIN_BASE)  # Net is no Cell any more
    hits, after = run(project, tmp_path / "cache")
    assert hits == 0
    assert not any(name == "net.py" for name, _, _ in after)


def test_a_module_created_where_a_lookup_failed_invalidates(project, tmp_path):
    (project / "net.py").write_text(CELL_USING_NUMPY)  # base.py does not exist yet
    _, before = run(project, tmp_path / "cache")
    assert before == []
    (project / "base.py").write_text(CELL_BASE)
    _, after = run(project, tmp_path / "cache")
    assert any(name == "net.py" for name, _, _ in after)


def test_a_new_importer_that_compiles_a_helper_invalidates_the_helper(project, tmp_path):
    (project / "helpers.py").write_text(
        "import numpy as np\n\n\ndef total(x):\n    return np.sum(x)\n"
    )
    _, before = run(project, tmp_path / "cache")
    assert before == [], "a helper no Cell calls is not compiled"
    (project / "net.py").write_text(
        "from mindspore import nn\nfrom helpers import total\n\n\n"
        "class Net(nn.Cell):\n    def construct(self, x):\n        return total(x)\n"
    )
    hits, after = run(project, tmp_path / "cache")
    assert ("helpers.py", 5) in {(name, line) for name, line, _ in after}
    assert hits == 0


def test_an_edit_rechecks_the_files_it_can_affect_and_no_others(project, tmp_path):
    (project / "base.py").write_text(CELL_BASE)
    (project / "net.py").write_text(CELL_USING_NUMPY)
    (project / "alone.py").write_text("def f(x):\n    return x\n")
    run(project, tmp_path / "cache")
    (project / "net.py").write_text(CELL_USING_NUMPY + "\n# edited\n")
    hits, _ = run(project, tmp_path / "cache")
    # base.py again (net.py imports it: its Cells could compile base.py's functions); alone.py
    # is cached.
    assert hits == 1


def test_a_damaged_cache_is_a_miss_not_an_error(project, tmp_path):
    (project / "base.py").write_text(CELL_BASE)
    (project / "net.py").write_text(CELL_USING_NUMPY)
    _, first = run(project, tmp_path / "cache")
    for stored in (tmp_path / "cache").glob("*.json"):
        document = json.loads(stored.read_text())
        document["reads"] = document["reads"][:1]  # indices now point nowhere
        stored.write_text(json.dumps(document))
    hits, second = run(project, tmp_path / "cache")
    assert hits == 0 and second == first
    for stored in (tmp_path / "cache").glob("*.json"):
        stored.write_text("{not json")
    hits, third = run(project, tmp_path / "cache")
    assert hits == 0 and third == first
def test_the_cli_uses_the_cache_unless_told_not_to(project, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from msgraphlint.cli import app

    monkeypatch.setenv("MSGRAPHLINT_CACHE_DIR", str(tmp_path / "home"))
    (project / "base.py").write_text(CELL_BASE)
    (project / "net.py").write_text(CELL_USING_NUMPY)
    runner = CliRunner()
    first = runner.invoke(app, ["check", str(project), "--format", "json"])
    assert list((tmp_path / "home" / "static").glob("*.json")), "the CLI should write its cache"
    second = runner.invoke(app, ["check", str(project), "--format", "json", "--no-cache"])
    assert first.exit_code == second.exit_code == 1
    assert json.loads(first.stdout) == json.loads(second.stdout)


def test_an_unchanged_rerun_writes_nothing(project, tmp_path):
    (project / "base.py").write_text(CELL_BASE)
    (project / "net.py").write_text(CELL_USING_NUMPY)
    run(project, tmp_path / "cache")
    [stored] = (tmp_path / "cache").glob("*.json")
    written = stored.stat().st_mtime_ns, stored.read_bytes()
    hits, _ = run(project, tmp_path / "cache")
    assert hits == 2
    assert (stored.stat().st_mtime_ns, stored.read_bytes()) == written


def test_an_edit_that_keeps_the_size_is_seen(project, tmp_path):
    """The unchanged tree is judged by each file's size, times and inode: a same-size edit
    changes the times, and the file is read again."""
    (project / "base.py").write_text(CELL_BASE)
    (project / "net.py").write_text(CELL_USING_NUMPY)
    _, before = run(project, tmp_path / "cache")
    assert any(name == "net.py" for name, _, _ in before)
    same_size = CELL_BASE.replace("nn.Cell", "object_")  # Base is no Cell any more
    assert len(same_size) == len(CELL_BASE)
    (project / "base.py").write_text(same_size)
    hits, after = run(project, tmp_path / "cache")
    assert not any(name == "net.py" for name, _, _ in after)
    assert hits == 0


CELL_FINE = "from mindspore import nn\n\n\nclass A(nn.Cell):\n    def construct(self, x):\n        return x\n"
CELL_HOST = CELL_FINE.replace("return x", "return np.tanh(x)").replace("from mindspore", "import numpy as np\nfrom mindspore")


def test_a_run_of_one_file_does_not_vouch_for_the_others(project, tmp_path):
    """Two files edited, one of them checked: the cache written then must not let the other's
    old findings through on the next run."""
    (project / "a.py").write_text(CELL_FINE)
    (project / "b.py").write_text(CELL_FINE.replace("class A", "class B"))
    run(project, tmp_path / "cache")
    (project / "a.py").write_text(CELL_HOST)
    (project / "b.py").write_text(CELL_HOST.replace("class A", "class B"))
    cache = ResultCache(folder=tmp_path / "cache")
    new_engine(cache=cache).check_paths([project / "a.py"])
    cache = ResultCache(folder=tmp_path / "cache")
    result = new_engine(cache=cache).check_paths([project / "b.py"])
    assert [f.path.name for f in result.findings] == ["b.py"]


def test_a_file_in_a_skipped_folder_is_read_again(project, tmp_path):
    """The stat stamp covers the files a project walk finds; a file checked by name in a
    skipped folder (build/) is judged by its content."""
    build = project / "build"
    build.mkdir()
    (build / "x.py").write_text(CELL_FINE)
    cache_dir = tmp_path / "cache"
    assert run(build / "x.py", cache_dir)[1] == []
    (build / "x.py").write_text(CELL_HOST)
    hits, findings = run(build / "x.py", cache_dir)
    assert hits == 0 and [name for name, _, _ in findings] == ["x.py"]
