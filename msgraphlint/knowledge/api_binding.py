"""Binding a call against the calling forms an API snapshot gives a MindSpore function or Tensor
method: as Python would bind it, and by the kinds MindSpore's argument parser lists. Shared by the
mindspore-api rules and the fixes, which offer a replacement only where the release takes it."""

from __future__ import annotations

import ast
from functools import cache

from .api_snapshot import PARAMETER_KEY, load, resolve_version
from .mindspore import LITERAL_TAKEN_BY

POSITIONAL = ("positional_only", "positional_or_keyword")
NAMED = ("positional_or_keyword", "keyword_only")


def tensor_method_binds(call: ast.Call, name: str, version: str | None = None) -> bool:
    """Whether some calling form the release gives Tensor.<name> takes the call."""
    return any(binding_problem(call, form) is None
               for form in tensor_method_forms(name, resolve_version(version)))


@cache
def tensor_method_table(version: str) -> dict[str, dict]:
    return load(version)["mindspore.Tensor"]


@cache
def parameter_methods(version: str) -> frozenset[str]:
    """The methods Parameter defines itself in a release (set_data, clone, ...)."""
    table = load(version).get(PARAMETER_KEY, {})
    return frozenset(name for name, entry in table.items() if entry["kind"] == "function")


def tensor_method_forms(name: str, version: str) -> list[list]:
    """The calling forms (parameter lists) a release gives a Tensor method; empty when not
    known (a C++ method no probe could read, a property, no such method)."""
    entry = tensor_method_table(version).get(name)
    if entry is None or entry["kind"] != "function":
        return []
    if "overloads" in entry:
        return _typed_once(entry["overloads"])
    return [entry["params"]] if "params" in entry else []


def _typed_once(forms: list[list]) -> list[list]:
    """The forms without the untyped copies that the docstring or inspect gave of a form the
    C++ parser also lists with its argument types (Tensor.sum has both)."""
    typed = {_names(form) for form in forms if any(len(p) > 3 and p[3] for p in form)}
    return [form for form in forms
            if _names(form) not in typed or any(len(p) > 3 and p[3] for p in form)]


def _names(form: list) -> tuple:
    return tuple((p[0], p[1]) for p in form)


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
    arguments = [*zip(positional, call.args), *((by_name[k.arg], k.value) for k in call.keywords
                                                if k.arg in by_name)]
    for param, argument in arguments:
        kind = literal_kind(argument)
        types = param[3] if len(param) > 3 else []
        if kind is not None and types and not LITERAL_TAKEN_BY[kind] & set(types):
            return f"takes {' or '.join(types)} as '{param[0]}', not the {kind} {ast.unparse(argument)}"
    return None


def literal_kind(node: ast.expr) -> str | None:
    """The kind of a literal argument that LITERAL_TAKEN_BY judges (a str, a float, a tuple or
    list of ints), or None."""
    if node.__class__ is ast.UnaryOp and node.op.__class__ is ast.USub:
        node = node.operand
    if node.__class__ is ast.Constant:
        value = node.value
        return "str" if value.__class__ is str else "float" if value.__class__ is float else None
    if node.__class__ in (ast.Tuple, ast.List) and node.elts and all(
            e.__class__ is ast.Constant and e.value.__class__ is int for e in node.elts):
        return "tuple"
    return None
