"""with-non-jit-class: 'with' on a lock, a file, a thread pool, a plain class and a Cell.

What the compiler does at each level: msgraphlint explain with-non-jit-class.
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor

from mindspore import nn, ops


class Timer:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Scaler(nn.Cell):
    """A Cell used only as a context manager (it has no construct of its own)."""

    def __enter__(self):
        return 2.0

    def __exit__(self, *exc):
        return False


class LockedUpdate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()

    def construct(self, x):
        with self.lock:  # expect: with-non-jit-class
            x = x + 1
        return x


class LoggedForward(nn.Cell):
    def construct(self, x):
        with open(os.devnull, "w") as log:  # expect: with-non-jit-class
            out = ops.relu(x)
        return out


class ParallelHeads(nn.Cell):
    def construct(self, x):
        with ThreadPoolExecutor() as pool:  # expect: with-non-jit-class
            out = x * 2
        return out


class TimedForward(nn.Cell):
    def construct(self, x):
        with Timer():  # expect: with-non-jit-class
            out = ops.tanh(x)
        return out


class ScaledForward(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scaler = Scaler()

    def construct(self, x):
        with self.scaler as factor:  # expect: with-non-jit-class
            out = x * factor
        return out
