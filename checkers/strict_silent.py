"""Code that compiles without a word but does not do what the Python says.

The family reports a dict returned from construct, a module-level list changed in compiled
code, which is a compile-time copy: `append`, `clear`, item assignment and `+=` under one rule,
`extend`, `insert`, `pop` and `reverse` under another (global-list-mutation-at-strict), because the
compiler treats the two groups differently; the three in-place methods the graph lacks on a
container built in the function (`sort`, `remove`, `setdefault`), which LAX compiles to
nothing; and `pop` on a list of constants, which COMPATIBLE and LAX fold into one list that every
call pops from. What the compiler does at each level, and so which changes are lost where, is in
msgraphlint/knowledge/rules/strict_silent.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.model.containers import built_here, holds_literal_list, module_lists
from msgraphlint.values.domain import is_known
from msgraphlint.values.kinds import Kind, literal_kind, value_kind

DICT_RETURN_INSTEAD = "return a tuple"
NONE_OUTPUT_INSTEAD = "return only the tensors, or a placeholder tensor"
# What an output element must be known to be for STRICT to drop a None beside it: a tensor, or a
# graph input (a tensor or tuple of them, never a Python constant that would fold the output).
OUTPUT_TENSOR_KINDS = frozenset({Kind.TENSOR, Kind.INPUT})
GLOBAL_LIST_INSTEAD = "return the value and collect it in the caller"
LOST_AT_EVERY_LEVEL = frozenset({"append", "clear"})
LOST_AT_STRICT = frozenset({"extend", "insert", "pop", "reverse"})
# In-place methods the graph does not implement: rejected at STRICT/COMPATIBLE, nothing at LAX
# (seen with 2.10), with what does the same and compiles everywhere.
IGNORED_IN_PLACE = {"sort": "list", "remove": "list", "setdefault": "dict"}


class StrictSilentFamily(Family):
    name = "strict-silent"

    # return {"a": x} from construct
    def visit_Return(self, node: ast.Return, ctx: FunctionContext) -> None:
        if node.value is None or not ctx.returns_to_python(node):
            return
        if self._holds_dict(node.value, ctx):
            ctx.report("dict-return-at-strict", node, DICT_RETURN_INSTEAD)
        self._check_none_beside_tensors(node, ctx)

    # return x, None
    def _check_none_beside_tensors(self, node: ast.Return, ctx: FunctionContext) -> None:
        if ctx.cell is not None and not self._built_only_by_python(ctx):
            return
        match node.value:
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                pass
            case ast.Dict(keys=keys, values=elements) if None not in keys:  # no **spread
                pass
            case _:
                return
        if any(isinstance(element, ast.Starred) for element in elements):
            return
        nones = [i for i, element in enumerate(elements) if self._is_none(element, ctx)]
        tensors = [i for i, element in enumerate(elements) if self._holds_graph_value(element, ctx)]
        if not (nones and tensors):
            return
        case = "broken" if nones[0] < tensors[-1] else ""
        ctx.report("none-in-output-at-strict", node, ast.unparse(node.value), NONE_OUTPUT_INSTEAD,
                   case=case)

    @staticmethod
    def _built_only_by_python(ctx: FunctionContext) -> bool:
        """A Cell nothing else in the project uses, or one only plain Python builds (a test
        body, main()): its output goes back to Python. A Cell the project exports or uses
        otherwise is most often another Cell's layer, whose output stays in its parent's graph."""
        if ctx.model.holders(ctx.cell) == []:
            return True
        built = ctx.model.constructor_calls(ctx.cell)
        return bool(built) and all(construction.function is not None for construction in built)

    @staticmethod
    def _is_none(element: ast.expr, ctx: FunctionContext) -> bool:
        """A literal None, a local name every binding of which is one, or what the interpreter
        knows is None (a module constant). A parameter's None default is not its value: the
        callers may pass tensors (mindsponge's integrators get pbc_box)."""
        parameters = {arg.arg for arg in ast.walk(ctx.function.node.args) if isinstance(arg, ast.arg)}
        if isinstance(element, ast.Name) and element.id not in parameters:
            bound = ctx.values.bound.get(element.id, [])
            # (None in `bound` is a binding by unpacking, a loop or augmented assignment.)
            if bound and all(isinstance(value, ast.Constant) and value.value is None
                             for value in bound):
                return True
        value = ctx.evaluation.value(element)
        return literal_kind(element) == Kind.NONE or (is_known(value) and value.value is None)

    @staticmethod
    def _holds_graph_value(element: ast.expr, ctx: FunctionContext) -> bool:
        # A parameter the callers pass a constant is folded with the output: not one (value_kind
        # gives the interpreter's constants their own kinds).
        return value_kind(element, ctx.kinds, True) in OUTPUT_TENSOR_KINDS

    def _holds_dict(self, value: ast.expr, ctx: FunctionContext) -> bool:
        match value:
            case ast.Dict() | ast.DictComp():
                return True
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                return any(self._holds_dict(element, ctx) for element in elements)
            case ast.Name(id=name):
                # None in `bound` stands for a loop, unpacking or augmented binding: not a dict
                bound = ctx.values.bound.get(name, [])
                return bool(bound) and all(
                    isinstance(v, (ast.Dict, ast.DictComp)) for v in bound
                )
        # dict(a=x) with a tensor is a host call (rejected at STRICT), not this rule.
        return False

    # EVENTS.append(x) on a module-level list; scales.sort() on a local one
    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return
        if func.attr in IGNORED_IN_PLACE:
            self._check_in_place(node, func, ctx)
        elif func.attr == "pop":
            self._check_constant_pop(node, func, ctx)
        if not self._is_module_list(func.value.id, ctx):
            return
        spelled = ast.unparse(func)
        if func.attr in LOST_AT_EVERY_LEVEL:
            ctx.report("global-list-mutation", node, spelled, func.value.id, GLOBAL_LIST_INSTEAD)
        elif func.attr in LOST_AT_STRICT:
            ctx.report(
                "global-list-mutation-at-strict", node, spelled, func.value.id, GLOBAL_LIST_INSTEAD
            )

    # EVENTS[0] = x, EVENTS[0] += x, `global EVENTS; EVENTS += [x]`
    def visit_Assign(self, node: ast.Assign, ctx: FunctionContext) -> None:
        for target in node.targets:
            self._check_item_assignment(target, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: FunctionContext) -> None:
        target = node.target
        if isinstance(target, ast.Name) and self._is_module_list(target.id, ctx):
            ctx.report(
                "global-list-mutation", node, ast.unparse(node), target.id, GLOBAL_LIST_INSTEAD
            )
        else:
            self._check_item_assignment(target, ctx)

    def _check_item_assignment(self, target: ast.expr, ctx: FunctionContext) -> None:
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and self._is_module_list(target.value.id, ctx)
        ):
            ctx.report("global-list-mutation", target, ast.unparse(target), target.value.id,
                       GLOBAL_LIST_INSTEAD)

    def _check_in_place(self, node: ast.Call, func: ast.Attribute, ctx: FunctionContext) -> None:
        name = func.value.id
        kind = IGNORED_IN_PLACE[func.attr]
        if _rejected_instead(node, func, ctx):
            return
        values = built_here(ctx.values, ctx.module, name, kind)
        if values is None:
            return
        if func.attr == "remove" and any(
                ctx.is_variable(part) for part in [*values, *node.args]):
            return  # finding a tensor compares tensors: LAX rejects that instead
        instead = _rebinding(node, name)
        if func.attr == "setdefault" and not isinstance(ctx.values.parent(node), ast.Expr):
            instead += f", then `{name}[key]`"  # the value setdefault gave back
        ctx.report("in-place-method-ignored", node, ast.unparse(node), name, instead)

    def _check_constant_pop(self, node: ast.Call, func: ast.Attribute, ctx: FunctionContext) -> None:
        """`s.pop(i)` where s only ever holds literals (its displays, comprehensions over literals,
        and what is appended to it): COMPATIBLE and LAX fold it into one list that every call
        pops from. A list that takes any other value is built at each call (seen with 2.10:
        tensors, `list(x.shape)`), or not known here."""
        name = func.value.id
        if not holds_literal_list(ctx.values, ctx.module, ctx.function.node, name):
            return
        ctx.report("constant-list-pop", node, ast.unparse(node), name, _without_popped(node, name))

    def _is_module_list(self, name: str, ctx: FunctionContext) -> bool:
        """A name that refers, in this function, to a list bound at module level."""
        module = ctx.module
        if name not in module_lists(module):
            return False
        values = ctx.values
        return name not in values.local_names or name in values.global_names


