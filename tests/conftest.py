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
