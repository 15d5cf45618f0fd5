"""Third-party (host) libraries in compiled code: numpy, scipy, math and the like.

A host call whose arguments are all compile-time constants is folded into the graph (advice at
most); one with an argument that flows from the inputs is reported under a rule of its own, and so
are numpy's reductions on a tensor, which call the tensor's own method with numpy-only keywords.
What the compiler does at each level is in msgraphlint/knowledge/rules/third_party.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.catalogue import rule
from msgraphlint.knowledge.mindspore import (
    NON_GRAPH_BUILTINS, NUMPY_REDUCTIONS, NUMPY_SCALAR_TYPES, random_source,
)
from msgraphlint.model.randomness import random_calls

class ThirdPartyFamily(Family):
    name = "third-party"

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        qualified = ctx.qualify(node.func)
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


DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
            ast.GeneratorExp)


def calls_tensor_method(node: ast.Call, ctx: FunctionContext) -> bool:
    """numpy hands a reduction to the first argument's own method only when that argument is an
    array-like object (a tensor); a list or tuple of values is converted on the host instead."""
    first = node.args[0] if node.args else None
    return first is not None and not isinstance(first, DISPLAYS) and ctx.is_variable(first)