def _rejected_instead(node: ast.Call, func: ast.Attribute, ctx: FunctionContext) -> bool:
    """Spellings LAX rejects rather than ignores (seen with 2.10), whose consequence this rule's
    message would misstate: ``d.setdefault(k, []).append(v)`` (an in-place call on the result:
    "Only supported augassign to attribute of self, variable and index value") and
    ``l.sort(key=<a def>)`` (NameError on the nested function); ``sort()`` and
    ``sort(key=lambda ...)`` are ignored."""
    if func.attr == "setdefault" and isinstance(ctx.values.parent(node), ast.Attribute):
        return True
    return func.attr == "sort" and any(
        keyword.arg == "key" and not isinstance(keyword.value, ast.Lambda)
        and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
        for keyword in node.keywords)


def _rebinding(call: ast.Call, name: str) -> str:
    """The statement that does what the in-place call means, and compiles at every level."""
    arguments = [ast.unparse(a) for a in call.args]
    method = call.func.attr  # type: ignore[attr-defined]
    if method == "sort":
        given = "".join(f", {ast.unparse(k)}" for k in call.keywords)
        return f"`{name} = sorted({name}{given})`"
    if method == "remove" and len(arguments) == 1:
        # not pop(index(v)): a list of constants is popped again at every call (constant-list-pop)
        return f"`i = {name}.index({arguments[0]}); {name} = {name}[:i] + {name}[i + 1:]`"
    if method == "setdefault" and len(arguments) == 2:
        key, value = arguments
        return f"`if {key} not in {name}: {name}[{key}] = {value}`"
    return "a new container built from it"


def _without_popped(call: ast.Call, name: str) -> str:
    """The slice that builds the list without the element ``call`` pops."""
    if not call.args:
        return f"`{name} = {name}[:-1]` (read `{name}[-1]` first if the value is needed)"
    index = call.args[0]
    spelled = ast.unparse(index)
    try:
        number = ast.literal_eval(index)
    except ValueError:
        number = None
    if number == -1:
        rebuilt = f"{name}[:-1]"  # s[:i] + s[i + 1:] would keep everything for -1
    elif isinstance(number, int):
        rebuilt = f"{name}[:{number}] + {name}[{number + 1}:]"
    else:
        rebuilt = f"{name}[:{spelled}] + {name}[{spelled} + 1:]"
    return f"`{name} = {rebuilt}` (read `{name}[{spelled}]` first if the value is needed)"
