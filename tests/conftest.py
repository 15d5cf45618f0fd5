"""Test session settings."""

from __future__ import annotations

import os
import sys
import tempfile

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


def pytest_sessionfinish(session, exitstatus):
    global _exit_status
    _exit_status = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """MindSpore 2.10 segfaults in interpreter teardown (Cell.__del__ after its runtime is
    gone), turning a green run into exit 139. Once pytest has reported, leave without teardown."""
    if "mindspore" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status)
