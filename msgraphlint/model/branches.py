"""Branches that are never compiled (the parser folds them: literals, `self` flags and constructor
literals) or never evaluated (type inference decides them with the literals every compiled
caller passes)."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable

from ..syntax.project import ClassInfo, bound_names
from .attributes import complete_class, mindspore_base_attributes
from .modes import set_from_outside
from .compiled import (
    CallEdge, CompiledFunction, FunctionNode, Literal, bind_arguments, first_parameter, is_static,
    parameter_defaults,
)
from .scope import ProjectModel
from .variables import FunctionValues, function_syntax


def _only_raises(body: list[ast.stmt]) -> bool:
    """A branch whose every path ends in ``raise`` (an error check's body)."""
    return bool(body) and isinstance(body[-1], ast.Raise) and not any(
        isinstance(statement, (ast.Return, ast.Break, ast.Continue)) for statement in body)


class _NotALiteral:
    __slots__ = ()


_NOT_A_LITERAL = _NotALiteral()


def _literal(expr: ast.expr | None) -> Literal | _NotALiteral:
    """The value of a literal argument (``False``, ``"eval"``, ``-1``), else _NOT_A_LITERAL."""
    match expr:
        case ast.Constant(value=value):
            return value
        case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int() | float() as number)) if (
                not isinstance(number, bool)):
            return -number
    return _NOT_A_LITERAL


def passed_constants(callee: FunctionNode, edges: list[CallEdge],
                     forwarded=None) -> dict[str, frozenset]:
    """param -> the literals the calls pass it, for the parameters that every call gives a
    literal or leaves at a literal default (none when any call unpacks *args or **kwargs).
    ``forwarded(edge, argument)``: the literals an argument that is not one holds in its caller
    (a parameter of the caller that its own calls pass literals), or None."""
    if not edges:
        return {}
    args = callee.args
    positional = [*args.posonlyargs, *args.args]
    defaults = parameter_defaults(callee)
    passed: dict[str, set] = {}
    unknown: set[str] = set()
    for edge in edges:
        call = edge.call
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return {}
        bound: dict[str, list[ast.expr]] = {}
        for param, argument in bind_arguments(call, callee, edge.binds_self):
            bound.setdefault(param, []).append(argument)
        for param in [p.arg for p in [*positional, *args.kwonlyargs]]:
            given = bound.get(param)
            value = _literal(given[0] if given and len(given) == 1 else (
                None if given else defaults.get(param)))
            if value is not _NOT_A_LITERAL:
                passed.setdefault(param, set()).add(value)
            elif (forwarded is not None and given and len(given) == 1
                    and (values := forwarded(edge, given[0])) is not None):
                passed.setdefault(param, set()).update(values)
            else:
                unknown.add(param)
    return {param: frozenset(values) for param, values in passed.items() if param not in unknown}


def union_of_constants(first: dict[str, frozenset], second: dict[str, frozenset]) -> dict[str, frozenset]:
    """The literals two sets of paths pass: a parameter known on both, with the values of both.
    A union, not a join: the parser folds a test on each literal (``constant_truth``), which one
    joined value would not allow (``self.act`` is "relu" or "gelu": ``act is None`` is False)."""
    return {param: first[param] | second[param] for param in first.keys() & second.keys()}


COMPARISONS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_,
               ast.IsNot: operator.is_not, ast.Lt: operator.lt, ast.LtE: operator.le,
               ast.Gt: operator.gt, ast.GtE: operator.ge}


def constant_truth(test: ast.expr, known: dict[str, frozenset]) -> bool | None:
    """The truth of an if-test on parameters whose possible literals are ``known``, when every
    combination gives the same; else None."""
    match test:
        case ast.Name(id=name) if name in known:
            truths = {bool(value) for value in known[name]}
            return truths.pop() if len(truths) == 1 else None
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            truth = constant_truth(operand, known)
            return None if truth is None else not truth
        case ast.BoolOp(op=op, values=values):
            truths = [constant_truth(value, known) for value in values]
            decisive = isinstance(op, ast.Or)  # or: one True decides; and: one False
            if decisive in truths:
                return decisive
            return (not decisive) if None not in truths else None
        case ast.Compare(left=left, ops=[op], comparators=[right]) if type(op) in COMPARISONS:
            lefts, rights = _possible(left, known), _possible(right, known)
            if lefts is None or rights is None:
                return None
            try:
                truths = {bool(COMPARISONS[type(op)](a, b)) for a in lefts for b in rights}
            except TypeError:
                return None  # `"a" < 1`: the compiler's error, not a fold
            return truths.pop() if len(truths) == 1 else None
    return None


