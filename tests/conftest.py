"""Test session settings."""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import pytest

_exit_status = 0
# The CLI caches results by default; tests (and the msgraphlint processes they start) must not
# read or fill the user's cache. One fresh folder per session; tests that test the cache make
# their own.
os.environ["MSGRAPHLINT_CACHE_DIR"] = tempfile.mkdtemp(prefix="msgraphlint-test-cache-")

# tests/test_expected_output.py: rewrite tests/expected/ instead of comparing (docs/testing.md).
UPDATE_EXPECTED = "update_expected"
_CHANGED_EXPECTED = pytest.StashKey[list]()


def pytest_addoption(parser):
    parser.addoption(
        "--update-expected",
        action="store_true",
        dest=UPDATE_EXPECTED,
        help="rewrite tests/expected/ (the samples' expected output) from the current output",
    )


def changed_expected_files(config) -> list[tuple[str, str]]:
    """(what was done, path) for every expected-output file --update-expected changed."""
    return config.stash.setdefault(_CHANGED_EXPECTED, [])


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not config.getoption(UPDATE_EXPECTED):
        return
    changed = changed_expected_files(config)
    terminalreporter.section("--update-expected")
    for action, path in changed:
        terminalreporter.write_line(f"{action} {path}")
    if changed:
        terminalreporter.write_line(f"{len(changed)} expected-output file(s) changed; review"
                                    " them with git diff and commit them")
    else:
        terminalreporter.write_line("every expected-output file that ran was up to date")


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected
def pytest_collection_modifyitems(session, config, items):
    """When compiler tests are selected and MindSpore is installed, start tests/prejudge.py's
    child and run the tests that read its judgements last, so that it judges while the others
    run (docs/testing.md: Test time)."""
    from . import prejudge

    def reads_judgements(item) -> bool:
        return item.path.name in prejudge.READERS

    sample_ids = sorted({
        item.callspec.params["sample"].id for item in items
        if reads_judgements(item) and "sample" in getattr(getattr(item, "callspec", None),
                                                          "params", {})
    })
    if not sample_ids or config.option.collectonly or importlib.util.find_spec("mindspore") is None:
        return
    items.sort(key=reads_judgements)  # stable: each group keeps its order
    folder = Path(tempfile.mkdtemp(prefix="prejudged-", dir=os.environ["MSGRAPHLINT_CACHE_DIR"]))
    prejudge.ACTIVE = prejudge.Prejudged.start(
        folder, Path(__file__).resolve().parent.parent, sample_ids)


def pytest_sessionfinish(session, exitstatus):
    global _exit_status
    _exit_status = int(exitstatus)
    from . import prejudge

    if prejudge.ACTIVE is not None:
        prejudge.ACTIVE.stop()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """MindSpore 2.10 segfaults in interpreter teardown (Cell.__del__ after its runtime is
    gone), turning a green run into exit 139. Once pytest has reported, leave without teardown."""
    if "mindspore" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status)
