"""A progress bar on stderr for runs that take more than a moment, and nothing otherwise.

Shared by the analysis and ``--confirm``. Shown only on a terminal, only once the run has taken
longer than ``delay`` seconds (a quick run prints nothing), and gone when the run ends.
"""

from __future__ import annotations

import sys
import time


class ProgressBar:
    def __init__(self, label: str, total: int, show: bool | None = None, delay: float = 1.0):
        self.label, self.total, self.delay = label, total, delay
        self.show = (sys.stderr.isatty() if show is None else show) and total > 0
        self.done = 0
        self._started = time.monotonic()
        self._bar = None
        self._task = None

    def __enter__(self) -> "ProgressBar":
        self.update(0)  # with no delay, the bar is there from the start
        return self

    def advance(self, count: int = 1) -> None:
        self.update(self.done + count)

    def update(self, done: int) -> None:
        self.done = done
        if not self.show:
            return
        if self._bar is None:
            if time.monotonic() - self._started < self.delay:
                return
            self._start()
        self._bar.update(self._task, completed=done)

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(self.label, total=self.total, completed=self.done)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
