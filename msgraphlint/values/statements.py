"""The statements of a compiled function, in order: blocks, branches and loops, what they
bind and forget.

One concern of the Interpreter (values/interpret.py), which mixes it in; ``self`` is the
Interpreter."""

from __future__ import annotations

import ast
from contextlib import contextmanager
from typing import Iterator

from ..knowledge.builtin_calls import TYPE_DECIDED
from ..syntax.project import bound_names
from .domain import (
    FailureKind, UNKNOWN, Value, element_type, element_types, is_known, is_variable_scalar,
    is_variable_sequence, join, known,
)
from .folding import BINDING_NODES, _base_name, _listed, _one_item


class Statements:
    def block(self, body: list[ast.stmt], env: dict[str, Value]) -> bool:
        """Evaluate statements in order; False once the block cannot go on (return, raise)."""
        for stmt in body:
            if not self.statement(stmt, env):
                return False
        return True

    def statement(self, stmt: ast.stmt, env: dict[str, Value]) -> bool:
        match stmt:
            case ast.Assign(targets=targets, value=value):
                result = self.expr(value, env)
                for target in targets:
                    if target.__class__ is ast.Subscript:
                        self.item_assignment(stmt, target, result, env)
                    self.bind(target, result, env)
            case ast.AnnAssign(target=target, value=value) if value is not None:
                self.bind(target, self.expr(value, env), env)
            case ast.AugAssign(target=target, op=op, value=value):
                right = self.expr(value, env)
                if isinstance(target, ast.Name):
                    left = env.get(target.id, UNKNOWN)
                    env[target.id] = self.binary(stmt, type(op), left, right)
                else:
                    if target.__class__ is ast.Attribute:
                        self._attribute(target, env, 0)  # `x.n += 1` reads x.n first
                    self.forget_base(target, env)
            case ast.Expr(value=value):
                self.expr(value, env)
            case ast.Return(value=value):
                if value is not None:
                    self.expr(value, env)
                return False
            case ast.Raise():
                return False
            case ast.If(test=test, body=body, orelse=orelse):
                truth = self.truth(test, env)
                if truth is not None:
                    self.skip(orelse if truth else body)
                    return self.block(body if truth else orelse, env)
                with self.undecided(test):
                    self.branches([body, orelse], env)
            case ast.For(target=target, iter=iterable, body=body, orelse=orelse) | ast.AsyncFor(
                    target=target, iter=iterable, body=body, orelse=orelse):
                over = self.expr(iterable, env)
                self.string_length(iterable, over)
                self.iteration_of_tensor(iterable, over, "a for loop")
                self.loop_over_number(iterable, over)
                if is_known(over) and _one_item(over.value):
                    # Unrolled into one copy of the body: followed as straight-line code.
                    self.bind(target, known(over.value[0]), env)
                    if not self.block(body, env):
                        return False
                    return self.block(orelse, env)
                self.forget(stmt, env)
                if not (is_known(over) and isinstance(over.value, (tuple, list, range, str, dict))
                        and not over.value):
                    self.bind(target, UNKNOWN, env)
                    self.block(body, dict(env))
                self.block(orelse, env)
                self.forget(stmt, env)
            case ast.While(test=test, body=body, orelse=orelse):
                self.forget(stmt, env)
                if self.truth(test, env) is not False:
                    self.block(body, dict(env))
                self.block(orelse, env)
                self.forget(stmt, env)
            case ast.With(items=items, body=body) | ast.AsyncWith(items=items, body=body):
                for item in items:
                    self.expr(item.context_expr, env)
                    if item.optional_vars is not None:
                        self.bind(item.optional_vars, UNKNOWN, env)
                return self.block(body, env)
            case ast.Pass() | ast.Break() | ast.Continue() | ast.Assert():
                return not isinstance(stmt, (ast.Break, ast.Continue))
            case _:
                # try, match, del, global, nested definitions: whatever they bind is unknown
                self.forget(stmt, env)
        return True

    def branches(self, bodies: list[list[ast.stmt]], env: dict[str, Value]) -> None:
        """Both sides of an if the compiler cannot decide: a name holds the join of what every
        side that goes on gives it (domain.join)."""
        outcomes = []
        for body in bodies:
            local = dict(env)
            if self.block(body, local):
                outcomes.append(local)
        if not outcomes:
            return
        for name in {name for outcome in outcomes for name in outcome} | set(env):
            env[name] = join([outcome.get(name, UNKNOWN) for outcome in outcomes])

    def forget(self, stmt: ast.AST, env: dict[str, Value]) -> None:
        for name in self.module.derived("changed names", stmt, self._changed_names):
            env[name] = UNKNOWN

    def _changed_names(self, stmt: ast.AST) -> frozenset[str]:
        """Names a statement may bind or change in place (once per statement: a loop is
        forgotten before and after its body)."""
        names: set[str] = set()
        for node in self.module.nodes(stmt):
            cls = node.__class__
            if cls is ast.Name:
                if node.ctx.__class__ is not ast.Load:
                    names.add(node.id)
            elif cls is ast.Call:
                if node.func.__class__ is ast.Attribute:  # l.append(v) in a loop changes l
                    names.update(_base_name(node.func.value))
            elif cls in (ast.Subscript, ast.Attribute):
                if node.ctx.__class__ is not ast.Load:
                    names.update(_base_name(node))
            elif cls in BINDING_NODES:
                names.update(bound_names(node))
        return frozenset(names)

    def forget_base(self, target: ast.expr, env: dict[str, Value]) -> None:
        """``l[0] = v`` or ``d.x = v``: the container named at the base may have changed."""
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        if isinstance(target, ast.Name):
            env[target.id] = UNKNOWN

    def bind(self, target: ast.expr, value: Value, env: dict[str, Value]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            elements = target.elts
            if (is_known(value) and isinstance(value.value, (tuple, list))
                    and len(value.value) == len(elements)
                    and not any(isinstance(e, ast.Starred) for e in elements)):
                for element, item in zip(elements, value.value):
                    self.bind(element, known(item), env)
            else:
                for element in elements:
                    self.bind(element.value if isinstance(element, ast.Starred) else element,
                              UNKNOWN, env)
        else:
            self.forget_base(target, env)

    def skip(self, branch: list[ast.AST] | ast.AST) -> None:
        """A branch of a test decided here: type inference never evaluates it."""
        for part in (branch if isinstance(branch, list) else [branch]):
            self.result.skipped.update(id(node) for node in self.module.nodes(part))

    @contextmanager
    def undecided(self, test: ast.expr) -> Iterator[None]:
        """The branches of ``test``, which the interpreter cannot decide: under a type test
        (TYPE_DECIDED), which the compiler decides, they may be dead."""
        guarded = int(self.module.derived("type test", test, self._tests_type))
        self.type_guarded += guarded
        try:
            yield
        finally:
            self.type_guarded -= guarded

    def _tests_type(self, test: ast.expr) -> bool:
        for node in ast.walk(test):
            if node.__class__ is ast.Call and node.func.__class__ is ast.Name:
                qualified = self.module.imports.qualify(node.func) or ""
                if (qualified.startswith("builtins.")
                        and qualified.removeprefix("builtins.") in TYPE_DECIDED):
                    return True
        return False

    def truth(self, test: ast.expr, env: dict[str, Value]) -> bool | None:
        value = self.expr(test, env)
        if is_known(value):
            try:
                return bool(value.value)
            except Exception:  # noqa: BLE001 - an odd constant: undecided
                return None
        return self.model.static_truth(test, self.compiled)

    def item_assignment(self, stmt: ast.Assign, target: ast.Subscript, value: Value,
                        env: dict[str, Value]) -> None:
        """``a[i] = v`` and ``a[i:j] = vs`` on a dynamic-length list, or at a variable index."""
        base = self.expr(target.value, env)
        index = target.slice
        if index.__class__ is ast.Slice:
            entering = element_types(value)
            if is_variable_sequence(base):
                types = [base.element, *(entering or [])]
            elif is_variable_sequence(value) or any(
                    is_variable_scalar(self.expr(p, env))
                    for p in (index.lower, index.upper, index.step) if p is not None):
                types = [*(element_types(base) or [None]), *(entering or [])]
            else:
                return
            if entering is None:
                return
            what = "the slice assigned"
        else:
            position = self.expr(index, env)
            if is_variable_sequence(base):
                types = [base.element, element_type(value)]
            elif is_variable_scalar(position) and is_known(base) and type(base.value) is list:
                types = [*element_types(base), element_type(value)]
            else:
                return
            what = "the item assigned"
        if None in types or len(set(types)) < 2:
            return
        where = ("a dynamic-length list" if is_variable_sequence(base)
                 else "a list whose position is decided at run time")
        self.fail(stmt, FailureKind.DYNAMIC_SEQUENCE, TypeError(
            f"{what} must have the one element type of {where}; here {_listed(types)}"))
