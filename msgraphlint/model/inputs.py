"""What a root is given: an input spec for each of its parameters (the tensor its driver builds,
or what the first layer the input reaches takes), and the Cells a class holds."""

from __future__ import annotations

import ast

from ..knowledge.mindspore import (
    LAYER_INPUTS, LAYER_INPUT_BATCH, LAYER_INPUT_SPATIAL, is_mindspore_cell_name,
)
from ..syntax.project import ClassInfo
from .variables import function_syntax
from .compiled import Literal, Target, parameter_defaults
from .callers import _self_calls_carrying, _tensor_spec, _unpacked_rank


class InputSpecs:
    """One concern of ReachModel (model/reach.py), whose caches and memo it uses."""

    def input_specs(self, target: Target) -> tuple[str | None, ...]:
        """An input spec (``float32[2,3,8,8]``) for each required positional parameter of a
        root, as the project shows it: the tensor its Python driver builds and passes (a literal
        shape), else, for a Cell, what the first layer the input reaches takes (``nn.Conv2d(3,
        ...)``: a batch of 3-channel images). None for a parameter nothing shows."""
        return self.memo(self.table("input_specs"), id(target.node),
                         lambda: self._find_input_specs(target))

    def _find_input_specs(self, target: Target) -> tuple[str | None, ...]:
        node = target.node
        positional = [*node.args.posonlyargs, *node.args.args][1 if target.cell else 0:]
        required = [p.arg for p in positional[:len(positional) - len(node.args.defaults)]]
        passed = self.driver_arguments(target)
        found = self.driver_calls(target)
        specs = []
        for param in required:
            spec = None
            if param in passed and found is not None:
                spec = _tensor_spec(passed[param], found[0], found[1])
            if spec is None and target.cell is not None:
                spec = self._layer_input(target, param, self._input_rank(target, param))
            specs.append(spec)
        return tuple(specs)

    def _layer_input(self, target: Target, param: str, rank: int | None) -> str | None:
        """The input the first known layer that ``param`` flows into takes, in statement order
        (a value computed from the parameter carries it on)."""
        for attr, _ in _self_calls_carrying(target.node, param):
            if (spec := self._layer_spec(target.cell, attr, rank)) is not None:
                return spec
        return None

    def _layer_spec(self, cls: ClassInfo, attr: str, rank: int | None) -> str | None:
        for owner in self.mro(cls):
            for value in owner.self_assignments.get(attr, ()):
                if not isinstance(value, ast.Call):
                    continue
                layer = LAYER_INPUTS.get(owner.module.imports.qualify(value.func) or "")
                if layer is None:
                    # A project sub-Cell: what its own construct takes.
                    if (spec := self._sub_cell_input(value, owner)) is not None:
                        return spec
                    continue
                name, position, layer_rank, last = layer
                argument = next((k.value for k in value.keywords if k.arg == name), None)
                if argument is None and position < len(value.args):
                    argument = value.args[position]
                count = self._init_literal(cls, owner, argument)
                if isinstance(count, tuple) and count:  # normalized_shape=(width,)
                    count = count[-1]
                if isinstance(count, int) and not isinstance(count, bool) and count > 0:
                    # The rank the code unpacks (`batch, length, width = x.shape`) wins where the
                    # layer takes any rank (Dense on a sequence).
                    size = rank if last and rank and rank >= 2 else layer_rank
                    middle = [LAYER_INPUT_SPATIAL] * (size - 2)
                    dims = ([LAYER_INPUT_BATCH, *middle, count] if last
                            else [LAYER_INPUT_BATCH, count, *middle])
                    return f"float32[{','.join(map(str, dims))}]"
        return None

    def _sub_cell_input(self, call: ast.Call, owner: ClassInfo) -> str | None:
        for sub in self._project_cells_built(call, owner):
            if (root := self.construct_root(sub)) is None or id(sub) in self._input_pending:
                continue
            self._input_pending.add(id(sub))
            try:
                specs = self.input_specs(root)
                return specs[0] if specs else None
            finally:
                self._input_pending.discard(id(sub))
        return None

    def _project_cells_built(self, call: ast.Call, owner: ClassInfo) -> list[ClassInfo]:
        """The project Cell a call builds, or for a container MindSpore ships
        (``nn.SequentialCell([Block(w) for ...])``) the first project Cell built in its
        arguments: the one the container's input reaches first."""
        sub = self.class_named(call.func, owner.module, owner.scope)
        if sub is not None:
            return [sub] if self.is_cell(sub) else []
        if not is_mindspore_cell_name(owner.module.imports.qualify(call.func) or ""):
            return []
        for inner in (n for a in call.args for n in ast.walk(a) if isinstance(n, ast.Call)):
            sub = self.class_named(inner.func, owner.module, owner.scope)
            if sub is not None and self.is_cell(sub):
                return [sub]
        return []

    def cells_held(self, cls: ClassInfo) -> list[ClassInfo]:
        """The project Cells ``cls`` builds into its attributes (``self.attn = Attention(w)``,
        or inside a container MindSpore ships): they are compiled inside its construct."""
        held: list[ClassInfo] = []
        for values in cls.self_assignments.values():
            for value in values:
                if isinstance(value, ast.Call):
                    held.extend(sub for sub in self._project_cells_built(value, cls)
                                if sub not in held)
        return held

    def construct_root(self, cls: ClassInfo) -> Target | None:
        return next((root for root in self.targets(cls.module)
                     if root.cell is cls and root.node.name == "construct"), None)

    def _input_rank(self, target: Target, param: str) -> int | None:
        """The rank the code shows a Cell's input has: unpacked in its construct (``batch,
        length, width = x.shape``), or in the construct of the first project sub-Cell the input
        (or a value computed from it) is passed to (a layer passes a parent's input on)."""
        rank = _unpacked_rank(target.node, param)
        if rank is not None or target.cell is None or id(target.node) in self._input_pending:
            return rank
        self._input_pending.add(id(target.node))
        try:
            for attr, call in _self_calls_carrying(target.node, param, nested=True):
                for sub in self._held_project_cells(target.cell, attr):
                    root = self.construct_root(sub)
                    params = [*root.node.args.posonlyargs, *root.node.args.args][1:] if root else []
                    if params and (rank := self._input_rank(root, params[0].arg)) is not None:
                        return rank
            return None
        finally:
            self._input_pending.discard(id(target.node))

    def _held_project_cells(self, cls: ClassInfo, attr: str) -> list[ClassInfo]:
        return [sub for owner in self.mro(cls) for value in owner.self_assignments.get(attr, ())
                if isinstance(value, ast.Call) for sub in self._project_cells_built(value, owner)]

    def _init_literal(self, cls: ClassInfo, owner: ClassInfo, argument: ast.expr | None) -> Literal:
        """A constructor argument's value: a literal, or a parameter of the class's own
        ``__init__`` that the project's construction (or its default) gives a literal."""
        if argument is None:
            return None
        try:
            return ast.literal_eval(argument)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        if isinstance(argument, ast.Tuple):  # (width,)
            items = tuple(self._init_literal(cls, owner, item) for item in argument.elts)
            return None if None in items else items
        if not isinstance(argument, ast.Name) or owner is not cls or "__init__" not in cls.methods:
            return None
        init = cls.methods["__init__"]
        if argument.id in function_syntax(cls.module, init).bound:
            return None
        passed = self.construction_arguments(cls) or {}
        if argument.id in passed:
            return passed[argument.id]
        default = parameter_defaults(init).get(argument.id)
        try:
            return ast.literal_eval(default) if default is not None else None
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
