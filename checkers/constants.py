"""Operations the graph compiler folds while compiling, and that fail there.

MindSpore evaluates Python operations on compile-time constants while it compiles: ``1 + "a"``,
``int("abcd")``, ``[1, 2].pop(4)``, ``range(0.5)``, ``(2, 3).shape``. Where Python rejects such an
operation, the compiler rejects the graph with the same error, at every syntax level, before
anything runs; an int ``**`` past int64 is folded wrapped around, without a word. Type inference
checks the sequences ``mutable()`` makes dynamic-length the same way: one element type, and no
builtin that needs their length. The values come from the engine's interpreter
(msgraphlint.values.interpret): a failure is reported only where every operand is known. What
the compiler does at each level is in msgraphlint/knowledge/rules/constants.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.catalogue import snapshot
from msgraphlint.values.interpret import TensorValue, evaluation
from msgraphlint.knowledge.mindspore import HOST_COPY_METHODS

# Every attribute a Tensor or Parameter has in graph mode (msgraphlint/knowledge/data/tensor_attributes.toml).
TENSOR_ATTRIBUTES = frozenset(snapshot("tensor_attributes")["names"])
# The graph's lists, tuples, dicts and strings have the methods of Python's and, in 2.10, one more
# (the compiler's method table maps list_append ... list_extend and dict_get, dict_haskey as
# has_key, dict_clear, dict_update, dict_fromkeys); dunder names are the compiler's business.
CONTAINER_TYPES = frozenset({"list", "tuple", "dict", "str"})
GRAPH_CONTAINER_METHODS = frozenset({"has_key"})

MAX_SHOWN = 60  # characters of the failing expression quoted in a message
OPERATION_INSTEAD = {
    "TypeError": "operands of the types the operation takes (convert with int(), str(), tuple())",
    "IndexError": "an index within the constant's length",
    "KeyError": "a key the constant has",
    "ValueError": "a value the operation accepts",
    "ZeroDivisionError": "a divisor that is not zero",
    "RuntimeError": "a shift that keeps the result within int64",
}
# What a MindSpore operation folded on constants takes (its failure names the operation).
OPERATION_INSTEAD_FOR = {
    "tuple_div": "tuples of one length of int64 numbers, without a zero divisor",
    "map": "lists or tuples of one kind and one length (zip them to one length first)",
    "format": "the Cell's attribute itself (\"value is {}\".format(cell.x))",
}
ATTRIBUTE_INSTEAD = "an attribute that %s has"
ARITY_INSTEAD = "the arguments the builtin takes"
STRING_INSTEAD = "a tuple of the characters (('a', 'b', 'c')) or the length as a literal"
JOIN_INSTEAD = "ops.logical_and / ops.logical_or on tensors of one dtype, or an explicit if"
BOOL_INSTEAD = "(x != 0).any() or .all() to say which truth is meant"
TENSOR_ATTRIBUTE_INSTEAD = "a Tensor method or attribute (msgraphlint explain tensor-attribute-error)"
HOST_COPY_INSTEAD = "the numpy value itself, built outside construct, or the tensor"
DYNAMIC_SEQUENCE_INSTEAD = "elements of one type (int(v), float(v)), or a constant-length sequence (mutable(seq) without True)"
DYNAMIC_LENGTH_INSTEAD = {
    "builtin": "a for loop over the sequence (or over range(len(seq)))",
    "extend": "append in a loop, or + with a sequence of the same element type",
    "keyword": "mutable(x, True): dynamic_len positional",
    "empty": "a sequence that is not empty, or a check of len() first",
}
WRAPS_INSTEAD = "exponents that keep every step within int64 (2 ** (64 - 62), not 2 ** 64 // 2 ** 62) or a float power (2.0 ** n)"


class ConstantsFamily(Family):
    name = "constants"

    def visit_function(self, function: ast.FunctionDef | ast.AsyncFunctionDef, ctx: FunctionContext):
        dead = ctx.model.unevaluated_nodes(ctx.function)
        found = evaluation(ctx.model, ctx.function)
        for node, attr in found.tensor_lookups:
            if id(node) in dead:
                continue
            receiver = node.value if isinstance(node, ast.Attribute) else node.args[0]
            if attr not in TENSOR_ATTRIBUTES:
                ctx.report("tensor-attribute-error", node, shown(node), attr, TENSOR_ATTRIBUTE_INSTEAD)
            elif attr in HOST_COPY_METHODS and _constant_tensor(found.value(receiver)):
                ctx.report("host-copy-of-constant-tensor", node, shown(node), HOST_COPY_INSTEAD)
        for failure in found.failures:
            if id(failure.node) in dead:
                continue
            problem = f"{failure.error}: {failure.detail}" if failure.detail else failure.error
            if failure.kind == "join":
                ctx.report("tensor-bool-operator-join", failure.node, shown(failure.node), failure.detail,
                           JOIN_INSTEAD)
            elif failure.kind == "tensor-bool":
                ctx.report("multi-element-tensor-as-bool", failure.node, shown(failure.node),
                           failure.detail, BOOL_INSTEAD)
            elif failure.kind == "wraps":
                ctx.report("constant-power-overflow", failure.node, shown(failure.node),
                           failure.detail, WRAPS_INSTEAD)
            elif failure.kind == "string-length":
                ctx.report("string-length-at-strict", failure.node, shown(failure.node), STRING_INSTEAD)
            elif failure.kind == "arity":
                ctx.report("builtin-arity-error", failure.node, shown(failure.node), failure.detail,
                           ARITY_INSTEAD)
            elif failure.kind == "dynamic-sequence":
                ctx.report("mixed-types-in-dynamic-sequence", failure.node, shown(failure.node),
                           f"fails ({problem})", DYNAMIC_SEQUENCE_INSTEAD)
            elif failure.kind == "dynamic-length":
                ctx.report("dynamic-length-unsupported", failure.node, shown(failure.node),
                           f"fails ({problem})", DYNAMIC_LENGTH_INSTEAD[failure.subject])
            elif failure.kind == "attribute":
                if failure.subject in CONTAINER_TYPES and (
                        failure.attribute in GRAPH_CONTAINER_METHODS or failure.attribute.startswith("__")):
                    continue  # a method the graph gives containers of its own
                ctx.report("constant-attribute-error", failure.node, shown(failure.node), problem,
                           ATTRIBUTE_INSTEAD % f"a {failure.subject}")
            else:
                instead = OPERATION_INSTEAD_FOR.get(failure.subject) or OPERATION_INSTEAD.get(
                    failure.error, OPERATION_INSTEAD["TypeError"])
                ctx.report("constant-operation-error", failure.node, shown(failure.node), problem,
                           instead)


def shown(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _constant_tensor(value: object) -> bool:
    return value.__class__ is TensorValue and value.constant
