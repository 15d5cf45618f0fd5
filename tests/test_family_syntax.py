"""The syntax family's matching: what is found inside compiled code, how often, and the near misses
that MindSpore accepts."""

from __future__ import annotations

import textwrap

from .engine_helpers import check_source

HEADER = "from mindspore import jit, jit_class, nn, ops\n"


def findings(tmp_path, body: str, name: str = "net.py") -> list[tuple[str, int]]:
    """(symbol, line) of this family's findings for a module made of HEADER and ``body``; lines
    count from the body's first line as 1 so tests read naturally."""
    found = check_source(tmp_path, HEADER + textwrap.dedent(body), name)
    return sorted((f.rule.symbol, f.line - 1) for f in found if f.rule.family == "syntax")


# ----- unsupported statements and expressions ---------------------------------------------


def test_statement_deep_inside_branches_and_loops_is_found_once(tmp_path):
    got = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def construct(self, x):
                for i in range(2):
                    if x.ndim == 2:
                        del i
                return x
        """,
    )
    assert got == [("unsupported-statement", 6)]


def test_class_inside_construct_is_reported_but_not_what_it_contains(tmp_path):
    got = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def construct(self, x):
                class Local:
                    flags = {1, 2}

                    def run(self):
                        try:
                            return 1
                        except ValueError:
                            return 0
                return x
        """,
    )
    assert got == [("unsupported-statement", 4)]


def test_async_def_hides_its_awaits_but_not_later_statements(tmp_path):
    got = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def construct(self, x):
                async def fetch():
                    await other()
                import math
                return x
        """,
    )
    assert got == [("unsupported-statement", 4), ("unsupported-statement", 6)]


def test_supported_statements_and_nested_functions_are_not_reported(tmp_path):
    got = findings(
        tmp_path,
        """
        COUNT = 0


        class Net(nn.Cell):
            def construct(self, x):
                global COUNT
                assert x.ndim == 2
                scale = lambda v: v * 2
                def shift(v):
                    return v + 1
                while x.ndim > 5:
                    pass
                return shift(scale(x))
        """,
    )
    assert got == []


def test_code_outside_compiled_functions_is_not_reported(tmp_path):
    got = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                try:
                    import math
                except ImportError:
                    math = None
                self.kinds = {1, 2}

            def construct(self, x):
                return x
        """,
    )
    assert got == []


def test_statement_in_a_helper_reached_from_construct_is_reported(tmp_path):
    got = findings(
        tmp_path,
        """
        def helper(x):
            try:
                return x + 1
            except ValueError:
                return x


        class Net(nn.Cell):
            def construct(self, x):
                return helper(x)
        """,
    )
    assert got == [("unsupported-statement", 3)]


def test_set_in_a_lambda_body_and_a_jit_function_are_reported(tmp_path):
    got = findings(
        tmp_path,
        """
        @jit
        def step(x):
            keep = lambda axis: axis in {0, 1}
            if (n := x.ndim) > 1:
                return x * n
            return x
        """,
    )
    assert got == [("unsupported-expression", 4), ("unsupported-expression", 5)]


def test_complex_literal_is_reported_but_other_constants_are_not(tmp_path):
    got = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def construct(self, x):
                data = (1.5, "text", b"raw", None, ...)
                return x * 2j
        """,
    )
    assert got == [("unsupported-expression", 5)]


# ----- loops and comprehensions -------------------------------------------------------------


def test_loop_else_is_reported_and_plain_loops_are_not(tmp_path):
    got = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def construct(self, x):
                for i in range(2):
                    x = x + i
                for i in range(2):
                    x = x + i
                else:
                    x = x * 2
                while x.ndim > 5:
                    break
                else:
                    x = x + 1
                return x
        """,
    )
    assert got == [("loop-else", 6), ("loop-else", 10)]


def test_comprehension_generators_are_counted_not_filters_or_nesting(tmp_path):
    got = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def construct(self, x):
                filtered = [a for a in range(4) if a if a > 1]
                nested = [[a + b for a in range(2)] for b in range(2)]
                pairs = [a + b for a in range(2) for b in range(2)]
                table = {a: b for a in range(2) for b in range(2)}
                return x
        """,
    )
    assert got == [("multi-generator-comprehension", 6), ("multi-generator-comprehension", 7)]


def test_set_comprehension_with_two_generators_is_one_finding(tmp_path):
    got = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def construct(self, x):
                pairs = {a + b for a in range(2) for b in range(2)}
                return x
        """,
    )
    assert got == [("unsupported-expression", 4)]


