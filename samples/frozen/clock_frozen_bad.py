"""clock-frozen: the time read (time, datetime) inside construct and a jit function. Per level: msgraphlint explain clock-frozen."""

import time
from datetime import datetime

from mindspore import jit, nn, ops


class TimedBlock(nn.Cell):
    def construct(self, x):
        start = time.perf_counter()  # expect: clock-frozen
        y = ops.matmul(x, x)
        elapsed = time.perf_counter() - start  # expect: clock-frozen
        return y, elapsed


class StampedOutput(nn.Cell):
    def construct(self, x):
        return x * 2, datetime.now().timestamp()  # expect: clock-frozen


@jit
def stamped_step(x):
    return x * 2, time.time()  # expect: clock-frozen
