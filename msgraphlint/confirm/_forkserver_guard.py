"""Imported by the fork server alone (pool.PRELOAD): when msgraphlint is gone, even by SIGKILL
(which runs no handler), it ends every child it forked with the child's whole process group (each
child is a session of its own: child.run_job), so the processes the user's code started too, and
any that left the group (they keep the run's scratch HOME: sandbox.sweep), then itself. Python's
fork server would stay up as long as its children live. The watch is a thread, not
PR_SET_PDEATHSIG, which would kill the server before it could end the groups; the server waits in
select(), so the thread runs. A child also ends with the server (end_with_parent), should the
server die first."""

import os
import signal
import threading
import time
from pathlib import Path

from .sandbox import sweep

PARENT = os.getppid()
SERVER = os.getpid()


def _children() -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == SERVER:  # the field after the state: the parent's pid
            found.append(int(entry))
    return found


def _watch() -> None:
    while os.getppid() == PARENT:
        time.sleep(0.2)
    home = os.environ.get("HOME", "")
    if "msgraphlint-confirm-" in home:  # a run's scratch HOME (sandbox.child_environment)
        sweep(Path(home).parent)  # what left a child's group: a double fork with setsid
    for child in _children():
        try:
            os.killpg(child, signal.SIGKILL)
        except OSError:
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
    os._exit(0)


if os.path.isdir("/proc"):
    threading.Thread(target=_watch, name="msgraphlint-forkserver-watch", daemon=True).start()