# ----- raise ---------------------------------------------------------------------------------


def test_raise_is_checked_by_the_name_written(tmp_path):
    got = findings(
        tmp_path,
        """
        import errors

        Invalid = ValueError


        class ShapeError(ValueError):
            pass


        def make_error(message):
            return ValueError(message)


        class Net(nn.Cell):
            def construct(self, x):
                if x.ndim == 1:
                    raise ShapeError("1-D")
                if x.ndim == 2:
                    raise Invalid("2-D")
                if x.ndim == 3:
                    raise make_error("3-D")
                if x.ndim == 4:
                    raise LookupError
                return x
        """,
    )
    assert got == [("unsupported-exception-type", line) for line in (18, 20, 22, 24)]


def test_raise_of_listed_types_locals_and_attributes_is_not_reported(tmp_path):
    got = findings(
        tmp_path,
        """
        import errors


        class Net(nn.Cell):
            def construct(self, x):
                error = ValueError("bad")
                if x.ndim == 1:
                    raise error
                if x.ndim == 2:
                    raise errors.ShapeError("2-D")
                if x.ndim == 3:
                    raise NotImplementedError
                if x.ndim == 4:
                    raise TypeError("4-D") from None
                return x
        """,
    )
    assert got == []


# ----- with ------------------------------------------------------------------------------------


def test_with_on_jit_class_instances_is_not_reported(tmp_path):
    got = findings(
        tmp_path,
        """
        @jit_class
        class Scope:
            def __enter__(self):
                return 2

            def __exit__(self, *exc):
                return None


        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.scope = Scope()

            def construct(self, x):
                local = Scope()
                with self.scope as a, local as b, Scope() as c:
                    x = x * a * b * c
                return x
        """,
    )
    assert got == []


def test_with_on_host_objects_plain_classes_and_cells_is_reported(tmp_path):
    got = findings(
        tmp_path,
        """
        import threading
        import numpy as np


        class Plain:
            def __enter__(self):
                return 2

            def __exit__(self, *exc):
                return None


        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.lock = threading.Lock()
                self.dense = nn.Dense(2, 2)

            def construct(self, x):
                guard = Plain()
                with self.lock, np.errstate(all="ignore"):
                    x = x + 1
                with guard, self.dense:
                    x = x + 1
                return x
        """,
    )
    assert got == [("with-non-jit-class", line) for line in (22, 22, 24, 24)]


def test_with_on_values_that_cannot_be_told_is_not_reported(tmp_path):
    got = findings(
        tmp_path,
        """
        import threading
        import somelib
        from mindspore.runtime import StreamCtx


        @jit_class
        class Scope:
            def __enter__(self):
                return 2

            def __exit__(self, *exc):
                return None


        class Net(nn.Cell):
            def __init__(self, use_lock):
                super().__init__()
                self.guard = threading.Lock() if use_lock else Scope()
                self.other = Scope()
                if use_lock:
                    self.other = threading.Lock()

            def construct(self, x, ctx):
                with somelib.Context(), ctx, self.guard, self.other, StreamCtx(None):
                    x = x + 1
                return x
        """,
    )
    assert got == []


def test_with_on_a_class_from_another_project_module_is_resolved(tmp_path):
    (tmp_path / "scopes.py").write_text(
        textwrap.dedent(
            """
            from mindspore import jit_class


            @jit_class
            class Scope:
                def __enter__(self):
                    return 2

                def __exit__(self, *exc):
                    return None


            class Plain:
                def __enter__(self):
                    return 2

                def __exit__(self, *exc):
                    return None
            """
        )
    )
    got = findings(
        tmp_path,
        """
        from scopes import Plain, Scope


        class Net(nn.Cell):
            def construct(self, x):
                with Scope():
                    x = x + 1
                with Plain():
                    x = x + 1
                return x
        """,
    )
    assert got == [("with-non-jit-class", 9)]


