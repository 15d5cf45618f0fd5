"""host-concurrency: threads, a pool and a timer started inside compiled code. Per level: msgraphlint explain host-concurrency."""

import threading
from concurrent.futures import ThreadPoolExecutor

from mindspore import jit, nn

EVENTS = []


def log_step():
    EVENTS.append("step")


class BackgroundLogger(nn.Cell):
    def construct(self, x):
        worker = threading.Thread(target=log_step)  # expect: host-concurrency
        worker.start()
        worker.join()
        return x * 2


class PooledLogger(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = ThreadPoolExecutor(max_workers=1)

    def construct(self, x):
        self.pool.submit(log_step).result()  # expect: host-concurrency
        return x * 2


class StepLogger(threading.Thread):
    def run(self):
        log_step()


class SubclassedLogger(nn.Cell):
    def construct(self, x):
        logger = StepLogger()  # expect: host-concurrency
        logger.start()
        logger.join()
        return x * 2


@jit
def delayed_log(x):
    timer = threading.Timer(0.0, log_step)  # expect: host-concurrency
    timer.start()
    timer.join()
    return x * 2
