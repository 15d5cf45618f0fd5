"""Values of the wrong kind where the graph compiler settles types while compiling.

``isinstance`` whose second argument is not a type (a dtype such as ``ms.float32``, a string, a list,
a ``|`` union); ``range()`` of a tensor; a tuple or list indexed by a tensor; a tensor that may hold
several elements used as a Python boolean; a function, method, Cell or primitive returned from
construct. What the compiler does at each level is in msgraphlint/knowledge/rules/types.toml.

What is a tensor is judged by :class:`TensorKinds`, stricter than "flows from the inputs": a
construct parameter may be a Python int or a tuple, so only values the code itself shows to be
tensors count: results of mindspore.ops and tensor methods, arithmetic on them, Parameters,
outputs of batch layers (nn.Dense, nn.Conv2d, ...), and parameters the function reads ``.shape``
or ``.dtype`` of or calls a tensor method on.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.api_snapshot import kind_of, release
from msgraphlint.model.attributes import (
    attribute_assignments, held_call_names, held_class, is_parameter_attribute,
)
from msgraphlint.values.domain import is_array_value, is_tensor_value, mapped_shape
from msgraphlint.values.interpret import evaluation
from msgraphlint.values.kinds import MULTI, kinds_of
from msgraphlint.knowledge.mindspore import (
    DTYPE_MODULES, DTYPE_NAMES, MINDSPORE, RANGE_CALLS, SEQUENCE_MAPPERS, SPARSE_REFUSED_CONVERSIONS,
    VALUE_CONSTRUCTORS, VALUE_KIND_DTYPES,
    constexpr_gets_tensors, is_layer_or_primitive, is_tensor_function, is_tensor_method,
)
from msgraphlint.model.compiled import NESTED_SCOPES, bind_arguments, parameter_defaults
# What goes back to Python from a return is decided as for strict-silent's dict returns.

ISINSTANCE_INSTEAD = "a type or a tuple of types"
DTYPE_INSTEAD = "x.dtype == <dtype> to compare dtypes"
# What the API snapshot calls a MindSpore name that isinstance cannot take.
NOT_TYPES = {"other": "object (an instance in the target release)", "function": "function",
             "module": "module"}
UNION_INSTEAD = "the tuple %s"
RANGE_INSTEAD = "a shape (x.shape[0]), a constant, or int(%s)"
INDEX_INSTEAD = "ops.stack of the elements indexed by the tensor"
OUTPUT_INSTEAD = "return tensors only and call it inside the graph"
JIT_CLASS_OUTPUT_INSTEAD = "return its fields (tensors, numbers) and build the object in Python"
NONE_GRAPH_INSTEAD = "return a tensor (the input, or a flag) from the graph"
NONE_SUBGRAPH_INSTEAD = "return a tensor (the input, or a flag) from the function"
PERCENT_INSTEAD = "an f-string, or the tensor itself as the exception's argument"

# ----- data --------------------------------------------------------------------------------

ISINSTANCE = "builtins.isinstance"
EXTREMA = frozenset({"builtins.max", "builtins.min"})
EXTREMUM_INSTEAD = "the tensors themselves in the sequence (max(a, b), ops.maximum), or a flat tuple of tensors"
SPARSE_INSTEAD = "its parts (.values, .indices, .shape) or .to_dense() first"
MAPPED_INSTEAD = "sequences of one kind and one length in every argument (tuple(...) of each, or zip them first)"
BOOL_CALL = "builtins.bool"
GETATTR = "builtins.getattr"
GETATTR_DEFAULT_INSTEAD = "a Tensor (built in __init__), a tuple or a number as the default"
CHECKED_CALLS = RANGE_CALLS | {ISINSTANCE, BOOL_CALL, GETATTR}
# `is`/`in` comparisons give Python booleans, answered while compiling even on tensors (identity,
# membership in a tuple). Also used by the data-flow family.
SIMPLE_EXPRESSIONS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)  # `.any()` reads right after


# Where a statement or expression between a helper's isinstance and the helper itself may keep
# the isinstance from running (a loop that may not iterate, a try that catches what it raises, a
# nested scope), nothing is said.
MAY_SKIP = (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.TryStar, ast.With, ast.AsyncWith,
            ast.Match, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
            ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


# ----- the family ----------------------------------------------------------------------------


class TypesFamily(Family):
    name = "types"

    # ----- graphs that give None and may raise; %-formatting of a tensor ------------------

    def visit_function(self, function: ast.FunctionDef | ast.AsyncFunctionDef, ctx: FunctionContext):
        """A graph that gives back only None and raises under a test on a tensor: STRICT cannot
        build its output, whatever the input. A root fails with "Invalid abstract;AbstractNone";
        a function compiled code calls (a subgraph) with "output index [0] large than the output
        size [0]", also when the branch assigns a Parameter instead of raising."""
        root = ctx.function.is_root
        if root and ctx.cell is not None and ctx.model.holders(ctx.cell):
            return
        nodes = ctx.module.body_nodes(function)
        if any(n.__class__ is ast.Return and not _is_none(n.value) for n in nodes):
            return
        dead = ctx.unevaluated
        parents = ctx.module.parents(function)
        for node in nodes:
            if id(node) in dead:
                continue
            if node.__class__ is ast.Raise:
                effect = "raises"
            elif not root and node.__class__ is ast.Assign and any(
                    is_parameter_attribute(ctx, target) for target in node.targets):
                effect = f"assigns '{ast.unparse(node.targets[0])}'"
            else:
                continue
            test = _variable_test_above(node, parents, function, ctx)
            if test is not None:
                ctx.report("raise-in-none-graph", node, function.name, effect, test.lineno,
                           NONE_GRAPH_INSTEAD if root else NONE_SUBGRAPH_INSTEAD)
                return

    def visit_BinOp(self, node: ast.BinOp, ctx: FunctionContext) -> None:
        if not (isinstance(node.op, ast.Mod) and isinstance(node.left, (ast.Constant, ast.JoinedStr))
                and (not isinstance(node.left, ast.Constant) or isinstance(node.left.value, str))):
            return
        operands = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        found = evaluation(ctx.model, ctx.function)
        for operand in operands:
            if ctx.kinds.is_tensor(operand) or is_tensor_value(found.value(operand)):
                ctx.report("percent-format-of-tensor", node, ast.unparse(node)[:60], ast.unparse(operand),
                           PERCENT_INSTEAD)
                return

    # ----- calls: isinstance, range, bool --------------------------------------------------

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified in EXTREMA and len(node.args) == 1 and not node.keywords:
            if _nests_tensors(node.args[0], ctx):
                ctx.report("extremum-of-nested-tensors", node, ast.unparse(node)[:60], qualified[9:],
                           EXTREMUM_INSTEAD)
            return
        if qualified in SPARSE_REFUSED_CONVERSIONS and len(node.args) == 1 and not node.keywords:
            sparse = ctx.kinds.sparse_class(node.args[0])
            if sparse is not None:
                ctx.report("sparse-tensor-conversion", node, ast.unparse(node)[:60], qualified[9:],
                           sparse, SPARSE_INSTEAD)
                return
        if qualified not in CHECKED_CALLS:
            mapper = _mapper(node.func, ctx)
            if mapper is not None:
                name, takes_function = mapper
                arguments = node.args[1:] if takes_function else node.args
                found = _mapped_mismatch(name, arguments, ctx)
                if found is not None:
                    ctx.report("mapped-sequence-mismatch", node, ast.unparse(node)[:60], found, name,
                               MAPPED_INSTEAD)
            return
        if qualified == ISINSTANCE:
            self._check_isinstance(node, ctx)
        elif qualified == BOOL_CALL:
            if len(node.args) == 1 and not node.keywords:
                self._check_truth(node.args[0], "bool()", ctx)
        elif qualified == GETATTR:
            if (len(node.args) == 3 and not node.keywords
                    and is_array_value(ctx.evaluation.value(node.args[2]))):
                ctx.report("getattr-numpy-default", node, ast.unparse(node)[:60], GETATTR_DEFAULT_INSTEAD)
        else:
            for argument in node.args:
                if ctx.kinds.is_tensor(argument):
                    spelled = ast.unparse(argument)
                    ctx.report("range-of-tensor", node, ast.unparse(node), spelled,
                               RANGE_INSTEAD % spelled)
                    return

    def _check_isinstance(self, node: ast.Call, ctx: FunctionContext) -> None:
        if len(node.args) != 2 or node.keywords:
            return
        problem = self._not_a_type(node.args[1], ctx)
        if problem is not None:
            what, instead = problem
            ctx.report("isinstance-non-type", node, ast.unparse(node), what, instead)

    # ----- @constexpr helpers: isinstance run by Python while compiling ----------------------

    def visit_host_evaluated(self, function: ast.FunctionDef | ast.AsyncFunctionDef,
                             ctx: FunctionContext) -> None:
        """MindSpore runs a @constexpr helper in Python while compiling, so an isinstance whose
        second argument is not a type raises TypeError there and fails the compile, wherever
        the helper's caller is. Reported only where a compiled call certainly evaluates it."""
        module = ctx.module
        nodes = module.body_nodes(function)
        first_exit = min((n.lineno for n in nodes if n.__class__ in (ast.Return, ast.Raise)),
                         default=None)
        parents = module.parents(function)
        for node in nodes:
            if not (node.__class__ is ast.Call and len(node.args) == 2 and not node.keywords
                    and ctx.qualify(node.func) == ISINSTANCE):
                continue
            if first_exit is not None and first_exit < node.lineno:
                continue  # an earlier return or raise may end the call before it
            problem = self._not_a_type(node.args[1], ctx, in_python=True)
            if problem is not None and any(
                _evaluated_by_call(node, function, parents, caller, edge, ctx)
                for caller, edge in ctx.function.callers
            ):
                what, instead = problem
                ctx.report("isinstance-non-type", node, ast.unparse(node), what, instead)

    def _not_a_type(self, spec: ast.expr, ctx: FunctionContext,
                    in_python: bool = False) -> tuple[str, str] | None:
        """(what the argument is, what to write instead) when it is certainly not a type or a
        tuple of types; None when it is one or when that cannot be told. ``in_python``: the
        isinstance runs in Python (a @constexpr helper), which takes a ``|`` union."""
        spelled = ast.unparse(spec)
        match spec:
            case ast.Tuple(elts=elements):
                for element in elements:
                    if (problem := self._not_a_type(element, ctx, in_python)) is not None:
                        return problem
                return None
            case ast.Constant(value=value):
                return f"'{spelled}' is a {type(value).__name__} constant", _constant_instead(value)
            case ast.List() | ast.Set() | ast.ListComp() | ast.SetComp():
                elements = getattr(spec, "elts", None)
                tuple_spelled = ast.unparse(ast.Tuple(elts=elements)) if elements else "a tuple"
                return f"'{spelled}' is a {type(spec).__name__.lower().replace('comp', '')}", (
                    f"the tuple {tuple_spelled}"
                )
            case ast.Dict() | ast.DictComp():
                return f"'{spelled}' is a dict", ISINSTANCE_INSTEAD
            case ast.Call(func=func):
                # an array, a tensor or an instance of a project class: a value, not its type
                called = ctx.qualify(func)
                if called in VALUE_CONSTRUCTORS:
                    return f"'{spelled}' builds a {VALUE_CONSTRUCTORS[called]}", ISINSTANCE_INSTEAD
                if called is not None and ctx.model.resolve_class(called, ctx.module) is not None:
                    return f"'{spelled}' is an instance, not a class", f"the class {ast.unparse(func)}"
                return None
            case ast.BinOp(op=ast.BitOr()) if not in_python:
                # Python 3.10 accepts `int | float`; the graph compiler does not (seen in 2.10).
                parts = _union_parts(spec)
                tuple_spelled = f"({', '.join(ast.unparse(p) for p in parts)})"
                return f"'{spelled}' is a union, which compiled code does not accept", (
                    UNION_INSTEAD % tuple_spelled
                )
        qualified = ctx.qualify(spec)
        if qualified is not None and "." in qualified:
            module, last = qualified.rsplit(".", 1)
            if module in DTYPE_MODULES and last in VALUE_KIND_DTYPES:
                return (f"'{spelled}' is an instance of a MindSpore type, not a type",
                        f"type({spelled}), its class (or isinstance(x, Tensor) for a tensor)")
            if module in DTYPE_MODULES and last in DTYPE_NAMES:
                return f"'{spelled}' is a MindSpore dtype, not a type", DTYPE_INSTEAD
            kind = kind_of(qualified, ctx.engine.target_version) if qualified.startswith(MINDSPORE) else None
            if kind in NOT_TYPES:  # mstype.tensor_type: an instance of TensorType, not a class
                return (f"'{spelled}' is a MindSpore {NOT_TYPES[kind]}, not a type",
                        ISINSTANCE_INSTEAD)
            return None
        if isinstance(spec, ast.Attribute) and ctx.is_self(spec.value) and ctx.owner is not None:
            assigned = attribute_assignments(ctx).get(spec.attr, [])
            if assigned and all(isinstance(v, ast.Constant) for _, v in assigned):
                value = assigned[0][1].value
                return f"'{spelled}' holds the constant {value!r}", ISINSTANCE_INSTEAD
            return None
        if ctx.kinds.is_tensor(spec):
            return f"'{spelled}' is a tensor", ISINSTANCE_INSTEAD
        return None

    # ----- tuple and list indices ------------------------------------------------------------

    def visit_Subscript(self, node: ast.Subscript, ctx: FunctionContext) -> None:
        if isinstance(node.slice, (ast.Slice, ast.Tuple)) or not isinstance(node.ctx, ast.Load):
            return
        if not ctx.kinds.is_tensor(node.slice):
            return
        sequence = self._sequence_of_tensors(node.value, ctx)
        if sequence is not None:
            symbol = "tensor-index-on-tuple" if sequence == "tuple" else "tensor-index-on-list"
            ctx.report(symbol, node, ast.unparse(node), ast.unparse(node.slice), INDEX_INSTEAD)

    def _sequence_of_tensors(self, node: ast.expr, ctx: FunctionContext) -> str | None:
        """"tuple" or "list" for a tuple or list display (or a name bound only to such displays)
        whose elements carry inputs. A tuple of Cells or functions indexed by a tensor is
        MindSpore's switch_layer and compiles, so elements must be data (variables)."""
        if isinstance(node, ast.Name):
            assigned = ctx.values.assigned_values(node.id)
            kinds = {
                self._sequence_of_tensors(value, ctx) if not isinstance(value, ast.Name) else None
                for value in assigned
            }
            return kinds.pop() if len(kinds) == 1 else None
        if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
            if all(
                not isinstance(e, ast.Starred) and ctx.is_variable(e) for e in node.elts
            ):
                return "tuple" if isinstance(node, ast.Tuple) else "list"
        return None

    # ----- tensors as Python booleans --------------------------------------------------------

    def visit_If(self, node: ast.If, ctx: FunctionContext) -> None:
        self._check_truth(node.test, "the test of an if", ctx)

    def visit_While(self, node: ast.While, ctx: FunctionContext) -> None:
        self._check_truth(node.test, "the test of a while", ctx)

    def visit_IfExp(self, node: ast.IfExp, ctx: FunctionContext) -> None:
        self._check_truth(node.test, "the test of a conditional expression", ctx)

    def visit_Assert(self, node: ast.Assert, ctx: FunctionContext) -> None:
        self._check_truth(node.test, "an assert", ctx)

    def visit_UnaryOp(self, node: ast.UnaryOp, ctx: FunctionContext) -> None:
        if isinstance(node.op, ast.Not):
            self._check_truth(node.operand, "the operand of not", ctx)

    def visit_BoolOp(self, node: ast.BoolOp, ctx: FunctionContext) -> None:
        # Every operand but the last is converted to bool; the last is the value of the whole
        # expression and is converted only where the whole is (checked by the test's visitor).
        how = f"an operand of {'and' if isinstance(node.op, ast.And) else 'or'}"
        for operand in node.values[:-1]:
            self._check_truth(operand, how, ctx)

    def _check_truth(self, value: ast.expr, how: str, ctx: FunctionContext) -> None:
        if isinstance(value, ast.BoolOp):
            # `if a and b:`: the last operand is converted too (the others by visit_BoolOp).
            self._check_truth(value.values[-1], how, ctx)
            return
        if ctx.kinds.kind(value) != MULTI or ctx.kinds.element_count(value) is not None:
            return  # a size the interpreter knows decides it (multi-element-tensor-as-bool)
        spelled = ast.unparse(value)
        wrapped = spelled if isinstance(value, SIMPLE_EXPRESSIONS) else f"({spelled})"
        ctx.report("tensor-as-bool", value, spelled, how, f"{wrapped}.any(), {wrapped}.all() or ops.where")

    # ----- functions returned to Python ------------------------------------------------------

    def visit_Return(self, node: ast.Return, ctx: FunctionContext) -> None:
        if node.value is None or not ctx.returns_to_python(node):
            return
        for element in self._outputs(node.value, ctx):
            if isinstance(element, ast.Dict):
                for value in element.values:
                    if (what := self._function_like(value, ctx)) is not None:
                        ctx.report("function-in-output-dict", node, ast.unparse(node), what,
                                   OUTPUT_INSTEAD)
                        return
            elif (what := self._function_like(element, ctx)) is not None:
                ctx.report("function-in-output", node, ast.unparse(node), what, OUTPUT_INSTEAD)
                return
            elif (built := self._jit_class_instance(element, ctx)) is not None:
                call, cls = built  # reported where it is built: the line the compiler names
                ctx.report("jit-class-in-output", call, ast.unparse(call), cls,
                           JIT_CLASS_OUTPUT_INSTEAD)
                return

    def _jit_class_instance(self, node: ast.expr, ctx: FunctionContext,
                            depth: int = 0) -> tuple[ast.Call, str] | None:
        """The call that builds the @jit_class instance the expression certainly is (right
        there, or in the one assignment of a name) and the class's name, or None."""
        if isinstance(node, ast.Name) and depth < 8:
            assigned = ctx.values.assigned_values(node.id)
            return self._jit_class_instance(assigned[0], ctx, depth + 1) if len(assigned) == 1 else None
        if not isinstance(node, ast.Call):
            return None
        qualified = ctx.qualify(node.func)
        cls = ctx.model.resolve_class(qualified, ctx.module) if qualified else None
        return (node, cls.name) if cls is not None and ctx.model.is_jit_class(cls) else None

    def _outputs(self, value: ast.expr, ctx: FunctionContext, depth: int = 0):
        """The values a return hands back: tuple and list elements (dicts whole), through names
        bound once."""
        if depth > 8:
            return
        if isinstance(value, ast.Dict):
            yield value
        elif isinstance(value, (ast.Tuple, ast.List)):
            for element in value.elts:
                yield from self._outputs(element, ctx, depth + 1)
        elif isinstance(value, ast.Name):
            assigned = ctx.values.assigned_values(value.id)
            if len(assigned) == 1 and isinstance(assigned[0], (ast.Tuple, ast.List, ast.Dict)):
                yield from self._outputs(assigned[0], ctx, depth + 1)
            else:
                yield value
        else:
            yield value

    def _function_like(self, node: ast.expr, ctx: FunctionContext, depth: int = 0) -> str | None:
        """What kind of function the expression certainly is, or None."""
        values = ctx.values
        if isinstance(node, ast.Lambda):
            return "a lambda"
        if isinstance(node, ast.Name):
            name = node.id
            assigned = values.assigned_values(name)
            if depth < 8 and len(assigned) == 1:
                return self._function_like(assigned[0], ctx, depth + 1)  # f = getattr(x, "abs")
            if name in values.local_names:
                # Bound once, by a nested def (not a parameter, loop variable or assignment).
                nested = [
                    child
                    for child in ctx.module.body_nodes(ctx.function.node)
                    if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and child.name == name
                ]
                if (
                    values.bound.get(name) == [None]
                    and len(nested) == 1
                    and name not in values.parameter_names
                ):
                    return "the nested function " + name
                return None
            if name in ctx.module.functions:
                return "the function " + name
        if isinstance(node, ast.Attribute) and ctx.is_self(node.value):
            return self._self_attribute_kind(node.attr, ctx)
        if (method := _attribute_read(node, ctx)) is not None:
            receiver, attr = method
            if is_tensor_method(attr) and ctx.kinds.is_tensor(receiver):
                return f"the tensor method {ast.unparse(receiver)}.{attr}"
        qualified = ctx.qualify(node)
        if qualified is None:
            return None
        if is_tensor_function(qualified):
            return "the function " + qualified.removeprefix(MINDSPORE)
        found = ctx.model.project.resolve(qualified)
        if found is not None and found[1] in found[0].functions:
            return "the function " + found[1]
        return None

    def _self_attribute_kind(self, attr: str, ctx: FunctionContext) -> str | None:
        cell = ctx.function.target.cell or ctx.owner
        if cell is None:
            return None
        if any(attr in c.self_assignments for c in ctx.model.mro(cell)):
            built = held_call_names(ctx, attr)
            if not built or None in built:
                return None
            sub = held_class(ctx, attr)
            if sub is not None and ctx.model.is_cell(sub):
                return f"the Cell self.{attr}"
            if all(is_layer_or_primitive(name) for name in built):
                return f"the Cell or primitive self.{attr}"
            return None
        located = ctx.model.find_method(cell, attr)
        if located is None:
            return None
        _, method = located
        if any(not _is_static_or_class(d) for d in method.decorator_list):
            return None  # a property (or another decorator) returns a value
        return f"the method self.{attr}"