def test_sort_keys_and_in_place_changes_the_parser_rejects_and_their_siblings_it_takes(tmp_path):
    """2.10, every level: a nested def as a sort key and an in-place method on a call's result
    are rejected; a module-level key, a lambda, a named list, and a call result passed straight
    to another call compile. A nested def is a function, never a tensor: `sorted` on it is not
    host code on a tensor."""
    got = findings(tmp_path, """
        def by_size(v):
            return -v

        class Net(nn.Cell):
            def construct(self, x):
                def nested(v):
                    return -v
                a = sorted([3, 1, 2], key=nested)
                b = sorted([3, 1, 2], key=by_size)
                c = sorted([3, 1, 2], key=lambda v: -v)
                items = [1, 2]
                items.sort(key=nested)
                groups = {"a": [1]}
                groups.setdefault("a", []).append(3)
                last = groups.get("a").pop()
                print(groups.get("a").pop())
                named = groups["a"]
                named.append(4)
                return x * a[0] * b[0] * c[0] * last
    """)
    rules = {"nested-function-as-sort-key", "in-place-change-of-call-result"}
    assert sorted((s, l) for s, l in got if s in rules) == [
        ("in-place-change-of-call-result", 15), ("in-place-change-of-call-result", 16),
        ("nested-function-as-sort-key", 9), ("nested-function-as-sort-key", 13)]
    every = check_source(tmp_path, HEADER + textwrap.dedent("""
        class Net(nn.Cell):
            def construct(self, x):
                def nested(v):
                    return -v
                return x * sorted([3, 1, 2], key=nested)[0]
    """), "net.py")
    assert "host-call-on-tensor" not in {f.rule.symbol for f in every}


# ----- lambda-not-on-own-line ---------------------------------------------------------------

HELD = """
class Holder(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return self.fn(x)
"""


def lambda_findings(tmp_path, body: str) -> list[int]:
    return [line for symbol, line in findings(tmp_path, body) if symbol == "lambda-not-on-own-line"]


def test_a_lambda_default_on_the_def_line_is_flagged_at_the_call(tmp_path):
    assert lambda_findings(tmp_path, """
        class Scaled(nn.Cell):
            def __init__(self, act=lambda v: v * 2):
                super().__init__()
                self.act = act

            def construct(self, x):
                return self.act(x)

        def build():
            return Scaled()
        """) == [8]


def test_a_default_given_a_def_by_every_construction_is_not_flagged(tmp_path):
    assert lambda_findings(tmp_path, """
        def double(v):
            return v * 2

        class Scaled(nn.Cell):
            def __init__(self, act=lambda v: v * 2):
                super().__init__()
                self.act = act

            def construct(self, x):
                return self.act(x)

        def build():
            return Scaled(double)
        """) == []


def test_a_lambda_passed_as_an_argument_or_held_in_a_list_is_flagged(tmp_path):
    assert lambda_findings(tmp_path, HELD + """
class Listed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fns = [lambda v: v * 3]

    def construct(self, x):
        return self.fns[0](x)

def build():
    net = Holder(fn=lambda v: v + 1)
    return net, Listed()
""") == [8, 16]


def test_a_lambda_that_is_the_whole_value_of_an_assignment_is_not_flagged(tmp_path):
    assert lambda_findings(tmp_path, HELD + """
class Own(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fn = lambda v: v * 3

    def construct(self, x):
        return self.fn(x)

def build():
    square = lambda v: v * v
    return Holder(square), Holder(
        lambda v: v - 1), Own()
""") == []


def test_a_held_lambda_of_unknown_constructions_is_not_judged(tmp_path):
    # No construction in the project: what `fn` holds is not known.
    assert lambda_findings(tmp_path, HELD) == []


def test_a_construction_passing_something_else_is_not_judged(tmp_path):
    assert lambda_findings(tmp_path, HELD + """
def build(other):
    first = Holder(lambda v: v + 1)
    second = Holder(other)
    return first, second
""") == []


# ----- super-arguments ----------------------------------------------------------------------

SUPER_BASE = """
class Base(nn.Cell):
    def scale(self, x):
        return x * 2
"""


def super_findings(tmp_path, body: str) -> list[int]:
    return [line for symbol, line in findings(tmp_path, SUPER_BASE + body) if symbol == "super-arguments"]


