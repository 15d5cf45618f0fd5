"""Expressions: displays, names, free names and `self` attributes, constants read from the
module, a driver or a construction.

One concern of the Interpreter (values/interpret.py), which mixes it in; ``self`` is the
Interpreter."""

from __future__ import annotations

import ast

from ..knowledge.mindspore import TENSOR_CLASS as TENSOR_NAME, VARIABLE_MAKERS
from ..model.attributes import (
    CELL_ATTRIBUTES, helper_assignments, instance_attributes, mindspore_base_attributes,
)
from ..model.compiled import bind_arguments, parameter_defaults
from ..syntax.project import ClassInfo, ModuleInfo
from ..model.callers import MAX_CONSTANT_DEPTH, single_assignment
from ..model.modes import set_from_outside
from ..model.variables import function_syntax
from .domain import (
    UNKNOWN, Builtin, DictValue, Known, ObjectValue, SequenceValue, TensorValue, Value, is_known,
    is_tensor_value, known,
)
from .folding import (
    CONSTANT_MODULES, MAX_DEPTH, MODULE_CONSTANTS, NAMEDTUPLE_ATTRIBUTES, NAMEDTUPLE_BASE,
    NUMPY_BUILDERS, TENSOR_CLASS_VALUE, UNARY, _builds_parameter, _builds_tensor, _declared_global,
    _declared_ndim, _is_slice_call, _only_value, _other_module_bindings, _unchangeable,
    _unless_changed, kept_constant, namedtuple_fields,
)


