"""Third-party (host) libraries in compiled code: numpy, scipy, math and the like.

A host call whose arguments are all compile-time constants is folded into the graph (advice at
most); one with an argument that flows from the inputs is reported under a rule of its own, and so
are numpy's reductions on a tensor, which call the tensor's own method with numpy-only keywords.
A `# @jit.typing:` comment on such a call, which LAX runs through the interpreter, is read by
MindSpore and must name a type it takes. What the compiler does at each level is in
msgraphlint/knowledge/rules/third_party.toml.
"""

from __future__ import annotations

import ast
import re

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.catalogue import rule
from msgraphlint.knowledge.mindspore import (
    DTYPE_NAMES, JIT_TYPING_COMMENT, JIT_TYPING_ELEMENTS_REFUSED, NON_GRAPH_BUILTINS,
    NUMPY_REDUCTIONS, NUMPY_SCALAR_TYPES, RUNTIME_FALLBACK_METHODS, random_source,
)
from msgraphlint.model.randomness import random_calls

# How MindSpore's parser takes a `# @jit...` comment from a line (graph/_parse/parser.py).
JIT_COMMENT_IN_LINE = re.compile(r"#\s*@jit[^'\"]*?(?=\n|$)")
JIT_TYPING_INSTEAD = ("a kind and a dtype MindSpore names, as in '# @jit.typing: () -> "
                      "tensor_type[float32]' (list_[int32], tuple_[float16]), or ops in place of "
                      "the host code")


class ThirdPartyFamily(Family):
    name = "third-party"

    def __init__(self) -> None:
        # The compiled function being walked and the comment lines reported in it.
        self._function: ast.AST | None = None
        self._typed_lines: set[int] = set()

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        qualified = ctx.qualify(node.func)
        if self._runs_in_fallback(node, qualified, ctx):
            self._check_typing_comments(node, ctx)
        if qualified is None:
            return
        if qualified not in NON_GRAPH_BUILTINS and (
                not ctx.engine.jit_modules.is_fallback(qualified)
                or ctx.model.project.find_module(qualified.split(".", 1)[0]) is not None):
            return  # compiled: graph code, the project's own module (code.py), an installed library
        spelled = ast.unparse(node.func)
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if not any(ctx.is_variable(argument) for argument in arguments):
            if random_source(qualified) not in (None, "distribution") or id(node) in random_calls(ctx):
                return  # a draw or its source (random-frozen's), a generator, the seed
            is_numpy_like = qualified.startswith(("numpy.", "scipy."))
            if is_numpy_like and qualified.rsplit(".", 1)[-1] not in NUMPY_SCALAR_TYPES:
                ctx.report("numpy-on-constants", node, spelled)
            return
        if qualified.startswith("numpy.") and qualified.count(".") == 1 and (
            qualified.rsplit(".", 1)[-1] in NUMPY_REDUCTIONS
        ) and calls_tensor_method(node, ctx):
            found = rule("numpy-reduction-on-tensor")
            ctx.report(found.symbol, node, spelled, found.replacement_for(qualified))
            return
        found = rule("host-call-on-tensor")
        ctx.report(found.symbol, node, spelled, found.replacement_for(qualified))

    def _runs_in_fallback(self, node: ast.Call, qualified: str | None, ctx: FunctionContext) -> bool:
        """A call LAX runs through the interpreter: a tensor's asnumpy, or a host library's function
        given a variable."""
        if qualified is None:
            return (node.func.__class__ is ast.Attribute and node.func.attr in RUNTIME_FALLBACK_METHODS
                    and ctx.kinds.is_tensor(node.func.value))
        if not ctx.engine.jit_modules.is_fallback(qualified) or (
                ctx.model.project.find_module(qualified.split(".", 1)[0]) is not None):
            return False
        return any(ctx.is_variable(argument) for argument in [*node.args, *(k.value for k in node.keywords)])

    def _check_typing_comments(self, node: ast.Call, ctx: FunctionContext) -> None:
        """``# @jit.typing: () -> ...`` comments MindSpore reads for the call, and cannot use."""
        if self._function is not ctx.function.node:
            self._function, self._typed_lines = ctx.function.node, set()
        lines = ctx.module.source.lines
        numbers = list(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        before = node.lineno - 1
        if before >= 1 and lines[before - 1].strip(" \t").startswith("#"):
            numbers.insert(0, before)
        for number in numbers:
            if number in self._typed_lines or number > len(lines):
                continue
            line = lines[number - 1]
            found = JIT_COMMENT_IN_LINE.search(line)
            if number == before and found is not None and found.start() != len(line) - len(line.lstrip(" \t")):
                continue  # the line before counts only when it is the comment alone
            problem = _typing_problem(found.group()) if found is not None else None
            if problem is not None:
                self._typed_lines.add(number)
                ctx.report("jit-typing-comment", node, found.group(), problem, JIT_TYPING_INSTEAD)


def _typing_problem(comment: str) -> str | None:
    """Why MindSpore refuses a ``# @jit.typing:`` comment it matches; None when it takes it,
    ignores it, or looks a name up in the function (``{dtype_var}``)."""
    match = JIT_TYPING_COMMENT.fullmatch(comment)
    if match is None:
        return None
    kind, element = match.groups()
    if kind is None or "{" in kind or "}" in kind or (element and ("{" in element or "}" in element)):
        return None
    if kind not in DTYPE_NAMES:
        return f"names '{kind}', which is no MindSpore dtype"
    if not element:
        return None
    refused = JIT_TYPING_ELEMENTS_REFUSED.get(kind)
    if refused is None:
        return f"gives '{kind}' an element type, but only tensor_type, list_ and tuple_ take one"
    if element not in DTYPE_NAMES:
        return f"names '{element}', which is no MindSpore dtype"
    if element in refused:
        return f"gives {kind} the element type '{element}', which it does not take"
    return None


DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
            ast.GeneratorExp)


def calls_tensor_method(node: ast.Call, ctx: FunctionContext) -> bool:
    """numpy hands a reduction to the first argument's own method only when that argument is an
    array-like object (a tensor); a list or tuple of values is converted on the host instead, and
    a host array (``idx.asnumpy()``) is numpy's own (probed with 2.10: ``np.max(idx.asnumpy())``
    compiles at LAX)."""
    first = node.args[0] if node.args else None
    return (first is not None and not isinstance(first, DISPLAYS) and ctx.is_variable(first)
            and not ctx.is_host(first))
