"""Host concurrency in compiled code: threads, processes, pools and locks.

Creating and starting a thread or process, submitting to a pool or taking a lock are host calls on
constants, which the graph compiler runs once, while compiling. Workers are reported where they are
created in compiled code; pools, workers and locks made elsewhere (``self.pool`` from ``__init__``,
a module-level lock) where compiled code calls their methods; ``with <pool or lock>:`` is left to
the syntax family. What the compiler does at each level is in msgraphlint/knowledge/rules/concurrency.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.syntax.project import ClassInfo

# Creating one of these in compiled code starts (or prepares) host work: reported at creation.
WORKER_FACTORIES = frozenset(
    {
        "threading.Thread",
        "threading.Timer",
        "_thread.start_new_thread",
        "multiprocessing.Process",
        "multiprocessing.Pool",
        "multiprocessing.pool.Pool",
        "multiprocessing.pool.ThreadPool",
        "multiprocessing.dummy.Process",
        "multiprocessing.dummy.Pool",
        "concurrent.futures.ThreadPoolExecutor",
        "concurrent.futures.ProcessPoolExecutor",
        "concurrent.futures.thread.ThreadPoolExecutor",
        "concurrent.futures.process.ProcessPoolExecutor",
    }
)
# Creating these is harmless; calling their methods in compiled code is not.
SYNC_FACTORIES = frozenset(
    {
        "threading.Lock",
        "threading.RLock",
        "threading.Semaphore",
        "threading.BoundedSemaphore",
        "threading.Condition",
        "threading.Event",
        "threading.Barrier",
        "multiprocessing.Lock",
        "multiprocessing.RLock",
        "multiprocessing.Semaphore",
        "multiprocessing.BoundedSemaphore",
        "multiprocessing.Condition",
        "multiprocessing.Event",
        "multiprocessing.Barrier",
    }
)
ADVICE = "do host work in the training loop, a Callback or the mindspore.dataset pipeline"


class ConcurrencyFamily(Family):
    name = "concurrency"

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        if creates_worker(node.func, ctx):
            if not isinstance(ctx.values.parent(node), ast.withitem):
                ctx.report("host-concurrency", node, ast.unparse(node.func), ADVICE)
            return
        func = node.func
        if isinstance(func, ast.Attribute) and is_concurrency_object(func.value, ctx):
            ctx.report("host-concurrency", node, ast.unparse(func), ADVICE)


def creates_worker(func: ast.expr, ctx: FunctionContext) -> bool:
    """``threading.Thread(...)``, a pool or executor, or a project subclass of one of them."""
    qualified = ctx.qualify(func)
    if qualified is None:
        return False
    if qualified in WORKER_FACTORIES:
        return True
    cls = ctx.model.resolve_class(qualified, ctx.module)
    return cls is not None and inherits_from(cls, WORKER_FACTORIES, ctx)


def inherits_from(cls: ClassInfo, bases: frozenset[str], ctx: FunctionContext) -> bool:
    return any(name in bases for c in ctx.model.mro(cls) for name in c.base_names)


def is_concurrency_object(receiver: ast.expr, ctx: FunctionContext) -> bool:
    """A pool, worker or lock made outside this function, or a lock made inside it.

    Workers made inside the function were already reported where they were created.
    """
    if isinstance(receiver, ast.Attribute) and ctx.is_self(receiver.value):
        classes = class_chain(ctx)
        return any(
            makes_concurrency_object(value, ctx)
            for cls in classes
            for value in cls.self_assignments.get(receiver.attr, [])
        )
    if isinstance(receiver, ast.Name):
        local = [v for v in ctx.values.bound.get(receiver.id, []) if v is not None]
        if local:
            return any(
                isinstance(value, ast.Call) and ctx.qualify(value.func) in SYNC_FACTORIES
                for value in local
            )
        return any(
            makes_concurrency_object(value, ctx)
            for value in ctx.module.assignments.get(receiver.id, [])
        )
    return False


def class_chain(ctx: FunctionContext) -> list[ClassInfo]:
    """The classes whose ``self`` this is: the target Cell's and the method owner's."""
    classes = ctx.model.mro(ctx.cell) if ctx.cell is not None else []
    if ctx.owner is not None:
        classes = [*classes, *(c for c in ctx.model.mro(ctx.owner) if c not in classes)]
    return classes


def makes_concurrency_object(value: ast.expr, ctx: FunctionContext) -> bool:
    if not isinstance(value, ast.Call):
        return False
    return ctx.qualify(value.func) in SYNC_FACTORIES or creates_worker(value.func, ctx)
