"""Progress on a terminal: the analysis and --confirm report how far they are, and a quick run
shows nothing."""

from __future__ import annotations

from msgraphlint.pipeline import new_engine
from msgraphlint.progress import ProgressBar

from .samples_index import SAMPLES


def test_a_bar_appears_only_after_the_delay():
    with ProgressBar("checking", 10, show=True, delay=3600) as quick:
        quick.update(5)
        assert quick._bar is None
    with ProgressBar("checking", 10, show=True, delay=0) as slow:
        slow.update(5)
        assert slow._bar is not None and slow.done == 5


def test_no_bar_off_a_terminal_or_for_nothing():
    with ProgressBar("checking", 10, show=False, delay=0) as bar:
        bar.update(3)
        assert bar._bar is None
    with ProgressBar("checking", 0, show=True, delay=0) as empty:
        assert empty._bar is None


def test_the_engine_reports_files_as_it_takes_them(tmp_path):
    seen: list[tuple[int, int]] = []
    run = new_engine().check_paths([SAMPLES], jobs=1, progress=lambda done, total: seen.append((done, total)))
    assert [done for done, _ in seen] == list(range(run.files))
    assert {total for _, total in seen} == {run.files}


def test_processes_report_through_their_shared_queue():
    """The parent reads the processes' [start, end) bounds: files taken = total - files left."""
    import multiprocessing
    import time

    from msgraphlint.engine.analyze import _watching

    queue = multiprocessing.Array("q", [0, 5, 5, 10])  # two slices of five files
    seen: list[int] = []
    with _watching(queue, 10, seen.append):
        with queue.get_lock():
            queue[0], queue[2] = 3, 6  # the first process took three, the second one
        time.sleep(0.6)
    assert seen and seen[-1] == 4
