"""Operations the graph compiler folds while compiling, and that fail there.

MindSpore evaluates Python operations on compile-time constants while it compiles: ``1 + "a"``,
``int("abcd")``, ``[1, 2].pop(4)``, ``range(0.5)``, ``(2, 3).shape``. Where Python rejects such an
operation, the compiler rejects the graph with the same error, at every syntax level, before
anything runs. The values come from the engine's interpreter (msgraphlint.interpret): a failure is
reported only where every operand is known. What the compiler does at each level is in
msgraphlint/rules/constants.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.analyze import Family, FunctionContext
from msgraphlint.interpret import evaluation

MAX_SHOWN = 60  # characters of the failing expression quoted in a message
OPERATION_INSTEAD = {
    "TypeError": "operands of the types the operation takes (convert with int(), str(), tuple())",
    "IndexError": "an index within the constant's length",
    "KeyError": "a key the constant has",
    "ValueError": "a value the operation accepts",
    "ZeroDivisionError": "a divisor that is not zero",
}
ATTRIBUTE_INSTEAD = "an attribute that %s has"
ARITY_INSTEAD = "the arguments the builtin takes"
JOIN_INSTEAD = "ops.logical_and / ops.logical_or on tensors of one dtype, or an explicit if"
BOOL_INSTEAD = "(x != 0).any() or .all() to say which truth is meant"


class ConstantsFamily(Family):
    name = "constants"

    def visit_function(self, function: ast.FunctionDef | ast.AsyncFunctionDef, ctx: FunctionContext):
        dead = ctx.model.dead_nodes(ctx.function)
        for failure in evaluation(ctx.model, ctx.function).failures:
            if id(failure.node) in dead:
                continue
            problem = f"{failure.error}: {failure.detail}" if failure.detail else failure.error
            if failure.kind == "join":
                ctx.report("tensor-bool-operator-join", failure.node, shown(failure.node), failure.detail,
                           JOIN_INSTEAD)
            elif failure.kind == "tensor-bool":
                ctx.report("multi-element-tensor-as-bool", failure.node, shown(failure.node),
                           failure.detail, BOOL_INSTEAD)
            elif failure.kind == "arity":
                ctx.report("builtin-arity-error", failure.node, shown(failure.node), failure.detail,
                           ARITY_INSTEAD)
            elif failure.kind == "attribute":
                owner = failure.detail.split("'")[1] if failure.detail.count("'") >= 2 else "the value"
                ctx.report("constant-attribute-error", failure.node, shown(failure.node), problem,
                           ATTRIBUTE_INSTEAD % f"a {owner}")
            else:
                instead = OPERATION_INSTEAD.get(failure.error, OPERATION_INSTEAD["TypeError"])
                ctx.report("constant-operation-error", failure.node, shown(failure.node), problem,
                           instead)


def shown(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."
