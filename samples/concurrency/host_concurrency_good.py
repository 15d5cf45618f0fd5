"""host-concurrency, fixed: the training loop does the host work; the graph only computes. Per level: msgraphlint explain host-concurrency."""

import threading
from concurrent.futures import ThreadPoolExecutor

from mindspore import jit, nn

EVENTS = []


def log_step():
    EVENTS.append("step")


class BackgroundLogger(nn.Cell):
    def construct(self, x):
        return x * 2


class PooledLogger(nn.Cell):
    def __init__(self):
        super().__init__()
        # Made in __init__ and only used by host code: nothing runs at compile time.
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.lock = threading.Lock()

    def construct(self, x):
        return x * 2


@jit
def delayed_log(x):
    return x * 2


def train_step(net, x):
    """Host code, not compiled: the logger really runs at every step."""
    y = net(x)
    with net.lock:
        net.pool.submit(log_step).result()
    return y
