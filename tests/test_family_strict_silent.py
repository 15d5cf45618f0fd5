"""strict-silent: dicts returned at STRICT, module-level lists changed in compiled code, in-place
methods the graph lacks on containers built in compiled code."""

from __future__ import annotations

import textwrap

from .engine_helpers import check_source, findings_on_lines

FAMILY = {"dict-return-at-strict", "global-list-mutation", "global-list-mutation-at-strict",
          "in-place-method-ignored", "constant-list-pop", "none-in-output-at-strict"}
HEADER = """
import mindspore as ms
from mindspore import nn

EVENTS = []
TRACE = list()
TABLE = {}
"""


def findings(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER, body, FAMILY)


def test_dicts_returned_from_construct_and_jit_functions(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                if x.sum() > 0:
                    return {"a": x}
                out = {}
                out["b"] = x
                return x, out

        @ms.jit(fullgraph=True)
        def step(x):
            return {k: x for k in ("a", "b")}
    """)
    assert got == {
        ("dict-return-at-strict", 'return {"a": x}'),
        ("dict-return-at-strict", "return x, out"),
        ("dict-return-at-strict", 'return {k: x for k in ("a", "b")}'),
    }


def test_dicts_inside_the_graph_are_fine(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def helper(self, x):
                return {"a": x}

            def construct(self, x):
                def inner(v):
                    return {"v": v}
                parts = self.helper(x)
                made = dict(a=x)
                out = {}
                out = self.helper(x)
                return parts["a"], inner(x)["v"], out, made
    """)
    assert got == set()


def test_a_sub_cell_returning_a_dict_to_its_parent_is_fine(tmp_path):
    got = findings(tmp_path, """
        class Heads(nn.Cell):
            def construct(self, x):
                return {"a": x * 2, "b": x}

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.heads = Heads()

            def construct(self, x):
                out = self.heads(x)
                return {"sum": out["a"] + out["b"]}
    """)
    assert got == {("dict-return-at-strict", 'return {"sum": out["a"] + out["b"]}')}


def test_module_lists_changed_in_compiled_code(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                global TRACE
                EVENTS.append(x)
                EVENTS[0] = x
                TRACE += [x]
                TRACE.extend([x])
                EVENTS.pop()
                return x
    """)
    assert got == {
        ("global-list-mutation", "EVENTS.append(x)"),
        ("global-list-mutation", "EVENTS[0] = x"),
        ("global-list-mutation", "TRACE += [x]"),
        ("global-list-mutation-at-strict", "TRACE.extend([x])"),
        ("global-list-mutation-at-strict", "EVENTS.pop()"),
    }


def test_local_lists_dicts_and_host_code_are_fine(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                EVENTS.append("built")

            def construct(self, x, EVENTS=None):
                TRACE = []
                TRACE.append(x)
                TABLE.clear()
                return x

        def log(value):
            EVENTS.append(value)
    """)
    assert got == set()


def test_in_place_methods_only_on_containers_the_function_builds(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x, sizes):
                order = [v for v in (3, 1, 2)]
                order.sort(key=lambda v: -v)
                table = dict(a=1)
                table.setdefault("b", 2)
                sizes.sort()                  # a parameter: its type is not known here
                picked = self.pick(x)
                picked.sort()                 # what a helper returns: not known
                kept = [x, x + 1]
                kept.remove(x)                # comparing tensors: LAX rejects it otherwise
                names = ["a", "b"]
                names = tuple(names)
                names.sort()                  # rebound to a tuple: not a list any more
                self.cache.sort()             # an attribute: not judged
                return x

            def pick(self, x):
                return [x]
    """)
    assert got == {
        ("in-place-method-ignored", "order.sort(key=lambda v: -v)"),
        ("in-place-method-ignored", 'table.setdefault("b", 2)'),
    }


def test_spellings_lax_rejects_are_not_called_ignored(tmp_path):
    # Seen with 2.10 at LAX: both are rejected, so "compiles and does nothing" would be wrong.
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                def by(v):
                    return -v
                groups = {}
                groups.setdefault("a", []).append(1)
                order = [3, 1, 2]
                order.sort(key=by)
                kept = [3, 1, 2]
                kept.sort(key=None)
                return x
    """)
    assert got == {("in-place-method-ignored", "kept.sort(key=None)")}


def test_the_message_gives_the_statement_that_does_what_the_call_meant(tmp_path):
    found = check_source(tmp_path, HEADER + """
class Net(nn.Cell):
    def construct(self, x):
        order = [3, 1, 2]
        order.sort(reverse=True)
        order.remove(1)
        groups = {}
        groups.setdefault("a", 1)
        first = groups.setdefault("b", 2)
        return x * order[0] * first
""")
    advice = [f.message.rsplit("; use ", 1)[1] for f in found if f.rule.symbol == "in-place-method-ignored"]
    assert advice == [
        "`order = sorted(order, reverse=True)`",
        "`i = order.index(1); order = order[:i] + order[i + 1:]`",
        "`if 'a' not in groups: groups['a'] = 1`",
        "`if 'b' not in groups: groups['b'] = 2`, then `groups[key]`",
    ]


