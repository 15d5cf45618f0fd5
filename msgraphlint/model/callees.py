"""What a compiled call runs: the project function, method or sub-Cell it reaches, through
wrappers (functools.partial, jit) and imports."""

from __future__ import annotations

import ast

from ..knowledge.mindspore import FUNCTION_WRAPPERS, JIT_DECORATORS
from ..syntax.project import ModuleInfo
from .variables import function_syntax
from .compiled import (
    CallEdge, CompiledFunction, FunctionNode, first_parameter, is_host_evaluated, is_static,
)


class Callees:
    """One concern of ReachModel (model/reach.py), whose caches and memo it uses."""

    def call_edges(self, caller: CompiledFunction) -> list[CallEdge]:
        """A CallEdge for each call in ``caller`` that resolves to project code."""
        return self.memo(self.table("call_edges"), id(caller), lambda: list(self._callees(caller)))

    def _callees(self, caller: CompiledFunction):
        """A CallEdge for each call in ``caller`` that resolves to project code."""
        module, node, owner = caller.module, caller.node, caller.owner
        self_name = first_parameter(node) if owner is not None and not is_static(node) else None
        dead = self.dead_nodes(caller)
        for call in module.nodes(node):
            if not isinstance(call, ast.Call) or id(call) in dead:
                continue
            func = call.func
            if isinstance(func, ast.Attribute) and owner is not None:
                receiver = func.value
                if isinstance(receiver, ast.Name) and receiver.id == self_name:
                    # self.m(...): statically, the concrete Cell of the target first (subclass
                    # overrides win), then the class that defines the caller.
                    start = caller.target.cell or owner
                    found = self.find_method(start, func.attr) or self.find_method(owner, func.attr)
                    if found:
                        cls, method = found
                        yield CallEdge(cls.module, method, cls, func.attr, call, not is_static(method))
                    continue
                if (
                    isinstance(receiver, ast.Call)
                    and isinstance(receiver.func, ast.Name)
                    and receiver.func.id == "super"
                ):
                    if found := self.find_method(owner, func.attr, skip_self=True):
                        cls, method = found
                        yield CallEdge(
                            cls.module, method, cls, f"super().{func.attr}", call, not is_static(method)
                        )
                    continue
                if (
                    isinstance(receiver, ast.Attribute)
                    and isinstance(receiver.value, ast.Name)
                    and receiver.value.id == self_name
                ):
                    # self.sub.m(...): a method of a project object assigned in __init__.
                    holder = caller.target.cell or owner
                    held = self.certain_attribute_class(holder, receiver.attr)
                    sub = (held or self.attribute_class(holder, receiver.attr)
                           or self.sole_cell_defining(holder, receiver.attr, func.attr))
                    if sub is not None and (found := self.find_method(sub, func.attr)):
                        cls, method = found
                        label = f"self.{receiver.attr}.{func.attr}"
                        yield CallEdge(cls.module, method, cls, label, call, not is_static(method),
                                       binds_call_arguments=held is not None)
                    continue
            if (wrapped := self._wrapped_function(func, caller)) is not None:
                callee_module, callee, cls, label = wrapped
                yield CallEdge(callee_module, callee, cls, label, call, False, binds_call_arguments=False)
                continue
            if isinstance(func, ast.Name) and func.id in function_syntax(module, node).local_names:
                continue  # a parameter, local variable or nested def (walked with the caller)
            if (found := self._plain_callee(module, node, func)) is not None:
                callee_module, callee, cls, label = found
                yield CallEdge(callee_module, callee, cls, label, call, False,
                               is_host_evaluated(callee, callee_module))

    def _plain_callee(self, module: ModuleInfo, node: FunctionNode, func: ast.expr):
        """The project function that ``f(...)`` or ``pkg.f(...)`` in ``node`` runs (callers have
        made sure ``f`` is none of node's own names): (module, function, class, label), or
        None."""
        if isinstance(func, ast.Name) and (scope := module.scope_of(node)):
            # a function the enclosing function defines (a closure): compiled like any other
            local = module.visible_definition(func.id, scope)
            if isinstance(local, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return module, local, None, func.id
            if local is not None:
                return None  # a class defined in the enclosing function
        qualified = module.imports.qualify(func)
        if qualified and not qualified.startswith("builtins.") and qualified not in JIT_DECORATORS:
            return self._resolve_function(qualified, module)
        return None

    def _wrapped_function(self, func: ast.expr, caller: CompiledFunction):
        """``ms.grad(fn)(x)``, or ``grad_fn(x)`` after ``grad_fn = ms.value_and_grad(fn, ...)``
        (module level or in the caller): the call runs ``fn`` in the graph."""
        module = caller.module
        if isinstance(func, ast.Call):
            wrappers = [func]
        elif isinstance(func, ast.Name):
            local = function_syntax(module, caller.node).assigned_values(func.id)
            wrappers = local or module.assignments.get(func.id, [])
        else:
            return None
        for wrapper in wrappers:
            if not (isinstance(wrapper, ast.Call) and wrapper.args):
                continue
            if module.imports.qualify(wrapper.func) not in FUNCTION_WRAPPERS:
                continue
            qualified = module.imports.qualify(wrapper.args[0])
            if qualified and (found := self._resolve_function(qualified, module)) is not None:
                return found
        return None

    def _resolve_function(self, qualified: str, near: ModuleInfo):
        prefix = f"{near.name}."
        local = qualified[len(prefix) :] if near.name and qualified.startswith(prefix) else None
        if local is not None and local in near.functions:
            return near, near.functions[local], None, local
        if local is None or "." in local:
            found = self.project.resolve(qualified) if local is None else (near, local)
            if found is None:
                return None
            module, member = found
            if member in module.functions:
                return module, module.functions[member], None, member
            if "." in member:  # Class.method(...)
                class_name, method_name = member.rsplit(".", 1)
                cls = module.classes.get(class_name)
                if cls is not None and method_name in cls.methods:
                    return module, cls.methods[method_name], cls, member
            reexported = module.imports.names.get(member)
            if reexported and reexported != qualified and reexported.split(".")[0] != "mindspore":
                found_module = self.project.resolve(reexported)
                if found_module and found_module[1] in found_module[0].functions:
                    target_module, name = found_module
                    return target_module, target_module.functions[name], None, name
        return None