def test_super_arguments_the_parser_refuses_are_flagged(tmp_path):
    assert super_findings(tmp_path, """
class Other(nn.Cell):
    pass

Alias = Base

class Net(Base):
    def construct(self, x):
        me = self
        a = super(type(self), self).scale(x)
        b = super(Net, x).scale(x)
        c = super(Net, me).scale(x)
        d = super(Other, self).scale(x)
        e = super(self.__class__, self).scale(x)
        f = super(Alias, self).scale(x)
        return a + b + c + d + e + f
""") == [14, 15, 16, 17, 18, 19]


def test_super_of_a_class_in_the_mro_or_without_arguments_is_not_flagged(tmp_path):
    assert super_findings(tmp_path, """
import mindspore

class Mid(Base):
    pass

class Net(Mid):
    def construct(self, x):
        a = super(Net, self).scale(x)
        b = super(Mid, self).scale(x)
        c = super(Base, self).scale(x)
        d = super().scale(x)
        e = super(nn.Cell, self).cast_inputs
        return a + b + c + d
""") == []


def test_super_in_a_helper_of_a_base_class_is_judged_on_the_compiled_cell(tmp_path):
    # Base.helper runs on a Child: Child's MRO holds Base, and `Elsewhere` is in no MRO.
    assert super_findings(tmp_path, """
class Elsewhere(nn.Cell):
    pass

class Helped(Base):
    def helper(self, x):
        return super(Helped, self).scale(x) + super(Elsewhere, self).scale(x)

class Child(Helped):
    def construct(self, x):
        return self.helper(x)
""") == [11]


def test_super_of_a_class_imported_from_another_module_is_looked_up_by_its_written_name(tmp_path):
    (tmp_path / "blocks.py").write_text(HEADER + SUPER_BASE, "utf-8")
    source = HEADER + """
from blocks import Base
from blocks import Base as Renamed

class Net(Base):
    def construct(self, x):
        return super(Base, self).scale(x) + super(Renamed, self).scale(x)
"""
    found = check_source(tmp_path, source)
    assert [(f.rule.symbol, f.line) for f in found if f.rule.symbol == "super-arguments"] == [
        ("super-arguments", 8)]


def test_super_is_not_judged_where_a_base_class_or_self_is_unknown(tmp_path):
    assert super_findings(tmp_path, """
from somewhere import Mixin

class Mixed(Base, Mixin):
    def construct(self, x):
        return super(Helper, self).scale(x)

class Renamed(Base):
    def construct(this, x):
        return super(Renamed, this).scale(x)
""") == []


# ----- nested-stream-context ---------------------------------------------------------------------

STREAMS = """
import mindspore as ms
from mindspore.runtime import StreamCtx, StreamLimitCtx
s1 = ms.runtime.Stream()
s2 = ms.runtime.Stream()
"""


def stream_findings(tmp_path, body: str) -> list[int]:
    return [line for symbol, line in findings(tmp_path, STREAMS + body)
            if symbol == "nested-stream-context"]


def test_a_stream_context_inside_one_of_its_kind_is_flagged(tmp_path):
    assert stream_findings(tmp_path, """
class Net(nn.Cell):
    def construct(self, x):
        with StreamCtx(s1):
            with ms.runtime.StreamCtx(s2):
                x = x * 2
            if x.shape[0] > 1:
                for i in range(2):
                    with StreamCtx(s2):
                        x = x + 1
        with StreamLimitCtx(s1, 2, 2):
            with ms.runtime.StreamLimitCtx(s2, 2, 2):
                x = x - 1
        return x
""") == [10, 14, 17]


def test_stream_contexts_one_after_the_other_of_two_kinds_or_in_a_helper_are_not_flagged(tmp_path):
    assert stream_findings(tmp_path, """
def helper(x):
    with StreamCtx(s2):
        return x * 2

class Net(nn.Cell):
    def construct(self, x):
        with StreamCtx(s1):
            x = helper(x)
        with StreamCtx(s2), StreamCtx(s1):
            x = x + 1
        with StreamCtx(s1):
            with StreamLimitCtx(s2, 2, 2):
                x = x - 1
        return x
""") == []
