"""Data flow through compiled code: names bound on some paths only, and branches that cannot join.

MindSpore builds a compiled function's graph while it parses it, one basic block at a time. A name
read after an ``if`` must be bound in both branches (a branch that returns, raises, breaks or
continues does not count), and a name bound in a ``for``/``while`` body never leaves the loop: the
parser does not unroll loops for this, whatever the trip count. It folds an ``if`` only when the
test is built from one-level ``self`` attributes and local names holding literals (``if
self.use_bias:``, ``if self.mode == "a":``); ``if True:``, module constants, ``self.cfg.flag``,
``isinstance``, ``len``, shapes and parameters are not folded there, so names bound under them
must be bound on every path.

Later, type inference joins the values of the two branches of an ``if`` whose test is a tensor
(every other test is known by then and folded): a tensor with a Python scalar, a tuple or a list,
and None with a value. What the compiler does at each level is in msgraphlint/knowledge/rules/data_flow.toml.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.model.branches import may_fold_while_parsing, self_attribute_values
from msgraphlint.values.domain import is_tensor_value
from msgraphlint.values.kinds import (
    Kind, is_input, is_tensor_condition, join_kinds, literal_kind, value_kind,
)
from msgraphlint.model.variables import FunctionValues

# Statements the graph parser rejects (the syntax family reports them): names bound inside count
# as bound, and nothing inside is checked, so one mistake gives one finding.
OPAQUE_STATEMENTS = tuple(
    getattr(ast, name)
    for name in ("Try", "TryStar", "Match", "Delete", "AsyncFor", "AsyncWith")
    if hasattr(ast, name)
)
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

# Kinds of values the compiler joins. INPUT is a graph input of unknown structure (a tensor or a
# tuple of them): known not to be None, nothing more.
KIND_WORDS = {
    Kind.TENSOR: "a tensor", Kind.INT: "an int", Kind.FLOAT: "a float", Kind.BOOL: "a bool",
    Kind.STR: "a string", Kind.NONE: "None", Kind.TUPLE: "a tuple", Kind.LIST: "a list",
    Kind.INPUT: "a graph input",
}
# Python literal kinds: each fails to join with a tensor or a graph input at every level (probed
# with MindSpore 2.10). Two different literal types are not reported: a construct returning them is
# rejected, but LAX accepts them from a helper used in arithmetic, and every level accepts them
# assigned to a variable (int then float).
SCALAR_KINDS = frozenset({Kind.INT, Kind.FLOAT, Kind.BOOL, Kind.STR})
TENSOR_KINDS = frozenset({Kind.TENSOR, Kind.INPUT})
# A tensor fails to join with a tuple or list (an input may be either: not reported), and a tuple
# with a list (probed with 2.10 at STRICT and LAX: "Type Join Failed: Abstract type AbstractTuple
# cannot join with AbstractList").
TENSOR_CLASHES = frozenset({Kind.TUPLE, Kind.LIST})
# Kinds that STRICT cannot join with None (COMPATIBLE and LAX turn the join into a host value).
NONE_JOINABLE = frozenset({Kind.TENSOR, Kind.INT, Kind.FLOAT, Kind.BOOL, Kind.STR, Kind.TUPLE, Kind.INPUT})


def join_problem(first: Kind, second: Kind) -> str | None:
    """The rule two known kinds break when an if on a tensor joins them; None if they join."""
    if first == second or Kind.UNKNOWN in (first, second):
        return None
    pair = {first, second}
    if Kind.NONE in pair:
        return "branch-none-join" if (pair - {Kind.NONE}) <= NONE_JOINABLE else None
    if pair & SCALAR_KINDS and pair & TENSOR_KINDS:
        return "branch-type-mismatch"
    if Kind.TENSOR in pair and pair & TENSOR_CLASHES:
        return "branch-type-mismatch"
    if pair == TENSOR_CLASHES:
        return "branch-type-mismatch"  # a tuple and a list: "AbstractTuple cannot join with AbstractList"
    return None


def report_join_problem(ctx: FunctionContext, rule: str, node: ast.AST, what: str, line: int,
                        first: Kind, second: Kind) -> None:
    """Report two kinds an if on a tensor cannot join: branch-none-join names the kind that is
    not None, the other rules both kinds."""
    if rule == "branch-none-join":
        other = second if first == Kind.NONE else first
        ctx.report(rule, node, what, KIND_WORDS[other], line)
    else:
        ctx.report(rule, node, what, KIND_WORDS[first], KIND_WORDS[second], line)


# ----- names bound on some paths only --------------------------------------------------------


@dataclass
class State:
    """What is known at one point of a path: names bound on every path (with the kind of value
    they hold, joined where paths meet), names bound on some paths only (with where), and names
    whose value comes from a join of kinds that cannot be joined (with the if)."""

    bound: dict[str, Kind] = field(default_factory=dict)
    partial: dict[str, str] = field(default_factory=dict)
    clashes: dict[str, tuple[str, ast.AST, str, str]] = field(default_factory=dict)

    def copy(self) -> "State":
        return State(dict(self.bound), dict(self.partial), dict(self.clashes))

    def bind(self, name: str, kind: Kind) -> None:
        self.bound[name] = kind
        self.partial.pop(name, None)
        self.clashes.pop(name, None)


class FunctionFlow:
    """Walks one compiled function's statements in execution order and reports uses of names
    that are not bound on every path, and of values joined from kinds that cannot join."""

    def __init__(self, fv: FunctionValues, ctx: FunctionContext):
        self.fv = fv
        self.ctx = ctx
        self.excluded = set(fv.global_names)
        self.reported: set[tuple] = set()
        self.roots = ctx.function.is_root
        self.attribute_values = self_attribute_values(ctx.model, ctx.function)

    # statements

    def block(self, statements: list[ast.stmt], state: State | None) -> State | None:
        for statement in statements:
            if state is None:
                return None  # the rest is unreachable
            state = self.statement(statement, state)
        return state

    def statement(self, node: ast.stmt, state: State) -> State | None:
        match node:
            case ast.Expr(value=value):
                self.uses(value, state)
            case ast.Assign(targets=targets, value=value):
                self.uses(value, state)
                kind = self.kind(value, state)
                for target in targets:
                    self.bind(target, state, kind)
            case ast.AugAssign(target=target, value=value):
                self.uses(target, state, load_target=True)
                self.uses(value, state)
                self.bind(target, state, Kind.UNKNOWN)
            case ast.AnnAssign(target=target, value=value):
                if value is not None:
                    self.uses(value, state)
                    self.bind(target, state, self.kind(value, state))
            case ast.If(test=test, body=body, orelse=orelse):
                self.uses(test, state)
                return self.branch(node, self.block(body, state.copy()), self.block(orelse, state.copy()))
            case ast.For(target=target, iter=iterable, body=body, orelse=orelse):
                self.uses(iterable, state)
                inside = self.loop_entry(node, "for", body, state)
                self.bind(target, inside, Kind.UNKNOWN)
                self.block(body, inside)
                return self.after_loop(node, "for", [target, *body], self.block(orelse, state))
            case ast.While(test=test, body=body, orelse=orelse):
                self.uses(test, state)
                self.block(body, self.loop_entry(node, "while", body, state))
                return self.after_loop(node, "while", body, self.block(orelse, state))
            case ast.Return(value=value):
                self.uses(value, state)
                return None
            case ast.Raise(exc=exc, cause=cause):
                self.uses(exc, state)
                self.uses(cause, state)
                return None
            case ast.Break() | ast.Continue():
                return None
            case ast.With(items=items, body=body):
                for item in items:
                    self.uses(item.context_expr, state)
                    if item.optional_vars is not None:
                        self.bind(item.optional_vars, state, Kind.UNKNOWN)
                return self.block(body, state)
            case ast.Assert(test=test, msg=msg):
                self.uses(test, state)
                self.uses(msg, state)
            case ast.Global(names=names) | ast.Nonlocal(names=names):
                self.excluded.update(names)
            case ast.Import(names=aliases) | ast.ImportFrom(names=aliases):
                for alias in aliases:
                    state.bind((alias.asname or alias.name).split(".")[0], Kind.UNKNOWN)
            case ast.FunctionDef() | ast.AsyncFunctionDef():
                for expression in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
                    self.uses(expression, state)
                # The parser resolves a nested function's free names where it is defined (probed:
                # even if it is never called).
                for read in free_reads(node):
                    self.check_use(read, state)
                state.bind(node.name, Kind.UNKNOWN)
            case ast.ClassDef(name=name):
                state.bind(name, Kind.UNKNOWN)
            case _ if isinstance(node, OPAQUE_STATEMENTS):
                for name in stored_names(node):
                    state.bind(name, Kind.UNKNOWN)
        return state

    def branch(self, node: ast.If, body: State | None, orelse: State | None) -> State | None:
        """The state after an if: names bound in one branch only become partial, unless the
        parser may fold the test (then only one branch exists, and which one is not known)."""
        if body is None or orelse is None:
            return orelse if body is None else body
        folded = may_fold_while_parsing(node.test, self.fv, self.attribute_values,
                                        not self.ctx.function.self_passed)
        tensor_test = not folded and is_tensor_condition(node.test, self.ctx.kinds)
        joined = State(
            partial={**orelse.partial, **body.partial},
            clashes={**orelse.clashes, **body.clashes},
        )
        for name in body.bound.keys() | orelse.bound.keys():
            if name in body.bound and name in orelse.bound:
                first, second = body.bound[name], orelse.bound[name]
                joined.bound[name] = join_kinds([first, second]) or Kind.UNKNOWN
                joined.partial.pop(name, None)
                if tensor_test and (rule := join_problem(first, second)):
                    joined.clashes[name] = (rule, node, first, second)
            elif folded:
                joined.bound[name] = body.bound.get(name) or orelse.bound[name]
                joined.partial.pop(name, None)
            elif name not in joined.partial:
                side = "true" if name in body.bound else "false"
                joined.partial[name] = f"when the if at line {node.lineno} is {side}"
        return joined

    def loop_entry(self, node: ast.AST, keyword: str, body: list[ast.stmt], state: State) -> State:
        """The state at the top of a loop body: what was bound before the loop. A name bound
        later in the body is not there yet, even on a later iteration (probed: NameError)."""
        inside = state.copy()
        for name in stored_names(*body):
            if name not in inside.bound and name not in inside.partial:
                inside.partial[name] = f"later in the body of the {keyword} loop at line {node.lineno}"
        return inside

    def after_loop(self, node: ast.AST, keyword: str, body: list[ast.AST], state: State | None):
        """A name bound in a loop body never leaves the loop (probed: constant trip counts,
        CellLists and `while True` included); names bound before it keep being bound."""
        if state is None:
            return None
        for name in stored_names(*body):
            if name in state.bound:
                state.bound[name] = Kind.UNKNOWN  # what a later round binds: not known
            elif name not in state.partial and name not in self.excluded:
                state.partial[name] = f"inside the {keyword} loop at line {node.lineno}"
        return state

    # expressions

    def uses(self, node: ast.AST | None, state: State, load_target: bool = False) -> None:
        """Check every name the expression reads; lambda bodies run later and are skipped."""
        if node is None:
            return
        pending: list[tuple[ast.AST, frozenset[str]]] = [(node, frozenset())]
        walrus: list[str] = []
        while pending:
            current, shadowed = pending.pop()
            if isinstance(current, ast.Name):
                if (isinstance(current.ctx, ast.Load) or load_target) and current.id not in shadowed:
                    self.check_use(current, state)
                continue
            if isinstance(current, ast.Lambda):
                # Defaults are read here; the body's free names are resolved here too (probed).
                pending.extend((d, shadowed) for d in [*current.args.defaults, *current.args.kw_defaults] if d)
                for read in free_reads(current):
                    if read.id not in shadowed:
                        self.check_use(read, state)
                continue
            if isinstance(current, COMPREHENSIONS):
                # The first iterable is read outside; the loop targets are local to the rest.
                targets = frozenset(n for g in current.generators for n in stored_names(g.target))
                first, *others = current.generators
                pending.append((first.iter, shadowed))
                inner = shadowed | targets
                parts = [*(g.iter for g in others), *(c for g in current.generators for c in g.ifs)]
                if isinstance(current, ast.DictComp):
                    parts += [current.key, current.value]
                else:
                    parts.append(current.elt)
                pending.extend((part, inner) for part in parts)
                continue
            if isinstance(current, ast.IfExp):
                self.check_conditional(current, state)
            if isinstance(current, ast.NamedExpr):
                walrus.append(current.target.id)
            pending.extend((child, shadowed) for child in ast.iter_child_nodes(current))
        # `if (m := value):` binds m on every path from the test on, whichever branch runs.
        for name in walrus:
            state.bind(name, Kind.UNKNOWN)

    def check_use(self, node: ast.Name, state: State) -> None:
        name = node.id
        if name in self.excluded:
            return
        if name in state.bound:
            if name in state.clashes and ("join", name) not in self.reported:
                self.reported.add(("join", name))
                rule, branch, first, second = state.clashes[name]
                self.report_join(rule, node, f"'{name}'", branch.lineno, first, second)
            return
        # Every read is reported, not only the first: the parser stops at the first one it meets,
        # and rejects the next one once that is fixed (probed: normlization.py's second read of
        # norm_axis, after the first read was bound).
        if name in state.partial and ("unbound", id(node)) not in self.reported:
            self.reported.add(("unbound", id(node)))
            where = state.partial[name]
            fix = "bind it before the loop" if "loop" in where else "bind it on every path before the if"
            self.ctx.report("conditionally-bound-name", node, name, where, fix)

    def check_conditional(self, node: ast.IfExp, state: State) -> None:
        """`a if tensor_test else b`: joined like an if."""
        if not is_tensor_condition(node.test, self.ctx.kinds):
            return
        first, second = self.kind(node.body, state), self.kind(node.orelse, state)
        if rule := join_problem(first, second):
            self.report_join(rule, node, "this conditional expression", node.lineno, first, second)

    def report_join(self, rule: str, node: ast.AST, what: str, line: int, first: Kind, second: Kind):
        key = (rule, id(node))
        if key in self.reported:
            return
        self.reported.add(key)
        report_join_problem(self.ctx, rule, node, what, line, first, second)

    def kind(self, node: ast.expr | None, state: State) -> Kind:
        if isinstance(node, ast.Name) and node.id in state.bound:
            return state.bound[node.id]
        return value_kind(node, self.ctx.kinds, self.roots)

    def bind(self, target: ast.expr, state: State, kind: Kind) -> None:
        if isinstance(target, ast.Name):
            if target.id not in self.excluded:
                state.bind(target.id, kind)
            return
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            self.uses(target, state, load_target=True)  # x[0] = v and x.a = v read x
            return
        for name in stored_names(target):
            if name not in self.excluded:
                state.bind(name, Kind.UNKNOWN)


def parameters_state(function: ast.FunctionDef | ast.AsyncFunctionDef, fv: FunctionValues,
                     ctx: FunctionContext) -> State:
    """Parameters are bound on every path; those of a root without a default are graph inputs."""
    state = State()
    args = function.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if arg is not None:
            node = ast.Name(id=arg.arg, ctx=ast.Load())
            state.bind(arg.arg, Kind.INPUT if ctx.function.is_root and is_input(node, fv) else Kind.UNKNOWN)
    return state


def nested_parameters_state(function: ast.FunctionDef | ast.AsyncFunctionDef) -> State:
    """A nested function's parameters are bound on every path; what it reads from the enclosing
    function is not tracked (never reported)."""
    state = State()
    args = function.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if arg is not None:
            state.bind(arg.arg, Kind.UNKNOWN)
    return state


def free_reads(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.Name]:
    """Names a nested function or lambda reads from the enclosing function. Every name bound
    anywhere inside it (parameters, assignments, comprehension and nested-function names) counts
    as its own, which can only hide a read, never invent one."""
    inside = list(ast.walk(function))
    own: set[str] = set()
    for node in inside:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            own.update(arg.arg for arg in every if arg is not None)
            if not isinstance(node, ast.Lambda) and node is not function:
                own.add(node.name)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            own.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            own.update(node.names)
    body = function.body if isinstance(function.body, list) else [function.body]
    return [
        node
        for statement in body
        for node in ast.walk(statement)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in own
    ]


def stored_names(*nodes: ast.AST) -> list[str]:
    """Names bound by these statements or targets, nested definitions' insides excluded."""
    found: list[str] = []
    pending = list(nodes)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.append(node.id)
        elif isinstance(node, DEFINITIONS):
            found.append(node.name)
            continue
        elif isinstance(node, (ast.Lambda, *COMPREHENSIONS)):
            continue
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.append(node.name)
        pending.extend(ast.iter_child_nodes(node))
    return found