# ----- small helpers -------------------------------------------------------------------------


def _attribute_read(node: ast.expr, ctx: FunctionContext) -> tuple[ast.expr, str] | None:
    """(receiver, name) of ``x.abs`` or ``getattr(x, "abs")`` (a constant name, no default)."""
    if isinstance(node, ast.Attribute):
        return node.value, node.attr
    if (isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords
            and ctx.qualify(node.func) == "builtins.getattr"
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
        return node.args[0], node.args[1].value
    return None


def _is_static_or_class(decorator: ast.expr) -> bool:
    return isinstance(decorator, ast.Name) and decorator.id in ("staticmethod", "classmethod")


def _union_parts(node: ast.expr) -> list[ast.expr]:
    """`int | float | None` -> [int, float, None], without recursion (a long union is valid)."""
    parts: list[ast.expr] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, ast.BinOp) and isinstance(current.op, ast.BitOr):
            pending.extend((current.right, current.left))
        else:
            parts.append(current)
    return parts


def _constant_instead(value: object) -> str:
    if value is None:
        return "type(None)"
    if isinstance(value, str):
        return "the class itself, not its name"
    return ISINSTANCE_INSTEAD


def _is_none(value: ast.expr | None) -> bool:
    return value is None or (isinstance(value, ast.Constant) and value.value is None)


