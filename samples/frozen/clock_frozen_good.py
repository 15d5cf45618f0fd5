"""clock-frozen, fixed: the training loop times and stamps the compiled call from outside. Per level: msgraphlint explain clock-frozen."""

import time

from mindspore import jit, nn, ops


class TimedBlock(nn.Cell):
    def construct(self, x):
        return ops.matmul(x, x)


@jit
def stamped_step(x):
    return x * 2


def timed_call(net, x):
    """Host code, not compiled: the clock is read on every call."""
    start = time.perf_counter()
    y = net(x)
    y.asnumpy()  # wait for the device before reading the clock again
    return y, time.perf_counter() - start, time.time()
