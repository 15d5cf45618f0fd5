"""What compiled code knows of the functions it calls: constants against variables in each, and
what a method, a sub-Cell or a plain function gives back."""

from __future__ import annotations

import ast

from ..syntax.project import ClassInfo, ModuleInfo, construct_without_self
from .variables import FunctionValues
from .compiled import (
    CompiledFunction, FunctionNode, Target, Variability, _nearest_scope, bind_arguments, is_static,
    join_variability,
)


def _own_nodes(module: ModuleInfo, function: FunctionNode, kinds: tuple[type, ...]) -> list[ast.AST]:
    """The nodes of ``kinds`` in a function's body that are its own, not those of a function or
    class defined in it (the body's walk and parent map are the module's cached ones)."""
    parents = module.parents(function)

    def parent(node: ast.AST) -> ast.AST | None:
        return parents.get(id(node))  # keyed by id, as FunctionValues.parent

    return [node for node in module.body_nodes(function)
            if isinstance(node, kinds) and _nearest_scope(node, parent) is function]


def known_returns(module: ModuleInfo, function: FunctionNode) -> list[ast.Return] | None:
    """The function's own return statements when each gives a value back; None when there is
    none, or a bare ``return`` (what it gives back is then not summarised)."""
    returns = _own_nodes(module, function, (ast.Return,))
    if not returns or any(r.value is None for r in returns):
        return None
    return returns  # type: ignore[return-value]


def is_generator(module: ModuleInfo, function: FunctionNode) -> bool:
    return bool(_own_nodes(module, function, (ast.Yield, ast.YieldFrom)))


def _join_returns(returns: list[ast.Return], judge) -> Variability:
    """``judge`` of what the returns give back, per element of returned tuples, joined."""
    return join_variability([_element_kinds(r.value, judge) for r in returns])


def _element_kinds(value: ast.expr, judge) -> Variability:
    """``judge(value)``, or a list of those per element when ``value`` is a tuple display."""
    if isinstance(value, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in value.elts):
        return [_element_kinds(element, judge) for element in value.elts]
    return judge(value)


class Summaries:
    """One concern of ReachModel (model/reach.py), whose caches and memo it uses."""

    def values(self, compiled: CompiledFunction) -> FunctionValues:
        """Constants versus variables inside one compiled function (cached)."""
        return self.memo(self._values, id(compiled), lambda: self._function_values(compiled))

    def _function_values(self, compiled: CompiledFunction) -> FunctionValues:
        classes = self.self_classes(compiled)
        return FunctionValues(
            compiled.node,
            compiled.module,
            is_method=compiled.owner is not None and not is_static(compiled.node)
            and not construct_without_self(compiled.node),
            parameter_attrs=frozenset(a for c in classes for a in c.parameter_attrs),
            method_names=frozenset(name for c in classes for name in c.methods),
            variable_params=compiled.variable_params,
            static_attrs=frozenset(a for c in classes for a in c.static_primitive_attrs),
            tensor_attrs=frozenset(a for c in classes for a in c.checked_tensor_attrs),
            returns=lambda attr: self.return_kinds(compiled, attr),
            call_returns=lambda call, caller: self.call_returns(
                compiled.module, compiled.node, call, caller),
        )

    def return_kinds(self, compiled: CompiledFunction, attr: str) -> Variability:
        """What ``self.<attr>(...)`` gives back in ``compiled``: False when every return is a
        compile-time value even with every parameter a variable (a helper returning a shape),
        a list of those per element when every return is a tuple of one length (a sub-Cell's
        ``return x, (h, w)``), True otherwise. Cached per called function."""
        cls = compiled.target.cell or compiled.owner
        if cls is None:
            return True
        # memo: reused answers replay what they read, for the result cache
        return self.memo(self._returns_by_attr, (id(cls), attr),
                         lambda: self._callee_return_kinds(cls, attr))

    def _callee_return_kinds(self, cls: ClassInfo, attr: str) -> Variability:
        callee = self.find_method(cls, attr)
        if callee is None and (sub := self.attribute_class(cls, attr)) is not None and self.is_cell(sub):
            callee = self.find_method(sub, "construct")
        if callee is None:
            return True
        owner, node = callee
        key = id(node)
        if key in self._returns_pending:
            return True  # recursion: assume the worst
        self._returns_pending.add(key)
        try:
            return self.memo(self._return_kinds, key, lambda: self._find_return_kinds(owner, node))
        finally:
            self._returns_pending.discard(key)

    def _find_return_kinds(self, owner: ClassInfo, node: FunctionNode) -> Variability:
        returns = known_returns(owner.module, node)
        if returns is None:
            return True
        compiled = CompiledFunction(owner.module, node, owner,
                                    Target(node.name, "cell", owner.module, node, owner))
        classes = self.mro(owner)  # a base class's Parameters and methods count too
        values = FunctionValues(  # every parameter a variable: true of any caller
            node, owner.module, is_method=not is_static(node),
            parameter_attrs=frozenset(a for c in classes for a in c.parameter_attrs),
            method_names=frozenset(name for c in classes for name in c.methods),
            static_attrs=frozenset(a for c in classes for a in c.static_primitive_attrs),
            tensor_attrs=frozenset(a for c in classes for a in c.checked_tensor_attrs),
            returns=lambda attr: self.return_kinds(compiled, attr),
            call_returns=lambda call, caller: self.call_returns(owner.module, node, call, caller))
        # False for a compile-time value, True for a variable, per element of a returned tuple
        return _join_returns(returns, values.element_variables)

    def call_returns(self, module: ModuleInfo, node: FunctionNode, call: ast.Call,
                     caller: FunctionValues) -> tuple[Variability, Variability] | None:
        """What a project function called as ``call`` in ``node`` gives back, given which of its
        parameters the call passes variables to (``caller`` says): (which of it may be a
        variable, which of it is a host value made from one), each True, False, or a list per
        element of a returned tuple (as return_kinds); None when the callee is not a project
        function. Cached per called function and variable parameters."""
        # asked again at every step of a fixpoint; the memo replays the lookups for the cache
        found = self.memo(self._call_callees, id(call),
                          lambda: self._plain_callee(module, node, call.func))
        if found is None or found[2] is not None:
            return None  # not the project's, or a method called through its class
        callee_module, callee = found[0], found[1]
        variables = frozenset(param for param, argument in bind_arguments(call, callee, False)
                              if caller.is_variable(argument))
        key = (id(callee), variables)
        if key in self._call_pending:
            return True, False  # recursion: a variable, and nothing said of host values
        self._call_pending.add(key)
        try:
            return self.memo(self._call_returns, key,
                             lambda: self._find_call_returns(callee_module, callee, variables))
        finally:
            self._call_pending.discard(key)

    def _find_call_returns(self, module: ModuleInfo, node: FunctionNode,
                           variables: frozenset[str]) -> tuple[Variability, Variability]:
        returns = known_returns(module, node)
        if returns is None or is_generator(module, node):
            return True, False
        values = FunctionValues(
            node, module, is_method=False, variable_params=set(variables),
            call_returns=lambda call, caller: self.call_returns(module, node, call, caller))
        return _join_returns(returns, values.element_variables), _join_returns(returns, values.is_host)