def _variable_test_above(node: ast.AST, parents: dict, function: ast.AST, ctx: FunctionContext):
    """The test of the nearest enclosing ``if``/``while`` whose test flows from the inputs."""
    current = parents.get(id(node))
    while current is not None and current is not function:
        if isinstance(current, NESTED_SCOPES):
            return None  # a nested definition: not this graph's raise
        if isinstance(current, (ast.If, ast.While)) and ctx.is_variable(current.test):
            return current.test
        current = parents.get(id(current))
    return None


def _evaluated_by_call(node: ast.AST, function: ast.AST, parents: dict[int, ast.AST],
                       caller, edge, ctx: FunctionContext) -> bool:
    """Whether the compiled call ``edge`` of a host-evaluated helper certainly evaluates
    ``node``: every test on the way up to the helper is decided, for the arguments this call
    passes, the way that runs it."""
    passed = dict(bind_arguments(edge.call, edge.node, edge.binds_self))
    defaults = parameter_defaults(function)
    child, parent = node, parents.get(id(node))
    while parent is not None and parent is not function:
        if isinstance(parent, MAY_SKIP):
            return False
        if parent.__class__ is ast.BoolOp:
            needed = isinstance(parent.op, ast.And)  # the operands before must not short-cut
            for earlier in parent.values[: parent.values.index(child)]:
                if _truth(earlier, passed, defaults, caller, ctx) is not needed:
                    return False
        elif parent.__class__ in (ast.If, ast.IfExp) and child is not parent.test:
            inside = child in parent.body if parent.__class__ is ast.If else child is parent.body
            if _truth(parent.test, passed, defaults, caller, ctx) is not inside:
                return False
        child, parent = parent, parents.get(id(parent))
    return parent is function