def test_pop_only_on_lists_of_constants_built_in_the_function(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x, sizes):
                dims = [0, 2, 1, 3]
                dims.pop(1)
                order = [v for v in range(4)]
                first = order.pop(0)
                tensors = [x, x + 1]
                tensors.pop(0)                # built again at each call
                shape = list(x.shape)
                shape.pop(0)                  # list(...): built again at each call
                sizes.pop()                   # a parameter
                grown = [1, 2]
                grown += [3]
                grown.pop()                   # changed elsewhere: not judged
                outputs = []
                outputs.append(x)
                outputs.pop()                 # holds a tensor: built at each call
                steps = []
                steps.append(1)
                steps.pop()
                joined = [1]
                joined.extend([2, 3])
                joined.pop()                  # extend made a new list: right on every call
                chunks = [sizes[i:i + 2] for i in range(0, len(sizes), 2)]
                chunks.pop()                  # over a parameter: not known to be constants
                return x * dims[-1] * first
    """)
    assert got == {
        ("constant-list-pop", "dims.pop(1)"),
        ("constant-list-pop", "first = order.pop(0)"),
        ("constant-list-pop", "steps.pop()"),
    }


def none_cases(tmp_path, body: str) -> set[tuple[str, str]]:
    """(source line, case) of the none-in-output-at-strict findings."""
    source = textwrap.dedent(HEADER) + textwrap.dedent(body)
    lines = source.splitlines()
    return {(lines[f.line - 1].strip(), f.case) for f in check_source(tmp_path, source)
            if f.rule.symbol == "none-in-output-at-strict"}


def test_none_beside_tensors_in_what_a_graph_returns(tmp_path):
    # Probed with 2.10 at STRICT: a None after the tensors is dropped ((x,) for `x, None`), one
    # before a tensor breaks the output (reading it fails); a returned dict's values are its output.
    got = none_cases(tmp_path, """
        class Net(nn.Cell):
            def construct(self, x):
                if x.sum() > 0:
                    return x * 2, None
                if x.sum() < -1:
                    return None, ms.ops.relu(x)
                aux = None
                return {"y": x, "aux": aux}

        @ms.jit(fullgraph=True)
        def step(x):
            return [x, None, None]
    """)
    assert got == {("return x * 2, None", ""), ("return None, ms.ops.relu(x)", "broken"),
                   ('return {"y": x, "aux": aux}', ""), ("return [x, None, None]", "")}


def test_none_from_a_module_constant_in_a_cell_only_python_builds(tmp_path):
    got = none_cases(tmp_path, """
        NO_AUX = None

        class Head(nn.Cell):
            def construct(self, x):
                return x - 1, NO_AUX

        def main(x):
            return Head()(x)
    """)
    assert got == {("return x - 1, NO_AUX", "")}


def test_none_the_model_does_not_know_or_a_layer_returns(tmp_path):
    (tmp_path / "settings.py").write_text("NO_AUX = None\n")
    got = none_cases(tmp_path, """
        from settings import NO_AUX

        class FromInit(nn.Cell):
            def __init__(self, aux=None):
                super().__init__()
                self.aux = aux  # None on self is a placeholder code elsewhere may fill

            def construct(self, x):
                return x + 1, self.aux

        class Imported(nn.Cell):
            def construct(self, x):
                return x * 3, NO_AUX  # another module's constant: not followed

        class Layer(nn.Cell):
            def construct(self, x):
                return x * 2, None  # its output stays in the parent's graph

        class Model(nn.Cell):
            def __init__(self):
                super().__init__()
                self.layer = Layer()

            def construct(self, x):
                y, _ = self.layer(x)
                return y

        def main(x):
            return FromInit()(x), Imported()(x), Model()(x)
    """)
    assert got == set()


def test_outputs_the_compiler_keeps_whole(tmp_path):
    got = none_cases(tmp_path, """
        class Constants(nn.Cell):
            def construct(self, x):
                return 1, None  # no tensor: a constant output, kept

        class Nested(nn.Cell):
            def construct(self, x):
                return x, (None, 1)  # a None inside a nested tuple is kept

        class Unknown(nn.Cell):
            def __init__(self, aux):
                super().__init__()
                self.aux = aux

            def construct(self, x):
                return x, self.aux  # never built here: the attribute is unknown

        class Integrator(nn.Cell):
            def construct(self, x, box=None):
                return x * 2, box  # a default is not the value: callers may pass a tensor

        class Helper(nn.Cell):
            def construct(self, x):
                y, _ = self.head(x)
                return y

            def head(self, x):
                return x, None  # returned to construct, not to Python
    """)
    assert got == set()
