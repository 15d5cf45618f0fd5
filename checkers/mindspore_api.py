"""MindSpore's own API as the target version has it: names that do not exist, and calls that do
not bind to the signature.

Code written for an older MindSpore calls what 2.10 no longer has: ``ops.ResizeBilinear`` (gone
from mindspore.ops), ``ops.pad(x, paddings=...)`` (the keyword is ``padding`` now), or a typo on a
path no test runs (``ops.concatcat``). The names and signatures of mindspore, mindspore.ops,
mindspore.nn, mindspore.mint (and its nn and functional), mindspore.numpy and
mindspore.communication come from a snapshot of the installed MindSpore
(msgraphlint/knowledge/data/api/mindspore-<version>.json, ``python -m msgraphlint.knowledge.api_snapshot``). A call is judged
only where the signature is known and the call has no ``*args``/``**kwargs``. What the compiler
does at each level is in msgraphlint/knowledge/rules/mindspore_api.toml.
"""

from __future__ import annotations

import ast
from functools import cache

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.api_snapshot import load, module_keys
from msgraphlint.knowledge.mindspore import is_mindspore_name

NAME_INSTEAD = "a name MindSpore %s has (msgraphlint explain mindspore-name-missing)"
POSITIONAL = ("positional_only", "positional_or_keyword")
NAMED = ("positional_or_keyword", "keyword_only")


@cache
def api() -> tuple[dict[str, dict], str]:
    """Module tables of the snapshot (Tensor's left out: its methods dispatch on overloads)."""
    snapshot = load()
    tables = {key: snapshot[key] for key in module_keys(snapshot) if key != "mindspore.Tensor"}
    return tables, snapshot["mindspore_version"]


def lookup(qualified: str) -> tuple[str, str, dict | None] | None:
    """(module, member, entry or None when missing) for a qualified name one member below a
    module of the snapshot; None for anything the snapshot does not cover."""
    module, _, member = qualified.rpartition(".")
    tables, _ = api()
    table = tables.get(module)
    if table is None or not member or member.startswith("_"):
        return None
    return module, member, table.get(member)


class MindsporeApiFamily(Family):
    name = "mindspore-api"

    def visit_Attribute(self, node: ast.Attribute, ctx: FunctionContext) -> None:
        if not isinstance(node.ctx, ast.Load) or not names_mindspore(node, ctx):
            return  # self.x, tensor methods, other libraries: most attributes, and no MindSpore name
        qualified = ctx.qualify(node)
        if qualified is None or not is_mindspore_name(qualified):
            return
        found = lookup(qualified)
        if found is not None and found[2] is None and not guarded_by_hasattr(node, ctx):
            module, member, _ = found
            ctx.report("mindspore-name-missing", node, ast.unparse(node), member, module, version(),
                       NAME_INSTEAD % version())

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        if not names_mindspore(node.func, ctx):
            return
        qualified = ctx.qualify(node.func)
        if qualified is None or not is_mindspore_name(qualified):
            return
        found = lookup(qualified)
        if found is None or found[2] is None or "params" not in found[2]:
            return
        module, member, entry = found
        problem = binding_problem(node, entry["params"])
        if problem is not None:
            spelled = f"{module}.{member}"
            names = ", ".join(p[0] for p in entry["params"] if p[1] in (*POSITIONAL, "keyword_only"))
            ctx.report("mindspore-call-mismatch", node, ast.unparse(node.func), spelled, problem,
                       version(), names or "no arguments")


def names_mindspore(node: ast.expr, ctx: FunctionContext) -> bool:
    """Whether a name or attribute chain starts at a name imported from MindSpore (and not
    rebound in the function: `for ops in self.blocks`): a test on the import table, before the
    full qualification most chains do not need."""
    while node.__class__ is ast.Attribute:
        node = node.value
    return (node.__class__ is ast.Name
            and ctx.module.imports.names.get(node.id, "").startswith("mindspore")
            and node.id not in ctx.values.local_names)


def guarded_by_hasattr(node: ast.AST, ctx: FunctionContext) -> bool:
    """Inside `if hasattr(ops, "name"):` (or its conditional expression): a version check."""
    parent = ctx.values.parent(node)
    while parent is not None and parent is not ctx.function.node:
        if isinstance(parent, (ast.If, ast.IfExp, ast.While)) and any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("hasattr", "getattr")
                for n in ast.walk(parent.test)):
            return True
        parent = ctx.values.parent(parent)
    return False


def version() -> str:
    return api()[1]


def binding_problem(call: ast.Call, params: list) -> str | None:
    """Why the call cannot bind to the parameters, as Python would say it; None if it binds or
    the call spreads *args / **kwargs (anything may bind then)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    positional = [p for p in params if p[1] in POSITIONAL]
    takes_more = any(p[1] == "var_positional" for p in params)
    takes_any_keyword = any(p[1] == "var_keyword" for p in params)
    if len(call.args) > len(positional) and not takes_more:
        return f"takes at most {len(positional)} positional argument{'s' * (len(positional) != 1)}, got {len(call.args)}"
    bound = {p[0] for p in positional[: len(call.args)]}
    by_name = {p[0]: p for p in params if p[1] in NAMED}
    for keyword in call.keywords:
        if keyword.arg in bound:
            return f"gets '{keyword.arg}' twice"
        if keyword.arg not in by_name and not takes_any_keyword:
            return f"has no parameter '{keyword.arg}'"
        bound.add(keyword.arg)
    missing = [p[0] for p in params if p[1] in (*POSITIONAL, "keyword_only") and not p[2] and p[0] not in bound]
    if missing:
        return f"needs '{missing[0]}'"
    return None
