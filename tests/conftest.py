"""Test session settings."""

from __future__ import annotations

import os
import sys

import pytest

_exit_status = 0


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
