"""``--confirm``'s children are isolated (issue 33): a scrubbed environment, a read-only file
system and no network where the system offers a sandbox, and no process left behind.

Driven through the installed entry point, as a user runs it; one tiny Cell per test.
"""

from __future__ import annotations

import json
import signal
import os
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
psutil = pytest.importorskip("psutil")

from msgraphlint.confirm import sandbox  # noqa: E402
from msgraphlint.confirm_settings import SettingsError, parse_confirm  # noqa: E402

pytestmark = pytest.mark.compiler
ENTRY_POINT = Path(sys.executable).with_name("msgraphlint")
PYPROJECT = """
[project]
name = "demo"

[tool.msgraphlint.confirm]
pass-env = ["MSGRAPHLINT_TEST_PASSED"]
"""
CELL = """
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.where(x.asnumpy() > 0, 1.0, 0.0).astype(np.float32))
"""


def start_cli(root: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [str(ENTRY_POINT), "check", "--confirm", "--no-cache", "--format", "json", "-j", "1", "."],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "MSGRAPHLINT_CACHE_DIR": str(root / ".cache"), **env})


def test_the_child_sees_a_scrubbed_environment_and_cannot_write_outside(tmp_path):
    outside = tmp_path / "outside" / "written.txt"
    outside.parent.mkdir()
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    # What the module saw is reported through the import error, the one channel out of the child.
    (tmp_path / "snoop.py").write_text(textwrap.dedent(f"""
        import os

        seen = os.environ.get("MSGRAPHLINT_TEST_CANARY")
        passed = os.environ.get("MSGRAPHLINT_TEST_PASSED")
        try:
            with open({str(outside)!r}, "w") as file:
                file.write("escaped")
            wrote = "yes"
        except OSError as error:
            wrote = type(error).__name__
        raise RuntimeError(f"REPORT canary={{seen}} passed={{passed}} home={{os.environ['HOME']}}"
                           f" wrote={{wrote}}")
    """) + CELL)
    done = start_cli(tmp_path, {"MSGRAPHLINT_TEST_CANARY": "secret-42",
                                "MSGRAPHLINT_TEST_PASSED": "named-in-pass-env"})
    stdout, stderr = done.communicate(timeout=600)
    records = json.loads(stdout)
    report = next(text for text in map(json.dumps, records) if "REPORT" in text)
    assert "canary=None" in report, report
    assert "secret-42" not in stdout + stderr
    assert "passed=named-in-pass-env" in report  # pass-env lets a variable through
    assert "msgraphlint-confirm-" in report  # HOME is the scratch folder
    if "runs without a sandbox" in stderr:
        assert "environment is still scrubbed" in stderr
        assert stderr.count("runs without a sandbox") == 1
    else:
        assert not outside.exists(), "the child wrote outside its scratch folder"
        assert "wrote=yes" not in report


def test_no_process_the_child_started_outlives_the_run(tmp_path):
    marker = f"msgraphlint-test-grandchild-{uuid.uuid4().hex}"
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "forks.py").write_text(textwrap.dedent(f"""
        import os
        import sys

        import numpy as np
        from mindspore import Tensor, nn


        def daemon():
            if os.fork() == 0:  # a double fork: the grandchild is nobody's child
                if os.fork() == 0:
                    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(300)",
                                              {marker!r}])
                os._exit(0)


        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                daemon()

            def construct(self, x):
                return x + Tensor(np.where(x.asnumpy() > 0, 1.0, 0.0).astype(np.float32))
    """))

    def grandchildren():
        found = []
        for process in psutil.process_iter(["cmdline"]):
            if marker in (process.info["cmdline"] or []):
                found.append(process)
        return found

    done = start_cli(tmp_path, {})
    seen = False
    while done.poll() is None:
        seen = seen or bool(grandchildren())
        time.sleep(0.1)
    stdout, stderr = done.communicate()
    assert json.loads(stdout), stderr
    assert seen, "the grandchild never started"
    deadline = time.monotonic() + 5
    while grandchildren() and time.monotonic() < deadline:
        time.sleep(0.1)
    left = grandchildren()
    for process in left:
        process.kill()
    assert left == []


def test_the_environment_allowlist():
    env = sandbox.child_environment(Path("/scratch"), ("WANDB_*",), source={
        "PATH": "/bin", "LC_ALL": "C", "MS_DEV_X": "1", "GLOG_v": "3", "AWS_SECRET_ACCESS_KEY": "k",
        "HOME": "/root", "WANDB_MODE": "offline", "SSH_AUTH_SOCK": "/s", "OMP_NUM_THREADS": "2"})
    assert env == {"PATH": "/bin", "LC_ALL": "C", "MS_DEV_X": "1", "GLOG_v": "3",
                   "WANDB_MODE": "offline", "OMP_NUM_THREADS": "2", "HOME": "/scratch/home",
                   "TMPDIR": "/scratch/tmp", "TMP": "/scratch/tmp", "TEMP": "/scratch/tmp"}


@pytest.mark.parametrize("value, message", [
    ("WANDB_MODE", "must be a list"),
    ([1], "must be a list"),
    (["NOT A NAME"], "is not an environment variable name"),
])
def test_a_bad_pass_env_is_a_clear_error(value, message):
    with pytest.raises(SettingsError, match=message):
        parse_confirm({"pass-env": value}, "[tool.msgraphlint]")


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_run_leaves_no_child_nor_fork_server(tmp_path, number):
    marker = f"msgraphlint-test-hang-{uuid.uuid4().hex}"
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "hangs.py").write_text(textwrap.dedent(f"""
        import subprocess
        import sys
        import time

        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", {marker!r}])
        time.sleep(300)
    """) + CELL)
    done = start_cli(tmp_path, {})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(
            marker in (p.info["cmdline"] or []) for p in psutil.process_iter(["cmdline"])):
        time.sleep(0.1)
    descendants = psutil.Process(done.pid).children(recursive=True)
    assert descendants, "no child started"
    done.send_signal(number)
    done.communicate(timeout=60)
    gone, alive = psutil.wait_procs(descendants, timeout=10)
    stray = [p for p in psutil.process_iter(["cmdline"]) if marker in (p.info["cmdline"] or [])]
    for process in alive + stray:
        process.kill()
    assert alive == [] and stray == []
