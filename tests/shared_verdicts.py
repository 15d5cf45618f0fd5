"""``--confirm``'s verdicts on the samples, shared by every test of one session.

The samples are confirmed in place, by --confirm's child processes, from more than one test file:
tests/test_confirm.py (ten rules' samples at STRICT and LAX, and ``msgraphlint check --confirm
samples`` at both levels) and tests/test_one_referee.py (``--confirm-all`` on every compiled
sample at both levels). Each reads and fills this one confirmation cache, so a (target, level) is
compiled by a child once per session, by whichever test comes first, and every later test gets
that child's result.

The cache is --confirm's own (msgraphlint.confirm.cache): an entry is keyed by the module's
content, the target's spec (kind, name, level, inputs, constructor arguments, how it is reached,
compile-only), MindSpore's version, the device and the harness's version, and is used only while
every project file the module imported is unchanged. What is cached is a child's result message;
a target a child could not answer (a time or memory limit, a crash) is never cached, and the
counterfactual runs (findings past an error naming no line) never read it. The folder is new for
each session (under the session's MSGRAPHLINT_CACHE_DIR, set in conftest.py), so nothing carries
over from one run to the next.

The compiler tests' in-process verdicts (tests/test_compiler.py) are never taken from here:
tests/test_one_referee.py compares the two.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

_FOLDER = Path(tempfile.mkdtemp(prefix="shared-verdicts-",
                                dir=os.environ.get("MSGRAPHLINT_CACHE_DIR")))


def verdicts_cache() -> Path:
    """The session's confirmation cache folder (pass it as ConfirmOptions.cache_dir)."""
    return _FOLDER


def cli_cache_home(folder: Path) -> dict[str, str]:
    """The environment for a ``msgraphlint check --confirm`` subprocess that shares the session's
    verdicts: a fresh MSGRAPHLINT_CACHE_DIR of its own (``folder``, so its static results are its
    own), whose ``confirm`` folder is the shared one."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "confirm").symlink_to(_FOLDER, target_is_directory=True)
    return {"MSGRAPHLINT_CACHE_DIR": str(folder)}
