"""The concurrency family: where threads, pools and locks are reported, and where they are not."""

from __future__ import annotations

import textwrap

import pytest

from .engine_helpers import check_source


def flagged(tmp_path, source: str) -> list[int]:
    """Lines with a host-concurrency finding; the lines meant to have one end in '# here'."""
    return [f.line for f in check_source(tmp_path, source) if f.rule.symbol == "host-concurrency"]


def marked(source: str) -> list[int]:
    return [n for n, line in enumerate(source.splitlines(), 1) if line.endswith("# here")]


def module(body: str) -> str:
    header = """
    import multiprocessing
    import threading
    import concurrent.futures as futures
    from concurrent.futures import ThreadPoolExecutor
    from multiprocessing import Process
    from mindspore import jit, nn

    def work():
        pass
    """
    return textwrap.dedent(header) + textwrap.dedent(body)


@pytest.mark.parametrize(
    "statement",
    [
        "threading.Thread(target=work).start()",
        "threading.Timer(1.0, work).start()",
        "Process(target=work).start()",
        "multiprocessing.Pool(2).map(abs, [1, 2])",
        "futures.ProcessPoolExecutor().submit(work)",
        "pool = ThreadPoolExecutor(1)",
    ],
)
def test_workers_created_in_construct_are_reported_once(tmp_path, statement):
    source = module(f"""
    class Net(nn.Cell):
        def construct(self, x):
            {statement}  # here
            return x
    """)
    assert flagged(tmp_path, source) == marked(source)


def test_worker_methods_after_creation_are_not_reported_again(tmp_path):
    source = module("""
    @jit
    def step(x):
        worker = threading.Thread(target=work)  # here
        worker.start()
        worker.join()
        return x
    """)
    assert flagged(tmp_path, source) == marked(source)


def test_pools_workers_and_locks_made_in_init_are_reported_where_used(tmp_path):
    source = module("""
    class Base(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lock = threading.Lock()

    class Net(Base):
        def __init__(self):
            super().__init__()
            self.pool = ThreadPoolExecutor(max_workers=1)
            self.ready = multiprocessing.Event()
            self.scale = 2

        def construct(self, x):
            self.lock.acquire()  # here
            self.pool.submit(work)  # here
            self.ready.set()  # here
            self.lock.release()  # here
            return x * self.scale
    """)
    assert flagged(tmp_path, source) == marked(source)


def test_module_level_and_local_locks_are_reported_where_used(tmp_path):
    source = module("""
    LOCK = threading.RLock()

    class Net(nn.Cell):
        def construct(self, x):
            LOCK.acquire()  # here
            guard = threading.Semaphore()
            guard.acquire()  # here
            return x
    """)
    assert flagged(tmp_path, source) == marked(source)


def test_thread_subclasses_of_the_project_are_workers(tmp_path):
    source = module("""
    class Prefetcher(threading.Thread):
        def run(self):
            work()

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.prefetcher = Prefetcher()

        def construct(self, x):
            Prefetcher().start()  # here
            self.prefetcher.join()  # here
            return x
    """)
    assert flagged(tmp_path, source) == marked(source)


def test_with_statements_are_left_to_the_syntax_family(tmp_path):
    source = module("""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lock = threading.Lock()

        def construct(self, x):
            with ThreadPoolExecutor(1) as pool:
                pool.submit(work)
            with self.lock:
                x = x * 2
            return x
    """)
    assert flagged(tmp_path, source) == []


def test_near_misses_are_not_reported(tmp_path):
    source = module("""
    class Worker:
        def start(self):
            pass

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pool = ThreadPoolExecutor(1)
            self.worker = Worker()
            self.layer = nn.Dense(2, 2)

        def construct(self, x):
            self.worker.start()
            return self.layer(x)

    def train(net, x):
        threading.Thread(target=work).start()
        net.pool.submit(work)
        return net(x)
    """)
    assert flagged(tmp_path, source) == []