# ----- returns that cannot be joined ---------------------------------------------------------


class ReturnJoins:
    """Pairs of return values that an if on a tensor joins: the true path (the branch, then what
    follows the if when the branch falls through) against the false path."""

    def __init__(self, fv: FunctionValues, ctx: FunctionContext):
        self.fv = fv
        self.ctx = ctx
        self.roots = ctx.function.is_root
        self.attribute_values = self_attribute_values(ctx.model, ctx.function)
        self.reported: set[int] = set()

    def run(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        end = ast.Return(value=None, lineno=function.end_lineno or function.lineno)
        self.paths(function.body, [(literal_kind(None), end, False)])

    def paths(self, statements: list[ast.stmt], after: list) -> list:
        """(kind, return node, explicit) for every return reachable from the first statement."""
        found: list = []
        for index, node in enumerate(statements):
            match node:
                case ast.Return(value=value):
                    return found + [(self.kind(value), node, True)]
                case ast.Raise() | ast.Break() | ast.Continue():
                    return found
                case ast.If(test=test, body=body, orelse=orelse):
                    rest = self.paths(statements[index + 1 :], after)
                    true_path, false_path = self.paths(body, rest), self.paths(orelse, rest)
                    folded = may_fold_while_parsing(test, self.fv, self.attribute_values,
                                                    not self.ctx.function.self_passed)
                    if not folded and is_tensor_condition(test, self.ctx.kinds):
                        self.compare(node, true_path, false_path)
                    return found + unique(true_path + false_path)
                case ast.For(body=body) | ast.While(body=body):
                    # A return inside the loop is joined with what follows the loop, which the
                    # body reaches by falling through or by the loop's end (2.10: "Cannot join the
                    # return values of different branches" for `for ...: if t: return 1` then
                    # `return x`, at every level, in an unrolled for and in a while on a tensor).
                    rest = self.paths(statements[index + 1 :], after)
                    return found + unique(self.paths(body, rest) + rest)
                case ast.With(body=body):
                    return found + self.paths(body + statements[index + 1 :], after)
        return found + after

    def compare(self, branch: ast.If, true_path: list, false_path: list) -> None:
        # Returns after the if are reachable from both sides: two of them are not joined by this
        # if (by their own if, which is checked on its own).
        shared = {id(node) for _, node, _ in true_path} & {id(node) for _, node, _ in false_path}
        for first, first_node, first_explicit in true_path:
            for second, second_node, second_explicit in false_path:
                if id(first_node) in shared and id(second_node) in shared:
                    continue
                rule = join_problem(first, second)
                if rule is None:
                    continue
                # Point at an explicit return (falling off the end has no line of its own), the
                # one giving None or a literal when both are explicit.
                odd_first = first in SCALAR_KINDS or first == Kind.NONE
                if not second_explicit or (first_explicit and odd_first):
                    node, kind, other = first_node, first, second
                else:
                    node, kind, other = second_node, second, first
                if id(node) in self.reported:
                    continue
                self.reported.add(id(node))
                report_join_problem(self.ctx, rule, node, "this return", branch.lineno, kind, other)

    def kind(self, value: ast.expr | None) -> Kind:
        found = value_kind(value, self.ctx.kinds, self.roots)
        if (found == Kind.INPUT and value.__class__ is ast.Name and value.id not in self.fv.bound
                and is_tensor_value(self.ctx.evaluation.parameters.get(value.id))):
            return Kind.TENSOR  # an input every Python call passes a tensor (not a tuple)
        return found


def unique(paths: list) -> list:
    seen: set[int] = set()
    return [p for p in paths if not (id(p[1]) in seen or seen.add(id(p[1])))]


class DataFlowFamily(Family):
    name = "data-flow"

    def visit_function(self, function: ast.FunctionDef | ast.AsyncFunctionDef, ctx: FunctionContext):
        module = ctx.module
        if not module.derived("branches", function, lambda f: has_branches(module.body_nodes(f))):
            return  # every finding here needs two paths: straight-line code has one
        values = ctx.values
        FunctionFlow(values, ctx).block(function.body, parameters_state(function, values, ctx))
        ReturnJoins(values, ctx).run(function)
        # A function defined inside and called there is compiled with it: its own paths count.
        nodes = module.body_nodes(function)
        called = {n.func.id for n in nodes if n.__class__ is ast.Call and n.func.__class__ is ast.Name}
        for nested in nodes:
            if isinstance(nested, (ast.FunctionDef, ast.AsyncFunctionDef)) and nested.name in called:
                FunctionFlow(values, ctx).block(nested.body, nested_parameters_state(nested))


# Statements and expressions that make more than one path (or unbind a name).
BRANCHING = frozenset({ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.IfExp, ast.Match,
                       ast.Delete, *([ast.TryStar] if hasattr(ast, "TryStar") else [])})


def has_branches(nodes: list[ast.AST]) -> bool:
    return any(node.__class__ in BRANCHING for node in nodes)