def _truth(test: ast.expr, passed: dict[str, ast.expr], defaults: dict[str, ast.expr], caller,
           ctx: FunctionContext) -> bool | None:
    """The value of a helper's test for one call, where the call decides it: ``p is None`` and
    ``p is not None`` (a tensor or a literal passed, or the default), and ``not`` of those."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, passed, defaults, caller, ctx)
        return None if inner is None else not inner
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Is, ast.IsNot)) and isinstance(test.left, ast.Name)
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
        return None
    name = test.left.id
    if name in passed:
        argument = passed[name]
        if isinstance(argument, ast.Constant):
            is_none = argument.value is None
        elif kinds_of(ctx.model, caller).is_tensor(argument):
            # a variable tensor; releases before 2.9 hand it to the helper as None
            is_none = not constexpr_gets_tensors(release(ctx.engine.target_version))
        else:
            return None
    elif isinstance(default := defaults.get(name), ast.Constant):
        is_none = default.value is None
    else:
        return None
    return is_none if isinstance(test.ops[0], ast.Is) else not is_none


# ----- HyperMap and Map over sequences; max() and min() of nested tensors -------------------

Shape = tuple[str, int, tuple | None]  # mapped_shape's answer; elements are values or nodes


def _mapper(func: ast.expr, ctx: FunctionContext) -> tuple[str, bool] | None:
    """("HyperMap" or "Map", whether the call's first argument is the function mapped) when
    ``func`` is an instance of one every construction of which the code shows: built in the call,
    in a local or module name, or in ``self.<attr>`` outside compiled code."""
    if func.__class__ is ast.Call:
        built = [(ctx.module, func)]
    elif func.__class__ is ast.Attribute and ctx.is_self(func.value):
        built = attribute_assignments(ctx).get(func.attr, [])
    elif func.__class__ is ast.Name and func.id in ctx.values.bound:
        built = [(ctx.module, v) for v in ctx.values.assigned_values(func.id)]
    elif func.__class__ is ast.Name and func.id in ctx.module.assignments:
        built = [(ctx.module, v) for v in ctx.module.assignments[func.id]]
    elif func.__class__ is ast.Name and (found := ctx.model.project.resolve(ctx.qualify(func) or "")):
        module, name = found  # imported from another module of the project
        built = [(module, v) for v in module.assignments.get(name, [])]
    else:
        return None
    found = set()
    for module, value in built:
        if value.__class__ is not ast.Call:
            return None
        name = SEQUENCE_MAPPERS.get(module.imports.qualify(value.func) or "")
        if name is None or any(k.arg is None for k in value.keywords):
            return None
        found.add((name, not value.args and not any(k.arg == "ops" for k in value.keywords)))
    return found.pop() if len(found) == 1 else None


def _shape(item, ctx: FunctionContext) -> Shape | None:
    """What HyperMap sees of an argument or element: a tuple or list display with its elements
    kept as written (each then asked on its own); else the compile-time value's shape where the
    interpreter, which follows the statements, knows it; only then what the syntax alone says (a
    local every binding of which is one tuple display, a tensor as the engine knows it); None
    where not known."""
    if not isinstance(item, ast.AST):
        return mapped_shape(item)
    if item.__class__ in (ast.Tuple, ast.List) and not any(e.__class__ is ast.Starred for e in item.elts):
        return ("tuple" if item.__class__ is ast.Tuple else "list"), len(item.elts), tuple(item.elts)
    found = mapped_shape(ctx.evaluation.value(item))
    if found is not None:
        return found
    if item.__class__ is ast.Constant and item.value.__class__ in (int, float, bool):
        return "scalar", 0, None
    if item.__class__ is ast.Dict and all(k.__class__ is ast.Constant for k in item.keys):
        return "dict", len({k.value for k in item.keys}), None
    if item.__class__ is ast.Name:
        values = ctx.values.assigned_values(item.id)
        if len(values) == 1 and values[0].__class__ is ast.Tuple:
            return _shape(values[0], ctx)
    return ("tensor", 0, None) if ctx.kinds.is_tensor(item) else None


def _mapped_mismatch(mapper: str, arguments: list[ast.expr], ctx: FunctionContext, depth: int = 0) -> str | None:
    """What makes HyperMap or Map refuse its sequences: two of different kinds (a tensor beside a
    sequence, for Map), two of different lengths; HyperMap also within nested sequences. Only
    from what is known: an argument not known is left out (whatever it is, two known ones that
    disagree are refused)."""
    if depth > 4 or any(a.__class__ is ast.Starred for a in arguments):
        return None
    shapes = [s for s in (_shape(a, ctx) for a in arguments) if s is not None]
    containers = [s for s in shapes if s[0] in ("tuple", "list", "dict")]
    if not containers:
        return None
    where = " (nested)" if depth else ""
    kinds = sorted({s[0] for s in containers} | ({"tensor"} if mapper == "Map" and any(
        s[0] == "tensor" for s in shapes) else set()))
    if len(kinds) > 1:
        return f"a {kinds[0]} and a {kinds[1]}{where}"
    lengths = sorted({s[1] for s in containers})
    if len(lengths) > 1:
        return f"{kinds[0]}s of {lengths[0]} and {lengths[-1]} elements{where}"
    if mapper == "Map" or kinds[0] == "dict" or any(s[2] is None for s in containers):
        return None
    for column in zip(*(s[2] for s in containers)):
        found = _mapped_mismatch(mapper, list(column), ctx, depth + 1)
        if found is not None:
            return found
    return None


def _nests_tensors(sequence: ast.expr, ctx: FunctionContext) -> bool:
    """A tuple or list none of whose elements is a tensor, one of which holds a tensor
    (max(((a,), (b,)))): MindSpore's max() and min() take tensors only as elements."""
    shape = _shape(sequence, ctx)
    if shape is None or shape[0] not in ("tuple", "list") or shape[2] is None:
        return False
    inner = [_shape(e, ctx) for e in shape[2]]
    if any(s is None or s[0] == "tensor" for s in inner):
        return False  # an element that is (or may be) a tensor: another path
    return any(_holds_tensor(s, ctx) for s in inner)


def _holds_tensor(shape: Shape, ctx: FunctionContext, depth: int = 0) -> bool:
    if shape[0] == "tensor":
        return True
    if shape[0] not in ("tuple", "list") or shape[2] is None or depth > 4:
        return False
    return any((s := _shape(e, ctx)) is not None and _holds_tensor(s, ctx, depth + 1) for e in shape[2])