def construction_truth(model: ProjectModel, cls: ClassInfo, init: FunctionNode,
                       test: ast.expr) -> tuple[bool, tuple[str, ...]] | None:
    """The truth of an if-test of ``cls.__init__`` on its parameters, for every construction of
    ``cls`` the project shows (`if weight_init: self.apply(init)` in a class built with
    ``weight_init=False``), or, where the project shows none (an outermost Cell its users
    build), for the parameters' literal defaults; with the defaults it took (``weight_init=True``:
    none where constructions decided). None when a parameter is rebound in ``__init__``, any
    construction passes something else than a literal, or the test reads anything else."""
    rebound = function_syntax(cls.module, init).bound
    shown = model.constructor_calls(cls) is not None
    defaults = parameter_defaults(init)
    known: dict[str, frozenset] = {}
    assumed: list[str] = []
    for name in sorted({node.id for node in ast.walk(test) if node.__class__ is ast.Name}):
        if name in rebound:
            return None
        if shown:
            passed = model.constructor_arguments(cls, init, ast.Name(id=name))
            literals = [_literal(p.expr) for p in passed] if passed else [_NOT_A_LITERAL]
        elif name in defaults:
            literals = [_literal(defaults[name])]
            assumed.append(f"{name}={ast.unparse(defaults[name])}")
        else:
            literals = [_NOT_A_LITERAL]
        if _NOT_A_LITERAL in literals:
            return None
        known[name] = frozenset(literals)
    truth = constant_truth(test, known)
    return None if truth is None else (truth, tuple(assumed))


def _possible(expr: ast.expr, known: dict[str, frozenset]) -> frozenset | None:
    if isinstance(expr, ast.Name):
        return known.get(expr.id)
    value = _literal(expr)
    return None if value is _NOT_A_LITERAL else frozenset({value})


