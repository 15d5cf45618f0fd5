"""MindSpore's own API as the target release has it: names that do not exist, calls that do not
bind, and MindSpore functions that cannot be compiled.

Code written for another MindSpore calls what the target release does not take:
``ops.ResizeBilinear`` (gone from mindspore.ops), ``ops.pad(x, paddings=...)`` (the keyword is
``padding`` now), ``x.repeat(3, axis=0)`` (Tensor.repeat is PyTorch's now), ``mint.max(x, dim=1,
keepdims=True)`` (no form of the overloaded function takes keepdims). Names, signatures and the
calling forms of Tensor methods and overloaded functions come from the API snapshot of the target
release (msgraphlint/knowledge/data/api/mindspore-<release>.json, ``--target-version``); each
finding says which other releases take the call. A call is judged only where its forms are known,
the call spreads no ``*args``/``**kwargs``, and, for a method, the model knows the receiver is a
tensor. What the compiler does at each level is in msgraphlint/knowledge/rules/mindspore_api.toml.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.api_snapshot import load, module_keys, versions
from msgraphlint.knowledge.catalogue import replacement_table
from msgraphlint.knowledge.api_binding import (
    POSITIONAL, binding_problem, parameter_methods, tensor_method_forms, tensor_method_table,
)
from msgraphlint.knowledge.mindspore import is_mindspore_name, uncompilable_function

# Expressions that compute a new tensor: never a Parameter.
COMPUTED = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Subscript)
NAME_INSTEAD = "a name MindSpore %s has (msgraphlint explain mindspore-name-missing)"
UNCOMPILABLE_INSTEAD = "the function its deprecation notice names, or call it outside compiled code"


@cache
def api(version: str) -> tuple[dict[str, dict], str]:
    """Module tables of a release's snapshot (Tensor's is bound apart: its methods dispatch on
    overloads), and the version it was read from."""
    snapshot = load(version)
    tables = {key: snapshot[key] for key in module_keys(snapshot) if key != "mindspore.Tensor"}
    return tables, snapshot["mindspore_version"]


def lookup(qualified: str, version: str) -> tuple[str, str, dict | None] | None:
    """(module, member, entry or None when missing) for a qualified name one member below a
    module of the snapshot; None for anything the snapshot does not cover."""
    module, _, member = qualified.rpartition(".")
    tables, _ = api(version)
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
        found = lookup(qualified, ctx.engine.target_version)
        if found is not None and found[2] is None and not guarded_by_hasattr(node, ctx):
            module, member, _ = found
            release = version(ctx)
            history = across_releases(lambda v: _has_name(qualified, v), "has it")
            ctx.report("mindspore-name-missing", node, ast.unparse(node), member, module, release,
                       history, NAME_INSTEAD % release)

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        if not names_mindspore(node.func, ctx):
            if node.func.__class__ is ast.Attribute:
                self.bind_tensor_method(node, node.func, ctx)
            return
        qualified = ctx.qualify(node.func)
        if qualified is None or not is_mindspore_name(qualified):
            return
        if uncompilable_function(qualified, ctx.engine.target_version) is not None:
            history = across_releases(lambda v: _compiles_body(qualified, v), "compiles it")
            ctx.report("uncompilable-mindspore-function", node, ast.unparse(node.func), qualified,
                       version(ctx), history, UNCOMPILABLE_INSTEAD)
        found = lookup(qualified, ctx.engine.target_version)
        forms = function_forms(found[2]) if found is not None and found[2] is not None else []
        if not forms:
            return
        problems = [binding_problem(node, form) for form in forms]
        if any(problem is None for problem in problems):
            return
        module, member, _ = found
        takes = " | ".join(dict.fromkeys(
            ", ".join(p[0] for p in form if p[1] in (*POSITIONAL, "keyword_only")) or "no arguments"
            for form in forms))
        history = across_releases(lambda v: _function_takes(node, qualified, v), "takes the call")
        ctx.report("mindspore-call-mismatch", node, ast.unparse(node.func), f"{module}.{member}",
                   problems[0] if len(forms) == 1 else "matches none of its forms", version(ctx),
                   takes, history)

    def bind_tensor_method(self, node: ast.Call, func: ast.Attribute, ctx: FunctionContext) -> None:
        """``x.repeat(3, axis=0)`` where the model knows ``x`` is a tensor: bound against every
        calling form the target release gives the method; reported when none takes the call."""
        forms = tensor_method_forms(func.attr, ctx.engine.target_version)
        if not forms or not ctx.kinds.is_tensor(func.value):
            return
        if (func.attr in parameter_methods(ctx.engine.target_version)
                and func.value.__class__ not in COMPUTED):
            return  # may be a Parameter, whose own method (clone(init=...)) takes other forms
        if func.attr == "repeat":
            self.repeat_counts(node, func, ctx)
        problems = [binding_problem(node, form) for form in forms]
        if any(problem is None for problem in problems):
            return
        spelled = ast.unparse(node)
        receiver = ast.unparse(func.value)
        calling = "; ".join(dict.fromkeys(f"Tensor.{func.attr}({spell_form(form)})" for form in forms))
        problem = problems[0] if len(forms) == 1 else "matches none of its forms"
        history = across_releases(lambda v: _tensor_method_takes(node, func.attr, v), "takes the call")
        ctx.report("tensor-method-mismatch", node, spelled, func.attr, problem, version(ctx),
                   calling, history, tensor_method_instead(func.attr, node, receiver))

    def repeat_counts(self, node: ast.Call, func: ast.Attribute, ctx: FunctionContext) -> None:
        """``x.repeat(n, axis)`` on a tensor of more than two dimensions: PyTorch's repeat wants
        one count per dimension, and the graph rejects fewer."""
        counts = node.args
        if len(counts) == 1 and isinstance(counts[0], (ast.Tuple, ast.List)):
            counts = counts[0].elts
        if node.keywords or not counts or any(isinstance(c, ast.Starred) for c in counts):
            return
        rank = ctx.rank(func.value)
        if rank is None or len(counts) >= rank:
            return
        receiver = ast.unparse(func.value)
        if len(node.args) == 2:  # numpy's repeat(n, axis)
            n, axis = (ast.unparse(a) for a in node.args)
            instead = f"{receiver}.repeat_interleave({n}, dim={axis}) (numpy's repeat along an axis)"
        else:
            instead = f"one count per dimension ({rank}), or {receiver}.repeat_interleave(n, dim=axis)"
        ctx.report("repeat-count-below-rank", node, ast.unparse(node), rank, len(counts), instead)


def across_releases(accepts: Callable[[str], bool | None], verb: str) -> str:
    """Which releases with a snapshot accept what the target rejects, for an upgrade report:
    "; 2.7 takes the call, 2.8 to 2.10 do not"; empty when every release that can say rejects
    it. ``accepts`` answers None for a release that cannot say (a signature it does not list)."""
    answers = [(release, accepts(release)) for release in versions()]
    taking = [release for release, answer in answers if answer]
    refusing = [release for release, answer in answers if answer is False]
    if not taking:
        return ""
    refuse = "does not" if len(refusing) == 1 else "do not"
    return f"; {_span(taking)} {verb if len(taking) == 1 else _plural(verb)}, {_span(refusing)} {refuse}"


def _span(releases: list[str]) -> str:
    """2.7, 2.8, 2.9 -> "2.7 to 2.9" when they are consecutive snapshots."""
    known = list(versions())
    positions = [known.index(release) for release in releases]
    if len(releases) > 2 and positions == list(range(positions[0], positions[-1] + 1)):
        return f"{releases[0]} to {releases[-1]}"
    return ", ".join(releases)


def _plural(verb: str) -> str:
    first, _, rest = verb.partition(" ")
    return {"has": "have", "takes": "take"}.get(first, first) + (f" {rest}" if rest else "")


def _has_name(qualified: str, release: str) -> bool | None:
    found = lookup(qualified, release)
    return None if found is None else found[2] is not None


def _compiles_body(qualified: str, release: str) -> bool | None:
    if not _has_name(qualified, release):
        return None
    return uncompilable_function(qualified, release) is None


def _function_takes(call: ast.Call, qualified: str, release: str) -> bool | None:
    found = lookup(qualified, release)
    if found is None:
        return None
    if found[2] is None:
        return False
    forms = function_forms(found[2])
    return any(binding_problem(call, form) is None for form in forms) if forms else None


def function_forms(entry: dict) -> list[list]:
    """The calling forms of a function or class of the snapshot: its one signature, or the
    overloads its C++ parser lists (mint.add); empty when not known."""
    return [entry["params"]] if "params" in entry else entry.get("overloads", [])


def _tensor_method_takes(call: ast.Call, name: str, release: str) -> bool | None:
    forms = tensor_method_forms(name, release)
    if not forms:
        return False if tensor_method_table(release).get(name) is None else None
    return any(binding_problem(call, form) is None for form in forms)


def spell_form(params: list) -> str:
    """A calling form as Python would write it: ``dim=None, keepdim=False, *, dtype=None``."""
    words, keyword_only_marked = [], False
    for param in params:
        name, kind, has_default = param[0], param[1], param[2]
        if kind == "keyword_only" and not keyword_only_marked:
            words.append("*")
            keyword_only_marked = True
        if kind == "var_positional":
            words.append(f"*{name}")
            keyword_only_marked = True
        elif kind == "var_keyword":
            words.append(f"**{name}")
        else:
            words.append(f"{name}=..." if has_default else name)
    return ", ".join(words)


def tensor_method_instead(name: str, node: ast.Call, receiver: str) -> str:
    """What to write instead: the replacement the knowledge layer names for a ported spelling
    (``x.repeat(n, axis=d)`` -> ``x.repeat_interleave(n, dim=d)``), else the forms' own words."""
    table = replacement_table("tensor-method")
    keywords = {k.arg: ast.unparse(k.value) for k in node.keywords if k.arg}
    replacement = table["names"].get(f"{name}:{','.join(sorted(keywords))}")
    if replacement is None:
        return table["default"]
    return replacement.format(receiver=receiver, args=", ".join(ast.unparse(a) for a in node.args),
                              **keywords)


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


def version(ctx: FunctionContext) -> str:
    return api(ctx.engine.target_version)[1]
