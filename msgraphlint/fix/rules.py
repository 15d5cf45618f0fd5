"""One fixer per fixable rule: the finding and its module in, a Fix (or None) out.

A fixer finds the node the finding spans, checks that the code has the one form its rewrite is
exact for, and otherwise returns None: a finding without a fix is reported as it is. Which rules
have a fixer, and whether it is safe, is the catalogue's ``autofix`` (docs/fixes.md).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from ..knowledge.api_binding import tensor_method_binds
from ..knowledge.catalogue import replacement_table, rule as lookup_rule
from ..engine.findings import Edit, Finding, Fix
from .edits import SourceText, argument, operand
from ..knowledge.mindspore import NUMPY_REDUCTION_METHODS, OPS_ELEMENTWISE_NAMESAKES

Fixer = Callable[[Finding, SourceText], "Fix | None"]
FIXERS: dict[str, Fixer] = {}


def fixer(symbol: str):
    def register(function: Fixer) -> Fixer:
        FIXERS[symbol] = function
        return function

    return register


def fix_for(finding: Finding, source: SourceText) -> Fix | None:
    function = FIXERS.get(finding.rule.symbol)
    return function(finding, source) if function is not None else None


def _node(finding: Finding, source: SourceText, kind) -> ast.AST | None:
    return source.node_at(finding.line, finding.column, finding.end_line, finding.end_column, kind)


def _make(finding: Finding, description: str, edits: list[Edit], safe: bool = True) -> Fix:
    applicability = lookup_rule(finding.rule_id).autofix if safe else "unsafe"
    return Fix(applicability, description, tuple(sorted(edits, key=lambda e: (e.line, e.column))))


def _method_call(finding: Finding, source: SourceText) -> ast.Call | None:
    node = _node(finding, source, ast.Call)
    return node if node is not None and isinstance(node.func, ast.Attribute) else None


# ----- imports the fixes need -------------------------------------------------------------------


def mindspore_name(source: SourceText, dotted: str) -> tuple[str, list[Edit]]:
    """How the module can spell ``mindspore.<dotted>`` (``ops``): the name it already imports it
    under (``import mindspore.ops as P`` -> ``P``, ``import mindspore as ms`` -> ``ms.ops``), else
    ``ops`` with an edit that adds ``from mindspore import ops`` after the module's imports.
    Once per module and name: the import table holds every module-level name, and sorting it for
    each finding grew with Cells x findings (issue 34)."""
    local, edits = source.memo(("mindspore name", dotted), lambda: _mindspore_name(source, dotted))
    return local, list(edits)  # the caller's own list


def _mindspore_name(source: SourceText, dotted: str) -> tuple[str, list[Edit]]:
    imports = source.module.imports.names
    wanted = f"mindspore.{dotted}"
    for local, qualified in sorted(imports.items()):
        if qualified == wanted:
            return local, []
    for local, qualified in sorted(imports.items()):
        if qualified == "mindspore":
            return f"{local}.{dotted}", []
    if dotted in imports or dotted in source.stored_names():
        return "", []  # the name means something else here: no fix
    return dotted, [_import_edit(source, f"from mindspore import {dotted}")]


def _import_edit(source: SourceText, statement: str) -> Edit:
    """Insert ``statement`` on its own line after the last module-level import (after the
    docstring and ``from __future__`` imports when there is none)."""
    body = source.module.tree.body
    anchor = None
    for index, stmt in enumerate(body):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            anchor = stmt
        elif index == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            anchor = anchor or stmt  # the docstring
        else:
            break
    if anchor is None:
        return source.edit(0, 0, statement + "\n")
    line = anchor.end_lineno  # insert at the start of the next line
    offset = source.starts[line] if line < len(source.starts) else len(source.text)
    prefix = "" if source.text[:offset].endswith(("\n", "\r")) else "\n"
    return source.edit(offset, offset, prefix + statement + "\n")


# ----- mindspore-api ---------------------------------------------------------------------------


@fixer("tensor-method-mismatch")
def _tensor_method_keywords(finding: Finding, source: SourceText) -> Fix | None:
    """``x.sum(dim=1, keepdims=True)``: keywords of two calling forms mixed, where the knowledge
    layer names the one call that means the same (``x.sum(dim=1, keepdim=True)``). Only calls of
    keywords alone, and only replacements that are one call: a choice (numpy's repeat or
    PyTorch's) is left to a person."""
    call = _method_call(finding, source)
    if call is None or call.args or not call.keywords or any(k.arg is None for k in call.keywords):
        return None
    keywords = {k.arg: source.segment(k.value) for k in call.keywords}
    template = replacement_table("tensor-method")["names"].get(
        f"{call.func.attr}:{','.join(sorted(keywords))}")
    if template is None:
        return None
    replacement = template.format(receiver=source.receiver(call.func), args="", **keywords)
    try:
        parsed = ast.parse(replacement, mode="eval").body
    except SyntaxError:
        return None  # words around the call: a choice, not one fix
    if not (isinstance(parsed, ast.Call) and isinstance(parsed.func, ast.Attribute)
            and ast.dump(parsed.func.value) == ast.dump(call.func.value)):
        return None
    if not tensor_method_binds(parsed, parsed.func.attr):
        return None  # the table's call is not one the release checked against takes
    edit = source.edit(source.start(call), source.end(call), replacement)
    return _make(finding, f"call {call.func.attr} with the keywords of one of its forms", [edit])


# ----- pytorch-habits -----------------------------------------------------------------------------


@fixer("tensor-size-call")
def _size(finding: Finding, source: SourceText) -> Fix | None:
    call = _method_call(finding, source)
    if call is None or len(call.args) + len(call.keywords) > 1:
        return None
    dims = [*call.args, *(k.value for k in call.keywords if k.arg == "dim")]
    if len(dims) != len(call.args) + len(call.keywords) or any(isinstance(d, ast.Starred) for d in dims):
        return None
    tail = ".shape" + (f"[{source.segment(dims[0])}]" if dims else "")
    edit = source.edit(source.dot_before(call.func), source.end(call), tail)
    return _make(finding, f"replace .size({'dim' if dims else ''}) with {tail}", [edit])


@fixer("detach-call")
def _detach(finding: Finding, source: SourceText) -> Fix | None:
    call = _method_call(finding, source)
    if call is None or call.args or call.keywords:
        return None
    ops, imports = mindspore_name(source, "ops")
    if not ops:
        return None
    receiver = argument(source.receiver(call.func), call.func.value)
    edit = source.edit(source.start(call), source.end(call), f"{ops}.stop_gradient({receiver})")
    return _make(finding, f"replace .detach() with {ops}.stop_gradient", [edit, *imports])


DEVICE_ONLY_KEYWORDS = frozenset({"device", "non_blocking", "copy", "memory_format"})


@fixer("move-to-tensor-device")
@fixer("device-move-call")
def _device_move(finding: Finding, source: SourceText) -> Fix | None:
    call = _method_call(finding, source)
    if call is None:
        return None
    start, end = source.dot_before(call.func), source.end(call)
    if call.func.attr in ("cuda", "cpu"):
        return _make(finding, f"delete .{call.func.attr}()", [source.edit(start, end, "")])
    dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    if dtype is None and len(call.args) > 1:
        dtype = call.args[1]
    others = [k for k in call.keywords if k.arg not in DEVICE_ONLY_KEYWORDS | {"dtype"}]
    if others or len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if dtype is None:
        return _make(finding, "delete the device move", [source.edit(start, end, "")])
    # The receiver keeps its own text (parentheses included): `(a != 0).to(d, t)` stays
    # `(a != 0).astype(t)`, never `a != 0.astype(t)`.
    edit = source.edit(start, end, f".astype({source.segment(dtype)})")
    return _make(finding, "keep only the cast: .astype(dtype)", [edit])


def _class_of_body_statement(source: SourceText) -> dict:
    """id(statement) -> the first of the module's classes whose body holds it."""
    found: dict = {}
    for cls in source.module.classes.values():
        for statement in cls.node.body:
            found.setdefault(id(statement), cls)
    return found


@fixer("forward-without-construct")
def _forward(finding: Finding, source: SourceText) -> Fix | None:
    function = _node(finding, source, (ast.FunctionDef, ast.AsyncFunctionDef))
    if function is None:
        return None
    # The class whose body holds it, from an index made once per module: a scan of every class
    # body per finding grew with classes x findings (issue 34).
    cls = source.memo("class of body statement", lambda: _class_of_body_statement(source)) \
        .get(id(function))
    if cls is None:
        return None
    head = source.text[source.start(function) : source.end(function)]
    match = re.match(r"(async\s+)?def\s+forward\b", head)
    if match is None:
        return None
    name_start = source.start(function) + match.end() - len("forward")
    edit = source.edit(name_start, name_start + len("forward"), "construct")
    # Code in the class that calls forward itself would lose it: then the rename is unsafe.
    safe = not any(
        isinstance(n, ast.Attribute) and n.attr == "forward" or isinstance(n, ast.Name) and n.id == "forward"
        for n in ast.walk(cls.node)
    )
    return _make(finding, "rename forward to construct", [edit], safe=safe)


# ----- jit-api --------------------------------------------------------------------------------------


@fixer("removed-ms-function")
def _ms_function(finding: Finding, source: SourceText) -> Fix | None:
    node = _node(finding, source, (ast.ImportFrom, ast.Attribute))
    if node is None:
        return None
    if isinstance(node, ast.Attribute):  # ms.ms_function -> ms.jit
        if not _bare_uses(source, [node]):
            return None
        start = source.end(node) - len(node.attr)
        return _make(finding, "replace ms_function with jit",
                     [source.edit(start, source.end(node), "jit")])
    alias = next((a for a in node.names if a.name == "ms_function"), None)
    if alias is None:
        return None
    local = alias.asname or "ms_function"
    # Every import of the name renames every use: shared by the module's imports of it (a file
    # that imports it again per copy made copies x copies edits, issue 34).
    use_edits = source.memo(("ms_function uses", local), lambda: _use_edits(source, local))
    if use_edits is None:
        return None
    statement = source.text[source.start(node) : source.end(node)]
    spelled = re.search(r"\bms_function\b", statement)
    at = source.start(node) + spelled.start()
    if alias.asname or "jit" in source.module.imports.names or "jit" in source.stored_names():
        # Keep the local name: `from mindspore import jit as ms_function` changes nothing else.
        content = "jit" if alias.asname else "jit as ms_function"
        return _make(finding, "import jit in place of ms_function",
                     [source.edit(at, at + len("ms_function"), content)])
    edits = [source.edit(at, at + len("ms_function"), "jit")]
    return _make(finding, "import and use jit in place of ms_function", edits + use_edits)


def _use_edits(source: SourceText, local: str) -> list[Edit] | None:
    """``local`` -> jit at each of its uses, or None when one is not bare."""
    uses = source.loads(local)
    if not _bare_uses(source, uses):
        return None
    return [source.edit(source.start(use), source.end(use), "jit") for use in uses]


def _bare_uses(source: SourceText, uses: list[ast.expr]) -> bool:
    """Every use is `@ms_function` or `ms_function(fn)`: jit takes the same function. Arguments
    such as input_signature= have no exact jit spelling."""
    for use in uses:
        call = source.call_of(use)
        if call is not None and (call.keywords or len(call.args) > 1):
            return False
    return True


# ----- third-party ----------------------------------------------------------------------------------


@fixer("numpy-reduction-on-tensor")
def _numpy_reduction(finding: Finding, source: SourceText) -> Fix | None:
    call = _node(finding, source, ast.Call)
    if call is None or not isinstance(call.func, ast.Attribute) or not call.args:
        return None
    method, keepdims, takes_axis = NUMPY_REDUCTION_METHODS.get(call.func.attr, (None, "", False))
    if method is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    axis = [*call.args[1:], *(k.value for k in call.keywords if k.arg == "axis")]
    keep = [k.value for k in call.keywords if k.arg == "keepdims"]
    if len(call.args) > 2 or len(axis) + len(keep) != len(call.args) - 1 + len(call.keywords):
        return None  # out=, dtype=, ddof=, where=: no Tensor spelling
    if (axis or keep) and not takes_axis:
        return None
    tensor = call.args[0]
    if isinstance(tensor, ast.Compare) or (isinstance(tensor, ast.UnaryOp)
                                           and isinstance(tensor.op, (ast.Not, ast.Invert))):
        # numpy reduces booleans as numbers; MindSpore's ReduceMean rejects a bool tensor
        # ("unsupported reduce operation for bool"), as --fix --confirm showed.
        return None
    parts = [f"axis={source.segment(a)}" for a in axis] + [f"{keepdims}={source.segment(k)}" for k in keep]
    text = f"{operand(source.segment(tensor), tensor)}.{method}({', '.join(parts)})"
    return _make(finding, f"call the tensor's own {method}()",
                 [source.edit(source.start(call), source.end(call), text)])


@fixer("host-call-on-tensor")
def _host_call(finding: Finding, source: SourceText) -> Fix | None:
    return _host_call_as_ops(finding, source, OPS_ELEMENTWISE_NAMESAKES)


def _any_ops_counterpart(finding: Finding, source: SourceText) -> Fix | None:
    """The host call replaced by the mindspore.ops function the catalogue names for it, whatever
    it is: not exact enough to offer as a fix (``ops.where`` and ``np.where`` differ on some
    arguments), but the graph-mode spelling of the same code, which --confirm compiles to see
    whether the host call is what the compiler fails on (msgraphlint.confirm.counterfactual)."""
    return _host_call_as_ops(finding, source, None)


def _attribute_write_as_local(finding: Finding, source: SourceText) -> Fix | None:
    """``self.last = value`` written to a local name instead: the graph keeps computing the
    value, and no attribute STRICT refuses to assign is written (reads of it see __init__'s)."""
    target = _node(finding, source, ast.Attribute)
    if target is None:
        return None
    if not source.assigned_alone(target):
        return None  # `self.n += 1`, a tuple target: no local name stands in for it
    edit = source.edit(source.start(target), source.end(target), f"_unkept_{target.attr}")
    return _make(finding, f"write self.{target.attr} to a local name", [edit], safe=False)


def _inputs_as_tangent(finding: Finding, source: SourceText) -> Fix | None:
    """A jvp's tangent replaced by its inputs themselves, which have the structure it needs:
    ``ops.jvp(fn, inputs, v)`` given ``inputs`` for ``v`` (``x`` for ``(x,)``: one input takes a
    tensor), ``nn.Jvp(fn)(a, b, v)`` given ``(a, b)``. Not a fix (the tangent's values change), but what --confirm compiles to see
    whether the tangent is what the compiler fails on. A vjp's cotangent mirrors the output,
    which the call does not spell: no rewrite."""
    call = _node(finding, source, ast.Call)
    if call is None or call.keywords or len(call.args) < 2 or "input" not in finding.message:
        return None
    tangent = call.args[-1]
    if isinstance(call.func, ast.Call):  # nn.Jvp(fn)(*inputs, v)
        inputs = [source.segment(argument) for argument in call.args[:-1]]
        text = inputs[0] if len(inputs) == 1 else f"({', '.join(inputs)})"
    elif len(call.args) == 3:  # ops.jvp(fn, inputs, v): one input takes a tensor, (x,) too
        inputs = call.args[1]
        one = isinstance(inputs, ast.Tuple) and len(inputs.elts) == 1
        text = source.segment(inputs.elts[0] if one else inputs)
    else:
        return None
    return _make(finding, "give the inputs as the tangent",
                 [source.edit(source.start(tangent), source.end(tangent), text)], safe=False)


COUNTERFACTUALS: dict[str, Fixer] = {"host-call-on-tensor": _any_ops_counterpart,
                                     "numpy-reduction-on-tensor": _any_ops_counterpart,
                                     "non-parameter-attribute-assign": _attribute_write_as_local,
                                     "tangent-structure-mismatch": _inputs_as_tangent}


def counterfactual_for(finding: Finding, source: SourceText) -> Fix | None:
    """The finding's fix, or where it has none, the rewrite that spells its code the graph-mode
    way (for confirmation only)."""
    found = fix_for(finding, source)
    if found is None and (function := COUNTERFACTUALS.get(finding.rule.symbol)) is not None:
        found = function(finding, source)
    return found


def _host_call_as_ops(finding: Finding, source: SourceText, names: frozenset[str] | None) -> Fix | None:
    call = _node(finding, source, ast.Call)
    # A fix keeps the exact positional form; a counterfactual keeps keywords too (axis=...).
    if call is None or (call.keywords and names is not None) or not call.args:
        return None
    qualified = source.module.imports.qualify(call.func)
    replacement = lookup_rule(finding.rule_id).replacement_for(qualified or "")
    named = re.match(r"ops\.([A-Za-z_]\w*)", replacement)  # "ops.where (the one-argument ...)"
    if named is None:
        return None
    name = named.group(1)
    if names is not None and (name not in names or replacement != f"ops.{name}"):
        return None
    ops, imports = mindspore_name(source, "ops")
    if not ops:
        return None
    # `Tensor(np.tanh(x))` wrapped the host result back into a tensor: the operator's result is
    # one already, and Tensor() of a tensor is host code itself.
    wrapper = _tensor_wrapper(call, source)
    if wrapper is not None:
        arguments = ", ".join(source.segment(a) for a in call.args)
        edit = source.edit(source.start(wrapper), source.end(wrapper), f"{ops}.{name}({arguments})")
        return _make(finding, f"call {ops}.{name} in the graph, without the Tensor()", [edit, *imports])
    edit = source.edit(source.start(call.func), source.end(call.func), f"{ops}.{name}")
    return _make(finding, f"call {ops}.{name} in the graph", [edit, *imports])


def _tensor_wrapper(call: ast.Call, source: SourceText) -> ast.Call | None:
    """``Tensor(<call>)`` around the call, with no other argument."""
    node = source.sole_argument_of(call)
    if node is not None and source.module.imports.qualify(node.func) == "mindspore.Tensor":
        return node
    return None


# ----- frozen -------------------------------------------------------------------------------------

RANDOM_DRAWS = {"numpy.random.rand": "rand", "numpy.random.randn": "randn"}


def _static_size(argument: ast.expr) -> bool:
    """A size the compiler knows: an int literal, or ``*x.shape``."""
    if isinstance(argument, ast.Starred):
        return isinstance(argument.value, ast.Attribute) and argument.value.attr == "shape"
    return isinstance(argument, ast.Constant) and type(argument.value) is int


@fixer("random-frozen")
def _random(finding: Finding, source: SourceText) -> Fix | None:
    call = _node(finding, source, ast.Call)
    if call is None or call.keywords:
        return None
    name = RANDOM_DRAWS.get(source.module.imports.qualify(call.func) or "")
    if name is None or not all(_static_size(a) for a in call.args):
        return None
    ops, imports = mindspore_name(source, "ops")
    if not ops:
        return None
    edit = source.edit(source.start(call.func), source.end(call.func), f"{ops}.{name}")
    return _make(finding, f"draw with {ops}.{name} at every step", [edit, *imports])