class Branches:
    """One concern of ReachModel (model/reach.py), whose caches and memo it uses."""

    def dead_nodes(self, compiled: CompiledFunction) -> frozenset[int]:
        """ids of the nodes in branches MindSpore's parser folds away: the body of an ``if``
        whose test is a constant false (the ``else`` of a constant true). Constants here are
        literals and ``self`` attributes that every assignment gives a bool of one truth, which
        nothing outside the class sets (`self.save_attention = False` in ``__init__``: blip's
        ``if is_cross and self.save_attention:`` compiles at STRICT, its body never runs). Also
        the message of a branch that only raises under a test decided while compiling (`if
        x.shape != (b, n): raise ValueError(f"... {x.size()}")`): built only for inputs that
        already fail (probed on mindone's olmoe)."""
        return self.memo(self._dead, id(compiled), lambda: self._find_dead(compiled))

    def _find_dead(self, compiled: CompiledFunction) -> frozenset[int]:
        folded, messages = self._folds_and_messages(compiled)
        return folded.union(*messages.values())

    def error_messages(self, compiled: CompiledFunction) -> dict[int, frozenset[int]]:
        """id(if) -> the nodes of the message of the raise it guards, for the ifs whose test
        the compiler decides while compiling but whose truth the model does not know (static
        shapes, isinstance): ``dead_nodes`` counts them, since they are built only for inputs
        that already fail; where the values of the inputs are known and the raise is taken,
        the engine checks them after all."""
        return self._folds_and_messages(compiled)[1]

    def _folds_and_messages(self, compiled: CompiledFunction):
        return self.memo(self.table("folds_and_messages"), id(compiled),
                         lambda: self._find_folds_and_messages(compiled))

    def _find_folds_and_messages(self, compiled: CompiledFunction):
        module = compiled.module
        dead: set[int] = set()
        messages: dict[int, frozenset[int]] = {}
        ifs = _ifs(module, compiled.node)
        for node in ifs:
            if id(node) in dead:
                continue
            truth = self.static_truth(node.test, compiled)
            if truth is None:
                if _only_raises(node.body) and not self.values(compiled).is_variable(node.test):
                    # An error path under a test the compiler decides while compiling (static
                    # shapes, isinstance): its message is built only for inputs that already
                    # fail. The raise itself stays: its exception class is resolved regardless.
                    *before, last = node.body
                    parts = [*before, last.cause]
                    if isinstance(last.exc, ast.Call):
                        parts += [*last.exc.args, *(k.value for k in last.exc.keywords)]
                    messages[id(node)] = frozenset(id(n) for part in parts if part is not None
                                                   for n in module.nodes(part))
                continue
            for statement in (node.orelse if truth else node.body):
                dead.update(id(n) for n in module.nodes(statement))
        return frozenset(dead), messages

    def unevaluated_nodes(self, compiled: CompiledFunction) -> frozenset[int]:
        """``dead_nodes``, and the branches type inference never evaluates: those of an ``if``
        decided by the literals every compiled caller passes (``helper(x)`` with ``host=False``:
        ``np.tanh`` under ``if host:`` is never run, at every level; probed with 2.10). The
        parser still reads them: an undefined name or a ``try`` there is rejected all the same,
        so only the checks of what the graph evaluates skip them."""
        return self.memo(self._unevaluated, id(compiled), lambda: self._find_unevaluated(compiled))

    def _find_unevaluated(self, compiled: CompiledFunction) -> frozenset[int]:
        dead = self.dead_nodes(compiled)
        constants = compiled.passed_constants
        if not constants:
            return dead
        module = compiled.module
        syntax = self.values(compiled).syntax
        # A nested function's parameter of the same name is another variable.
        shadowed = {name for node in module.nodes(compiled.node) if node is not compiled.node
                    and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                    for name in bound_names(node.args)}
        known = {name: values for name, values in constants.items() if name not in shadowed}
        # A parameter rebound later still holds what was passed in a test above the first
        # rebinding, outside any loop (`if rotation is not None: rotation = f(rotation)`).
        first_store: dict[str, int] = {}
        for node in module.nodes(compiled.node):
            if node.__class__ is ast.Name and node.ctx.__class__ is not ast.Load and node.id in known:
                first_store[node.id] = min(first_store.get(node.id, node.lineno), node.lineno)
        found = set(dead)
        ifs = _ifs(module, compiled.node)
        in_loops = nodes_in_loops(module, compiled.node)
        for node in ifs:
            if id(node) in found:
                continue
            here = {name: values for name, values in known.items()
                    if name not in syntax.bound
                    or (id(node) not in in_loops and first_store.get(name, 0) > node.test.end_lineno)}
            truth = constant_truth(node.test, here)
            if truth is not None:
                for statement in (node.orelse if truth else node.body):
                    found.update(id(n) for n in module.nodes(statement))
        return frozenset(found)

    def static_truth(self, test: ast.expr, compiled: CompiledFunction) -> bool | None:
        """The truth of an if-test the parser knows while compiling, else None."""
        match test:
            case ast.Constant(value=value):
                return bool(value)
            case ast.UnaryOp(op=ast.Not(), operand=operand):
                truth = self.static_truth(operand, compiled)
                return None if truth is None else not truth
            case ast.BoolOp(op=ast.And(), values=values):
                truths = [self.static_truth(value, compiled) for value in values]
                return False if False in truths else (True if all(truths) else None)
            case ast.BoolOp(op=ast.Or(), values=values):
                truths = [self.static_truth(value, compiled) for value in values]
                return True if True in truths else (False if truths.count(False) == len(truths) else None)
            case ast.Attribute(value=ast.Name(id=name), attr=attr) if (
                    name == _self_name(compiled)):
                return self._attribute_truth(attr, compiled)
            case ast.Compare(left=ast.Attribute(value=ast.Name(id=name), attr=attr), ops=[op],
                             comparators=[ast.Constant()]) if (
                    name == _self_name(compiled)
                    and type(op) in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
                # `if self.act == "gelu":` folds while parsing (probed: an undefined name under
                # it compiles when every Block() leaves act=None)
                literals = self.attribute_literals(attr, compiled)
                if literals is None:
                    return None
                return constant_truth(ast.Compare(left=ast.Name(id=attr), ops=[op],
                                                  comparators=test.comparators), {attr: literals})
        return None

    def _attribute_truth(self, attr: str, compiled: CompiledFunction) -> bool | None:
        literals = self.attribute_literals(attr, compiled)
        if literals is None or not all(isinstance(v, (bool, type(None))) for v in literals):
            return None  # the parser folds the truth of a bool (or None) only
        truths = {bool(value) for value in literals}
        return truths.pop() if len(truths) == 1 else None

    def attribute_literals(self, attr: str, compiled: CompiledFunction) -> frozenset | None:
        """The literals ``self.<attr>`` may hold in ``compiled``: every assignment of it in the
        classes of ``self`` is a literal, or an ``__init__`` parameter that every construction of
        the class passes a literal (or leaves at a literal default: ``Block()`` with
        ``act=None``). None when any is something else, the class body binds it too, code
        outside the class sets it (but only in code that runs in PyNative mode alone: a
        calibration pass), a class cannot be read completely (setattr, an external base),
        an augmented assignment changes it, or a project subclass of what ``self`` is sets
        it too (an inherited construct is kept once, with its own class's target)."""
        return self.memo(self.table("attribute_literals"), (id(compiled), attr),
                         lambda: self._find_attribute_literals(attr, compiled))

    def _find_attribute_literals(self, attr: str, compiled: CompiledFunction) -> frozenset | None:
        classes = self.self_classes(compiled)
        if any(attr in cls.body_names or attr in _augmented(cls) for cls in classes):
            return None
        literals: set = set()
        for cls in classes:
            for method_name, pairs in cls.method_self_assignments.items():
                for assigned, value in pairs:
                    if assigned != attr:
                        continue
                    passed = None
                    if method_name == "__init__" and isinstance(value, ast.Name):
                        passed = self.constructor_arguments(cls, cls.methods[method_name], value)
                    for expr in ([p.expr for p in passed] if passed is not None else [value]):
                        literal = _literal(expr)
                        if literal is _NOT_A_LITERAL:
                            return None
                        literals.add(literal)
        if not literals:
            return None
        # The costlier questions last, asked only of attributes that would fold.
        if not all(complete_class(self, cls) for cls in classes):
            return None
        if any(attr in mindspore_base_attributes(self, cls) for cls in classes):
            return None  # a MindSpore base (nn.Adam, TrainOneStepCell) sets it too
        if any(attr in sub.self_assignments for cls in self.self_heads(compiled)
               for sub in self.subclasses(cls, cls.module.path)):
            return None
        if set_from_outside(self, attr, compiled.module):
            return None
        return frozenset(literals)


# ----- what the parser folds, asked before type inference (data flow) -----------------------

def may_fold_while_parsing(test: ast.expr, fv: FunctionValues, attribute_values=None,
                           self_folds: bool = True) -> bool:
    """Whether the parser folds this if-test to a constant (probed with MindSpore 2.10): not/and/or
    and comparisons of literals, one-level ``self`` attributes and local names that only ever hold
    literals, with at least one leaf that is not a literal. A ``self`` attribute tested for truth
    folds only when it holds a bool: ``attribute_values(attr)`` gives what it is assigned, and an
    attribute known to hold None, a tuple or a Cell does not fold. When unsure, it folds, so a folded
    if is never reported. Not folded: ``if True:``, ``self.cfg.flag``, ``self.mode in (...)``,
    ``self.n * 2``, ``len(self.layers)``, module constants, parameters, and (``self_folds``
    False) any attribute of a ``self`` handed to a function as an argument (probed)."""
    leaves = 0
    pending: list[tuple[ast.expr, bool]] = [(test, True)]  # (node, tested for truth)
    while pending:
        node, truth = pending.pop()
        match node:
            case ast.UnaryOp(op=ast.Not(), operand=operand):
                pending.append((operand, True))
            case ast.BoolOp(values=values):
                pending.extend((value, True) for value in values)
            case ast.Compare(ops=ops, left=left, comparators=comparators):
                if any(isinstance(op, (ast.In, ast.NotIn)) for op in ops):
                    return False
                pending.extend((operand, False) for operand in [left, *comparators])
            case ast.Constant():
                continue
            case _ if _is_self_attribute(node, fv):
                if not self_folds:
                    return False
                if truth and attribute_values is not None:
                    if not _may_hold_bool(attribute_values(node.attr), fv):
                        return False
                leaves += 1
            case _ if _holds_literals(node, fv):
                leaves += 1
            case _:
                return False
    return leaves > 0  # `if True:` and `if 1 < 2:` are not folded by the parser (probed)


def _may_hold_bool(values: list[ast.expr], fv: FunctionValues) -> bool:
    """False when every value assigned to an attribute is a literal other than a bool (None, an
    int), a tuple or list, or a call of a class (a Cell, a CellList): their truth is not folded
    (probed)."""
    if not values:
        return True
    pending = list(values)
    while pending:
        value = pending.pop()
        match value:
            case ast.Constant(value=constant) if not isinstance(constant, bool):
                continue  # None and ints probed: only a bool's truth folds
            case ast.Tuple() | ast.List():
                continue
            case ast.IfExp(body=body, orelse=orelse):
                pending += [body, orelse]
                continue
            case ast.Call(func=func):
                qualified = fv.module.imports.qualify(func) or ""
                if qualified.rsplit(".", 1)[-1][:1].isupper():
                    continue
        return True
    return False


def self_attribute_values(model: ProjectModel,
                          compiled: CompiledFunction) -> Callable[[str], list[ast.expr]]:
    """attr -> the values ``self.attr`` is assigned in the classes ``self`` has in ``compiled``."""
    classes = model.self_classes(compiled)

    def values(attr: str) -> list[ast.expr]:
        return [value for cls in classes for value in cls.self_assignments.get(attr, [])]

    return values


def _is_self_attribute(node: ast.expr, fv: FunctionValues) -> bool:
    return isinstance(node, ast.Attribute) and fv.is_self(node.value)


def _holds_literals(node: ast.expr, fv: FunctionValues) -> bool:
    if not isinstance(node, ast.Name):
        return False
    values = fv.assigned_values(node.id)
    return bool(values) and all(isinstance(value, ast.Constant) for value in values)


def _augmented(cls) -> frozenset[str]:
    """Attributes some method changes with ``self.x += ...``: not a literal after it."""
    module = cls.module
    return module.derived("branches.augmented", cls.node, lambda node: frozenset(
        statement.target.attr for statement in module.nodes(node)
        if isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Attribute)))


def _self_name(compiled: CompiledFunction) -> str | None:
    """The name ``self`` has in a method (a staticmethod's first parameter is no self)."""
    if compiled.owner is None or is_static(compiled.node) or compiled.self_passed:
        return None  # a self passed as an argument: its attributes fold no test
    return first_parameter(compiled.node)


def _ifs(module, function: FunctionNode) -> list[ast.If]:
    """The function's ``if`` statements, nested functions' included (once per function)."""
    return module.derived("ifs", function,
                          lambda node: [n for n in module.nodes(node) if isinstance(n, ast.If)])


def nodes_in_loops(module, function) -> frozenset[int]:
    """ids of the nodes inside a loop of the function (a test there runs again after the
    loop's body rebinds a name), once per function."""
    def find(node: ast.AST) -> frozenset[int]:
        inside: set[int] = set()
        for found in module.nodes(node):
            if found.__class__ in (ast.For, ast.AsyncFor, ast.While):
                inside.update(id(n) for n in module.nodes(found))
        return frozenset(inside)
    return module.derived("nodes_in_loops", function, find)
