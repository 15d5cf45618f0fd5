"""--jobs: processes split the files, and the report is the one a single process gives."""

from __future__ import annotations

import gc
import multiprocessing
from pathlib import Path

from msgraphlint.engine import analyze
from msgraphlint.engine.analyze import MIN_FILES_PER_JOB, balanced_slices, package_slices
from msgraphlint.pipeline import new_engine

ROOT = Path(__file__).resolve().parent.parent


def report(run) -> list[tuple]:
    return [(str(f.path), f.line, f.column, f.rule_id, f.message) for f in run.findings]


def test_processes_report_what_one_process_reports():
    samples = ROOT / "samples"
    serial = new_engine().check_paths([samples], jobs=1)
    parallel = new_engine().check_paths([samples], jobs=3)
    assert serial.files >= MIN_FILES_PER_JOB * 2, "too few samples to exercise the process pool"
    assert parallel.files == serial.files
    assert report(parallel) == report(serial)
    assert parallel.internal_errors == serial.internal_errors


def test_helper_findings_keep_the_same_path_whichever_file_came_first(tmp_path):
    """The first path kept for a helper must not depend on which importer was checked first."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "helpers.py").write_text(
        "import numpy as np\n\ndef norm(x):\n    return np.linalg.norm(x.asnumpy())\n"
    )
    for name in ("a_net", "b_net"):
        (tmp_path / f"{name}.py").write_text(
            "from mindspore import nn\nfrom helpers import norm\n\n"
            f"class {name.title().replace('_', '')}(nn.Cell):\n"
            "    def construct(self, x):\n        return norm(x)\n"
        )
    forward = new_engine().check_paths([tmp_path / "a_net.py", tmp_path / "b_net.py", tmp_path / "helpers.py"])
    backward = new_engine().check_paths([tmp_path / "b_net.py", tmp_path / "a_net.py", tmp_path / "helpers.py"])
    helper_messages = {f.message for f in forward.findings if f.path.name == "helpers.py"}
    assert helper_messages, "the helper should be reached from both Cells"
    assert helper_messages == {f.message for f in backward.findings if f.path.name == "helpers.py"}
    assert all("ANet.construct" in message for message in helper_messages)


def test_slices_are_contiguous_balanced_and_complete(tmp_path):
    files = []
    for index, size in enumerate([10, 10, 10, 10, 1000, 10, 10, 10]):
        path = tmp_path / f"f{index}.py"
        path.write_text("#" * size)
        files.append(path)
    slices = balanced_slices(files, 2)
    assert [path for chunk in slices for path in chunk] == files
    assert len(slices) == 2
    assert files[4] in slices[0]  # the big file fills the first half on its own


def test_slices_keep_each_package_whole_the_largest_first(tmp_path):
    files = []
    for package, count, size in (("big", 6, 100), ("mid", 3, 100), ("small", 2, 100), ("tiny", 1, 50)):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
        for index in range(count):
            path = tmp_path / package / f"m{index}.py"
            path.write_text("#" * size)
            files.append(path)
    slices = package_slices(files, 2)
    assert sorted(path for chunk in slices for path in chunk) == sorted(files)
    packages = [{path.parent.name for path in chunk} for chunk in slices]
    assert packages == [{"big"}, {"mid", "small", "tiny"}]
    # one package: contiguous halves, as before
    assert package_slices(files[:6], 2) == balanced_slices(files[:6], 2)


def test_scripts_outside_packages_stay_with_their_folder(tmp_path):
    files = []
    for folder, count in (("tools", 4), ("scripts", 3)):
        (tmp_path / folder).mkdir()
        for index in range(count):
            path = tmp_path / folder / f"s{index}.py"
            path.write_text("#" * 100)
            files.append(path)
    slices = package_slices(files, 2)
    assert [{path.parent.name for path in chunk} for chunk in slices] == [{"tools"}, {"scripts"}]


def test_the_text_prefilter_keeps_cells_and_imported_helpers(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "net.py").write_text("from mindspore import nn\nfrom helpers import f\n")
    (tmp_path / "helpers.py").write_text("def f(x):\n    return x\n")
    (tmp_path / "script.py").write_text("print('training done')\n")
    engine = new_engine()
    keep = {name: engine.may_hold_graph_code(tmp_path / name, (tmp_path / name).read_bytes())
            for name in ("net.py", "helpers.py", "script.py")}
    assert keep == {"net.py": True, "helpers.py": True, "script.py": False}


def test_a_process_that_runs_out_takes_files_from_the_back_of_the_fullest_slice(monkeypatch):
    # slices [0, 4) and [4, 10): process 0 checks its own four, then steals 9, 8, 7 from the
    # back of slice 1 while process 1 works from the front; every file exactly once.
    queue = multiprocessing.get_context().Array("q", [0, 4, 4, 10])
    monkeypatch.setattr(analyze, "_QUEUE", queue)
    first, second = analyze._queued(0), analyze._queued(1)
    taken = [next(first) for _ in range(4)] + [next(second), next(first), next(second)]
    assert taken == [0, 1, 2, 3, 4, 9, 5]
    taken += list(first)
    assert sorted(taken) == list(range(10))
    assert list(second) == []


def test_checking_leaves_the_collector_on_and_the_kept_trees_out_of_its_walks(monkeypatch):
    # As in a fresh process (the CLI's): the test session has checked files before this test.
    monkeypatch.setattr(analyze, "_first_batch_done", False)
    gc.unfreeze()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    files = sorted((ROOT / "samples").rglob("*.py"))[:5]
    run = new_engine().check_files(files)
    assert run.files == 5
    assert gc.isenabled()
    # frozen: the next collection of the oldest generation does not walk the kept trees again
    assert gc.get_freeze_count() > 1000
    # A later batch (an editor's next analysis) hands them back and freezes nothing.
    new_engine().check_files(files)
    assert gc.isenabled() and gc.get_freeze_count() == 0