class Expressions:
    def expr(self, node: ast.expr, env: dict[str, Value], depth: int = 0) -> Value:
        cls = node.__class__
        if cls is ast.Name:  # most expressions: no handler call
            value = env[node.id] if node.id in env else self.name(node.id, env)
        elif cls is ast.Constant:
            value = known(node.value)
        else:
            handler = EXPRESSION_HANDLERS.get(cls)
            # lambdas and comprehensions have scopes of their own: unknown
            if handler is None or depth > MAX_DEPTH:
                return UNKNOWN
            value = handler(self, node, env, depth)
        if value is not UNKNOWN:
            self.result.values[id(node)] = value
        return value

    def _sequence(self, node: ast.Tuple | ast.List, env, depth) -> Value:
        values = [self.expr(e, env, depth + 1) for e in node.elts]
        if all(is_known(v) for v in values):
            items = [v.value for v in values]
            return known(tuple(items) if node.__class__ is ast.Tuple else items)
        if any(e.__class__ is ast.Starred for e in node.elts):
            return UNKNOWN
        # Its kind and length are known whatever its elements are: `(self.n, 1).shape` fails.
        return SequenceValue(tuple if node.__class__ is ast.Tuple else list, len(node.elts),
                             tuple(values))

    def _dict(self, node: ast.Dict, env, depth) -> Value:
        pairs = [(self.expr(k, env, depth + 1) if k is not None else UNKNOWN,
                  self.expr(v, env, depth + 1)) for k, v in zip(node.keys, node.values)]
        if all(is_known(k) and is_known(v) for k, v in pairs):
            try:
                return known({k.value: v.value for k, v in pairs})
            except TypeError:
                return UNKNOWN  # an unhashable key: Python's own error, not folded here
        if all(is_known(k) for k, _ in pairs):
            try:
                items = {k.value: v for k, v in pairs}  # a later key replaces an earlier one
            except TypeError:
                return UNKNOWN
            return DictValue(tuple(items), tuple(items.values()))
        return UNKNOWN

    def _binop(self, node: ast.BinOp, env, depth) -> Value:
        return self.binary(node, type(node.op), self.expr(node.left, env, depth + 1),
                           self.expr(node.right, env, depth + 1))

    def _unaryop(self, node: ast.UnaryOp, env, depth) -> Value:
        value = self.expr(node.operand, env, depth + 1)
        return self.apply(node, UNARY[type(node.op)], value) if is_known(value) else UNKNOWN

    def _boolop(self, node: ast.BoolOp, env, depth) -> Value:
        """`a and b`: b is not evaluated once a known a decides (`k in d and d[k] > 0`)."""
        results = []
        stops_on = node.op.__class__ is ast.Or  # `or` stops at a true operand, `and` at a false one
        for item in node.values:
            value = self.expr(item, env, depth + 1)
            results.append(value)
            if is_known(value):
                try:
                    if bool(value.value) is stops_on:
                        return value if len(results) == 1 or all(is_known(r) for r in results) else UNKNOWN
                except Exception:  # noqa: BLE001 - an odd constant: undecided
                    break
        self.tensor_bool_operator(node, results)
        if all(is_known(r) for r in results):
            return results[-1]
        return UNKNOWN

    def _compare(self, node: ast.Compare, env, depth) -> Value:
        return self.compare(node, node.left, node.ops, node.comparators, env, depth)

    def _ifexp(self, node: ast.IfExp, env, depth) -> Value:
        truth = self.truth(node.test, env)
        if truth is not None:
            self.skip(node.orelse if truth else node.body)
            return self.expr(node.body if truth else node.orelse, env, depth + 1)
        with self.undecided(node.test):
            self.expr(node.body, env, depth + 1)
            self.expr(node.orelse, env, depth + 1)
        return UNKNOWN

    def _subscript(self, node: ast.Subscript, env, depth) -> Value:
        return self.subscript(node, self.expr(node.value, env, depth + 1),
                              self.expr(node.slice, env, depth + 1))

    def _slice(self, node: ast.Slice, env, depth) -> Value:
        parts = [self.expr(p, env, depth + 1) if p is not None else Known(None)
                 for p in (node.lower, node.upper, node.step)]
        return Known(slice(*(p.value for p in parts))) if all(is_known(p) for p in parts) else UNKNOWN

    def _attribute(self, node: ast.Attribute, env, depth) -> Value:
        if self.is_self(node.value):
            return self.self_attribute(node.attr)
        base = node.value
        if (base.__class__ is ast.Name and base.id not in env
                and self.module.imports.names.get(base.id) in CONSTANT_MODULES):
            qualified = self.module.imports.qualify(node)
            if qualified in MODULE_CONSTANTS:
                return Known(MODULE_CONSTANTS[qualified])
        return self.attribute(node, self.expr(node.value, env, depth + 1), node.attr)

    def _call(self, node: ast.Call, env, depth) -> Value:
        return self.call(node, env, depth)

    def _namedexpr(self, node: ast.NamedExpr, env, depth) -> Value:
        result = self.expr(node.value, env, depth + 1)
        env[node.target.id] = result
        return result

    def _inner_values(self, node: ast.AST, env, depth) -> Value:
        """Starred, f-strings: their parts are evaluated (for failures), the whole is unknown."""
        for item in (node.values if node.__class__ is ast.JoinedStr else [node.value]):
            self.expr(item, env, depth + 1)
        return UNKNOWN

    @property
    def locals(self) -> frozenset[str]:
        if self._locals is None:  # the value model has them already, for the other families
            self._locals = frozenset(self.model.values(self.compiled).local_names)
        return self._locals

    def name(self, name: str, env: dict[str, Value]) -> Value:
        if name in env:
            return env[name]
        if name in self.locals:
            return UNKNOWN  # a local not bound on this path (yet): other rules say so
        if name not in self._free:
            self._free[name] = self.free_name(name)
        return self._free[name]

    def free_name(self, name: str) -> Value:
        """A closure's or the module's constant, bound once and never declared global."""
        for enclosing in reversed(self.scope):
            if isinstance(enclosing, ast.ClassDef):
                continue
            if name in function_syntax(self.module, enclosing).local_names:
                value = single_assignment(self.module, enclosing, name)
                if value.__class__ is ast.Call:  # cell_obj = Net() in the enclosing function
                    made = self.instance_of(value, self.module, enclosing)
                    return _unless_changed(made, self.module, enclosing, name)
                return _unchangeable(self.constant(value, 0)) if value is not None else UNKNOWN
        if name in self.module.imports.names:
            qualified = self.module.imports.names[name]
            return TENSOR_CLASS_VALUE if qualified == TENSOR_NAME else UNKNOWN
        values = self.module.assignments.get(name)
        if values is not None:
            if (len(values) != 1 or _declared_global(self.module, name)
                    or name in _other_module_bindings(self.module)):
                return UNKNOWN
            return _unchangeable(self.constant(values[0], 0))
        qualified = self.module.imports.qualify(ast.Name(id=name))
        if qualified and qualified.startswith("builtins."):
            return Builtin(name)
        return UNKNOWN

    def is_self(self, node: ast.expr) -> bool:
        if node.__class__ is not ast.Name or self.compiled.owner is None \
                or self.compiled.self_passed:  # a parameter: its attributes are not folded
            return False
        if self._self_name is None:
            self._self_name = self.model.values(self.compiled).self_name or ""
        return node.id == self._self_name

    def self_attribute(self, attr: str) -> Value:
        """``self.attr`` set once, in ``__init__``, to a constant and never elsewhere (nor by
        other files): the compiler reads it as that constant."""
        if attr in self._self_attributes:
            return self._self_attributes[attr]
        found: object = UNKNOWN
        assigned = [(cls, method, value)
                    for cls in self.model.self_classes(self.compiled)
                    for method, pairs in cls.method_self_assignments.items()
                    for name, value in pairs if name == attr]
        if assigned and all(_builds_parameter(value, cls.module) for cls, _, value in assigned):
            found = self.parameter_value(assigned)
            if set_from_outside(self.model, attr, self.module):
                found = UNKNOWN
        elif len(assigned) == 1 and assigned[0][1] == "__init__":
            cls, _, value = assigned[0]
            passed = self.model.constructor_arguments(cls, cls.methods["__init__"], value)
            if passed:
                found = self.passed_value(passed)
            elif _is_slice_call(value, cls.module):
                found = self.slice_constant(value)
            elif _builds_tensor(value, cls.module):
                # self.w = Tensor(...): the graph holds it as a constant tensor (not a Parameter)
                found = TensorValue(constant=True, ndim=_declared_ndim(value))
            elif self.unpacks_tensor(cls, attr, value):  # one item of what an __init__ helper returns
                found = TensorValue(constant=True)
            elif value.__class__ is ast.Call:  # self.sub = SubCell(123)
                found = self.instance_of(value, cls.module, cls.methods["__init__"])
            else:
                found = self.constant(value, 0)
            if is_known(found) and not kept_constant(found):
                found = UNKNOWN
            if found is not UNKNOWN and set_from_outside(self.model, attr, self.module):
                found = UNKNOWN  # `net.scale = 2` somewhere in the project, not only in PyNative
        self._self_attributes[attr] = found
        return found

    def parameter_value(self, made: list[tuple[ClassInfo, str, ast.Call]]) -> TensorValue:
        """``self.w``, made a ``Parameter(...)`` by every assignment: a tensor the graph holds as
        a variable, with the dtype and shape of its one initial value where the interpreter knows
        them (``Parameter(Tensor(np.ones((2, 3)), ms.float32))``)."""
        initial: Value = UNKNOWN
        if len(made) == 1 and made[0][2].args:
            cls, method, call = made[0]
            initial = self.driver_value(call.args[0], (cls.module, cls.methods[method]), 0)
        if is_tensor_value(initial):
            return TensorValue(False, initial.dtype, initial.shape, ndim=initial.ndim,
                               parameter=True)
        return TensorValue(False, parameter=True)

    def unpacks_tensor(self, cls, attr: str, value: ast.expr) -> bool:
        """``self.a, self.b = self._make(n)`` in ``__init__`` where every return of ``_make``
        is a tuple whose item at ``self.a``'s place is a name bound only to ``Tensor(...)``."""
        init = cls.methods["__init__"]
        if value.__class__ is not ast.Call or value.func.__class__ is not ast.Attribute:
            return False
        assign = next((node for node in cls.module.nodes(init)
                       if node.__class__ is ast.Assign and node.value is value), None)
        if assign is None or len(assign.targets) != 1 or assign.targets[0].__class__ is not ast.Tuple:
            return False
        place = next((i for i, element in enumerate(assign.targets[0].elts)
                      if element.__class__ is ast.Attribute and element.attr == attr), None)
        self_name = init.args.args[0].arg if init.args.args else None
        receiver = value.func.value
        method = (self.model.find_method(cls, value.func.attr)
                  if receiver.__class__ is ast.Name and receiver.id == self_name else None)
        if place is None or method is None:
            return False
        owner, method_node = method
        module = owner.module
        returns = [node.value for node in module.nodes(method_node) if node.__class__ is ast.Return]
        if not returns or not all(r.__class__ is ast.Tuple and len(r.elts) > place
                                  and r.elts[place].__class__ is ast.Name for r in returns):
            return False
        nodes = list(module.nodes(method_node))
        for name in {r.elts[place].id for r in returns}:
            # Every binding of the name is `name = Tensor(...)`: no parameter, unpacking or loop.
            stores = sum(1 for node in nodes if node.__class__ is ast.Name and node.id == name
                         and node.ctx.__class__ is ast.Store)
            values = [node.value for node in nodes if node.__class__ is ast.Assign
                      and len(node.targets) == 1 and node.targets[0].__class__ is ast.Name
                      and node.targets[0].id == name]
            arguments = method_node.args
            params = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
            if (not values or stores != len(values) or name in params
                    or not all(_builds_tensor(v, module) for v in values)):
                return False
        return True

    def passed_value(self, passed: list) -> Value:
        """The one value every construction passes (``Net(data)`` in a driver), else unknown."""
        values = [self.driver_value(site.expr, (site.module, site.function), 0)
                  if site.function is not None else self.constant(site.expr, 0) for site in passed]
        first = values[0]
        return first if all(value == first for value in values[1:]) else UNKNOWN

    def instance_of(self, call: ast.expr, module: ModuleInfo, function: ast.AST | None) -> Value:
        """What ``call``, written in ``function`` (None: at module level) of ``module``, builds
        when it is an object whose attributes are all known (ObjectValue), else unknown."""
        if call.__class__ is not ast.Call:
            return UNKNOWN
        func = call.func
        if func.__class__ is ast.Name:
            made = (single_assignment(module, function, func.id) if function is not None
                    else _only_value(module.assignments.get(func.id)))
            if made is not None:  # Data = namedtuple("Data", ["a", "b"]); Data(1, 2)
                fields = namedtuple_fields(made, module)
                return UNKNOWN if fields is None else ObjectValue(
                    func.id, fields | NAMEDTUPLE_ATTRIBUTES, fixed=True)
        scope = (*module.scope_of(function), function) if function is not None else ()
        if (func.__class__ is ast.Name and function is not None
                and func.id in function_syntax(module, function).local_names
                and not isinstance(module.visible_definition(func.id, scope), ast.ClassDef)):
            return UNKNOWN  # a parameter or a name bound several times: not a class
        cls = self.model.class_named(func, module, scope)
        if cls is None:
            return UNKNOWN
        if any(module.imports.qualify(base) == NAMEDTUPLE_BASE for base in cls.node.bases):
            fields = {statement.target.id for statement in cls.node.body
                      if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)}
            return ObjectValue(cls.name, frozenset(fields) | cls.body_names | frozenset(cls.methods)
                               | NAMEDTUPLE_ATTRIBUTES, fixed=True)
        attributes = instance_attributes(self.model, self.model.mro(cls))
        if attributes is None or self.model.subclasses(cls, module.path):
            return UNKNOWN
        return ObjectValue(cls.name, attributes | self.model.project.externally_set(module.path),
                           cell=self.model.is_cell(cls),
                           values=self.attribute_values(cls, call, (module, function)))

    def attribute_values(self, cls: ClassInfo, call: ast.Call,
                         site: tuple[ModuleInfo, ast.AST | None]) -> tuple[tuple[str, Value], ...]:
        """The attributes of what ``call`` builds whose value is known while compiling: set
        once, in the ``__init__`` the call runs and nowhere else (no other method, helper,
        MindSpore base or outside code), to a literal or to an ``__init__`` parameter not bound
        again, given by the call a constant (or left to its default), that the attribute keeps
        (``kept_constant``)."""
        located = self.model.find_method(cls, "__init__")
        if located is None or any(a.__class__ is ast.Starred for a in call.args) or any(
                k.arg is None for k in call.keywords):
            return ()  # no project __init__, or arguments unpacked: which parameter gets what?
        owner, init = located
        classes = self.model.mro(cls)
        assigned: dict[str, list[tuple[ast.AST, ast.expr]]] = {}
        for klass in classes:
            for method, pairs in klass.method_self_assignments.items():
                for attr, value in pairs:
                    assigned.setdefault(attr, []).append((klass.methods.get(method), value))
        elsewhere = frozenset().union(*(helper_assignments(self.model, klass)
                                        | mindspore_base_attributes(self.model, klass)
                                        for klass in classes))
        if self.model.is_cell(cls):
            elsewhere |= CELL_ATTRIBUTES  # nn.Cell's own methods set them (set_train: training)
        arguments = init.args
        parameters = {p.arg for p in [*arguments.posonlyargs, *arguments.args][1:]
                      + arguments.kwonlyargs}
        rebound = function_syntax(owner.module, init).bound
        passed = dict(bind_arguments(call, init, True))
        defaults = parameter_defaults(init)
        module, function = site
        found: list[tuple[str, Value]] = []
        for attr, places in sorted(assigned.items()):
            if len(places) != 1 or places[0][0] is not init or attr in elsewhere:
                continue
            value = places[0][1]
            if value.__class__ is ast.Name and value.id in parameters and value.id not in rebound:
                if value.id in passed:
                    argument = passed[value.id]
                    made = (self.driver_value(argument, (module, function), 0)
                            if function is not None else self.constant(argument, 0))
                else:
                    made = self.constant(defaults[value.id], 0) if value.id in defaults else UNKNOWN
            else:
                made = self.constant(value, 0)
            if kept_constant(made) and not set_from_outside(self.model, attr, module):
                found.append((attr, made))
        return tuple(found)

    def slice_constant(self, call: ast.Call) -> Value:
        parts = [self.constant(a, 0) for a in call.args]
        if not call.keywords and 1 <= len(parts) <= 3 and all(is_known(p) for p in parts):
            return Known(slice(*(p.value for p in parts)))
        return UNKNOWN

    def constant(self, expr: ast.expr, depth: int) -> Value:
        """A constant expression written outside the function (a closure's or module's)."""
        if depth > MAX_CONSTANT_DEPTH:
            return UNKNOWN
        match expr:
            case ast.Constant(value=value):
                return known(value)
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                values = [self.constant(e, depth + 1) for e in elements]
                if all(is_known(v) for v in values):
                    items = [v.value for v in values]
                    return known(tuple(items) if isinstance(expr, ast.Tuple) else items)
            case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=value)) if isinstance(
                    value, (int, float)) and not isinstance(value, bool):
                return known(-value)
            case ast.Dict(keys=keys, values=items) if None not in keys:
                pairs = [(self.constant(k, depth + 1), self.constant(v, depth + 1))
                         for k, v in zip(keys, items)]
                if all(is_known(k) and is_known(v) for k, v in pairs):
                    try:
                        return known({k.value: v.value for k, v in pairs})
                    except TypeError:
                        return UNKNOWN
        return UNKNOWN

    def driver_value(self, expr: ast.expr, driver: tuple[ModuleInfo, ast.AST], depth: int) -> Value:
        """What a plain-Python caller passes: a constant, or a tensor it builds."""
        module, function = driver
        if depth > MAX_CONSTANT_DEPTH:
            return UNKNOWN
        if isinstance(expr, ast.Name):
            value = single_assignment(module, function, expr.id)
            made = self.driver_value(value, driver, depth + 1) if value is not None else UNKNOWN
            return _unless_changed(made, module, function, expr.id)
        if _builds_tensor(expr, module):
            data = self.driver_value(expr.args[0], driver, depth + 1) if expr.args else UNKNOWN
            if module is self.module:
                made = self.tensor(expr, [data, *[UNKNOWN for _ in expr.args[1:]]])
                return TensorValue(False, made.dtype, made.shape)
            return TensorValue(constant=False)
        if (isinstance(expr, ast.Call) and module is self.module
                and module.imports.qualify(expr.func) in NUMPY_BUILDERS):
            args = [self.driver_value(a, driver, depth + 1) for a in expr.args]
            return self.array(expr, module.imports.qualify(expr.func), args)
        if expr.__class__ is ast.Call and module.imports.qualify(expr.func) in VARIABLE_MAKERS:
            return self.driver_variable(expr, driver, depth)
        if expr.__class__ is ast.Call:
            return self.instance_of(expr, module, function)
        found = self.constant(expr, depth)
        if found is UNKNOWN and expr.__class__ in (ast.List, ast.Tuple) and not any(
                e.__class__ is ast.Starred for e in expr.elts):
            return SequenceValue(list if expr.__class__ is ast.List else tuple, len(expr.elts))
        return found

    def value_of(self, node: ast.expr) -> Value:
        """The value already evaluated for a node (keywords are evaluated with their call)."""
        return self.result.value(node)


EXPRESSION_HANDLERS = {
    # names and constants are handled in Expressions.expr itself
    ast.Attribute: Expressions._attribute, ast.Call: Expressions._call, ast.BinOp: Expressions._binop,
    ast.Subscript: Expressions._subscript, ast.Tuple: Expressions._sequence,
    ast.List: Expressions._sequence, ast.Compare: Expressions._compare,
    ast.UnaryOp: Expressions._unaryop, ast.BoolOp: Expressions._boolop, ast.Dict: Expressions._dict,
    ast.IfExp: Expressions._ifexp, ast.Slice: Expressions._slice,
    ast.NamedExpr: Expressions._namedexpr, ast.Starred: Expressions._inner_values,
    ast.JoinedStr: Expressions._inner_values, ast.FormattedValue: Expressions._inner_values,
}
