"""What each value of a compiled function is: a tensor (and whether it may hold several
elements), a Python literal of some type, None, a graph input, or unknown.

This is the engine's one answer to "is this a tensor?", asked by every rule family through
``FunctionContext.kinds`` (TensorKinds). It reads the interpreter's values at every
sub-expression first, then the constants-versus-variables model (``model/variables.py``) and
MindSpore's facts (``knowledge/mindspore.py``); no family keeps an answer of its own.

- ``TensorKinds.kind``: MULTI (a tensor that carries an input or a Parameter elementwise, so may
  hold several elements: what makes a tensor used as a Python bool ambiguous), TENSOR, INPUT (a
  graph input of unknown structure: a tensor or a tuple of them) or not known.
- ``value_kind`` and ``is_tensor_condition``: the same kinds as the branch joins and the outputs
  see them, with a literal's own kind (what the compiler joins when an ``if`` on a tensor merges
  two branches).
- ``join_kinds``: the one join of kinds, for branches, a name's bindings and what callers pass.

Unknown says nothing: precision first.
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import Protocol

from ..model.attributes import held_call_names
from ..knowledge.mindspore import (
    AXIS_KEYWORDS, BATCH_LAYERS, NN_PARAMETER_NAMES, NON_TENSOR_METHODS, REDUCTIONS,
    SAME_SIZE_ATTRIBUTES, SCALAR_RESULTS, SPARSE_TENSOR_CLASSES, TENSOR_CONSTRUCTORS,
    TENSOR_EVIDENCE, TENSOR_EVIDENCE_READ, TENSOR_METHOD_REDUCTIONS, returns_tensor,
)
from ..model.compiled import CompiledFunction, bind_arguments
from ..model.reach import ReachModel
from ..model.scope import FunctionScope
from ..model.variables import NOT_DATA_COMPARISONS, FunctionValues
from .domain import (
    Kind, Known, element_count, is_array_value, is_known, is_tensor_value, join_kinds, kind_of,
)
from .interpret import Evaluation, evaluation, self_attribute_value

# A read inside one of these may run after a later rebinding of the name (the loop's next
# round, the function's or comprehension's later call).
LOOPS = (ast.For, ast.AsyncFor, ast.While)
NESTED_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
                    ast.DictComp, ast.GeneratorExp)


class ValueScope(FunctionScope, Protocol):
    """A compiled function as TensorKinds asks of it: the engine's FunctionContext, or a
    FunctionView of a caller's function; with the whole model and the interpreter's values."""

    @property
    def model(self) -> ReachModel: ...

    @property
    def evaluation(self) -> Evaluation: ...


MULTI, TENSOR, PENDING, INPUT = Kind.MULTI, Kind.TENSOR, Kind.PENDING, Kind.INPUT
NUMBER_KINDS = frozenset({Kind.INT, Kind.FLOAT, Kind.BOOL})
# Deepest expression or chain of names followed (deep expressions are valid Python: past this the
# answer is unknown rather than a deeper recursion).
MAX_NAME_CHAIN = 8
MAX_EXPRESSION_DEPTH = 50


# ----- the kinds branches join -----------------------------------------------------------------


def is_tensor_condition(test: ast.expr, kinds: TensorKinds, depth: int = 0) -> bool:
    """Whether an if-test is a tensor, which type inference cannot fold: then both branches are
    compiled and their values joined. Bare parameters are not enough (construct may receive
    Python numbers, which are constants)."""
    values = kinds.values
    if depth > MAX_NAME_CHAIN or not kinds.ctx.is_variable(test):
        return False
    match test:
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return is_tensor_condition(operand, kinds, depth + 1)
        case ast.BoolOp(values=operands):
            return any(is_tensor_condition(operand, kinds, depth + 1) for operand in operands)
        case ast.Compare() | ast.Call():
            return kinds.is_tensor(test)
        case ast.Name(id=name):
            assigned = values.assigned_values(name)
            return bool(assigned) and all(
                is_tensor_condition(value, kinds, depth + 1) or kinds.is_tensor(value)
                for value in assigned
            )
    return False


def is_input(node: ast.expr, fv: FunctionValues) -> bool:
    """A parameter without a default value that receives a variable: an input of a root, or a
    helper's parameter some compiled caller passes a variable to. Parameters with defaults are
    often settings or shapes, so they are not counted."""
    if not isinstance(node, ast.Name) or fv.self_name == node.id:
        return False
    args = fv.node.args
    positional = [*args.posonlyargs, *args.args]
    without_default = positional[: len(positional) - len(args.defaults)]
    without_default += [a for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
    return node.id in {a.arg for a in without_default} and node.id in fv.names


def literal_kind(node: ast.expr | None) -> Kind | None:
    match node:
        case None:
            return Kind.NONE
        case ast.Constant(value=None | bool() | int() | float() | str() as value):
            return kind_of(Known(value))
        case ast.UnaryOp(op=ast.USub() | ast.UAdd(), operand=ast.Constant(value=int() | float())):
            return literal_kind(node.operand)
        case ast.Tuple():
            return Kind.TUPLE
        case ast.List():
            return Kind.LIST
    return None


def value_kind(node: ast.expr | None, kinds: TensorKinds, roots: bool) -> Kind:
    """NONE, a literal's kind, TENSOR, INPUT (``roots``: a parameter is an input, and so is what
    an operation may keep a tuple: ``x * 2``) or UNKNOWN. A tensor built from constants
    (``Tensor([1, 2])``, ``ops.zeros((2,))``) is a tensor too: it joins with a Python value no
    better than a computed one (probed with 2.10). Where the interpreter's values hold the node,
    they decide: a tensor, or the kind of the constant it is while compiling (``self.k`` set to 3
    by every construction: an int)."""
    kind = literal_kind(node)
    if kind is not None:
        return kind
    if node is None:
        return Kind.UNKNOWN
    value = kinds.ctx.evaluation.value(node)
    if is_tensor_value(value) or is_known(value):
        return kind_of(value)
    kind = kinds.kind(node)
    if kind in (MULTI, TENSOR):
        return Kind.TENSOR
    return Kind.INPUT if roots and (kind == INPUT or is_input(node, kinds.values)) else Kind.UNKNOWN


# ----- tensors and their sizes -----------------------------------------------------------------


class FunctionView:
    """What TensorKinds asks of a compiled function, from the model alone: the engine's
    FunctionContext for the function being walked, and its callers' when a helper's parameters
    take what they pass."""

    def __init__(self, model: ReachModel, function: CompiledFunction):
        self.model, self.function, self.module = model, function, function.module
        self.owner = function.owner

    @property
    def values(self) -> FunctionValues:
        return self.model.values(self.function)

    @property
    def evaluation(self) -> Evaluation:
        return evaluation(self.model, self.function)

    def is_self(self, node: ast.expr) -> bool:
        return self.values.is_self(node)

    def is_variable(self, node: ast.expr | None) -> bool:
        return self.evaluation.is_variable(node, self.values)

    def qualify(self, node: ast.expr) -> str | None:
        return self.module.imports.qualify(node)


def kinds_of(model: ReachModel, function: CompiledFunction) -> TensorKinds:
    """The one TensorKinds of a compiled function (kept in the model's memo)."""
    return model.memo(model.table("kinds"), id(function),
                      lambda: TensorKinds(FunctionView(model, function)))


class TensorKinds:
    """Which expressions of one compiled function are certainly tensors (TENSOR), and which may
    hold more than one element (MULTI): those that carry an input or a Parameter elementwise."""

    def __init__(self, ctx: ValueScope):
        self.values: FunctionValues = ctx.values
        self.ctx = ctx
        self._names: dict[str, Kind | None] = {}
        self._evidence: set[str] | None = None
        self._passing = False  # asking the callers (a cycle through recursion adds nothing)
        self._passed: dict[str, Kind] = {}  # parameters every compiled call passes a tensor

    def is_tensor(self, node: ast.expr) -> bool:
        return self.kind(node) in (MULTI, TENSOR)

    def element_count(self, node: ast.expr) -> int | None:
        """How many elements a tensor expression holds, where the interpreter knows its shape."""
        value = self.ctx.evaluation.value(node)
        return element_count(value.shape) if is_tensor_value(value) else None

    def sparse_class(self, node: ast.expr) -> str | None:
        """"COOTensor", "CSRTensor" or "RowTensor" where the code shows ``node`` built as one: a
        call of the class, a local every binding of which is one, ``self.<attr>`` every
        assignment of which (outside compiled code) is one; None otherwise."""
        if node.__class__ is ast.Call:
            return SPARSE_TENSOR_CLASSES.get(self.ctx.qualify(node.func) or "")
        if node.__class__ is ast.Name:
            found = {self.sparse_class(v) for v in self.values.assigned_values(node.id)}
        elif node.__class__ is ast.Attribute and self.values.is_self(node.value):
            found = {SPARSE_TENSOR_CLASSES.get(name or "") for name in held_call_names(self.ctx, node.attr)}
        else:
            return None
        return found.pop() if len(found) == 1 else None

    def is_input_or_weight(self, node: ast.expr) -> bool:
        """A value from the inputs (a variable), or a weight of a layer the Cell holds
        (``self.fc.weight``): what a PyTorch habit such as ``x.cuda()`` is called on."""
        if self.ctx.is_variable(node):
            return True
        return (isinstance(node, ast.Attribute) and node.attr in NN_PARAMETER_NAMES
                and isinstance(node.value, ast.Attribute) and self.values.is_self(node.value.value))

    def kind(self, node: ast.expr, depth: int = 0) -> Kind | None:
        if depth > MAX_EXPRESSION_DEPTH:
            return None
        ctx = self.ctx
        # What the interpreter knows decides first: a tensor of a known shape, or a value that
        # is no graph tensor (a Python constant, a numpy array).
        value = ctx.evaluation.value(node)
        if is_tensor_value(value):
            count = element_count(value.shape)
            if count is not None:
                return MULTI if count > 1 else TENSOR
        elif is_known(value) or is_array_value(value):
            return None
        match node:
            case ast.Name(id=name):
                kind = self._name_kind(name, depth)
                if kind is None and self._reads_parameter_itself(node):
                    return self._passed.get(name, MULTI)  # read before the rebinding that hid it
                if kind is None and name not in self.values.bound and is_input(node, self.values):
                    return INPUT
                return kind
            case ast.Attribute(value=value, attr=attr):
                if ctx.is_self(value):
                    # A Parameter or Tensor(...) of the Cell (the interpreter's value), or an
                    # argument checked to be one: a tensor, of a size not known here. Scalar
                    # Parameters (step counters, loss scales) are tested in `if` all the time
                    # and compile (mindocr's `if self.cur_accu_step % self.grad_accu_steps == 0`).
                    held = (is_tensor_value(self_attribute_value(ctx.model, ctx.function, attr))
                            or attr in self.values.tensor_attrs)
                    return TENSOR if held else None
                if attr in SAME_SIZE_ATTRIBUTES:
                    return self.kind(value, depth + 1)
                return None
            case ast.Subscript(value=value):
                # x[i] may pick one element (`if mask[0]:`): a tensor, size unknown. An input's
                # item is a tensor or a tuple's element: not known.
                inner = self.kind(value, depth + 1)
                return TENSOR if inner in (MULTI, TENSOR) else inner if inner == PENDING else None
            case ast.BinOp(left=left, op=op, right=right):
                if isinstance(left, ast.Constant) and isinstance(left.value, str):
                    return None  # "%s" % x
                kinds = [self.kind(left, depth + 1), self.kind(right, depth + 1)]
                if INPUT in kinds and MULTI not in kinds and TENSOR not in kinds:
                    # A tensor or a tuple of them: `x + y` and `x * 2` may be a tuple too, and
                    # `x + 1` is a tensor (a tuple takes no number there).
                    if kinds == [INPUT, INPUT] or isinstance(op, ast.Mult):
                        return INPUT
                    if PENDING in kinds:
                        return PENDING
                    return TENSOR if self._is_number(right if kinds[0] == INPUT else left) else None
                return operation_kind(*kinds)
            case ast.Compare(left=left, ops=ops, comparators=comparators):
                if any(isinstance(op, NOT_DATA_COMPARISONS) for op in ops) or any(
                    isinstance(part, ast.Constant) and part.value is None for part in comparators
                ):
                    return None  # `x is None`, `x == None`, `k in d`: Python booleans
                kinds = [self.kind(part, depth + 1) for part in (left, *comparators)]
                if INPUT in kinds and MULTI not in kinds and TENSOR not in kinds:
                    # An input compared with a number is a tensor (a tuple takes no number
                    # there); with anything else it may be tuples compared while compiling.
                    if PENDING in kinds:
                        return PENDING
                    parts = [part for part, kind in zip((left, *comparators), kinds) if kind != INPUT]
                    return TENSOR if parts and all(map(self._is_number, parts)) else None
                return operation_kind(*kinds)
            case ast.UnaryOp(op=op, operand=operand):
                return None if isinstance(op, ast.Not) else operation_kind(self.kind(operand, depth + 1))
            case ast.IfExp(body=body, orelse=orelse):
                return join_kinds([self.kind(body, depth + 1), self.kind(orelse, depth + 1)])
            case ast.Call():
                return self._call_kind(node, depth)
        return None

    def _is_number(self, node: ast.expr) -> bool:
        """A Python number written in the source or known while compiling."""
        return (literal_kind(node) in NUMBER_KINDS
                or kind_of(self.ctx.evaluation.value(node)) in NUMBER_KINDS)

    def _name_kind(self, name: str, depth: int) -> Kind | None:
        if name in self._names:
            return self._names[name]
        self._names[name] = PENDING  # a cycle (x = x / 2) adds nothing to the other bindings
        values = self.values
        if name in self.tensor_parameters:
            # An input shown to be a tensor; rebinding it (x = x * 2) keeps it one only if every
            # rebinding is a tensor too (x = self.layer(x) may be anything).
            rebound = values.bound.get(name, [])
            kinds = [self.kind(v, depth + 1) if v is not None else None for v in rebound]
            passed = self.ctx.evaluation.parameters.get(name)
            one = (not rebound and is_tensor_value(passed)
                   and element_count(passed.shape) == 1)  # a driver's Tensor([1.0])
            # What the compiled callers pass it: a tensor of unknown size stays one.
            given = self._passed.get(name, MULTI) if not rebound else MULTI
            kind = (TENSOR if one else given) if all(
                k in (MULTI, TENSOR, PENDING) for k in kinds) else None
        elif assigned := values.assigned_values(name):
            kind = join_kinds([self.kind(v, depth + 1) for v in assigned])
            kind = None if kind == PENDING else kind
        else:
            kind = None
        self._names[name] = kind
        return kind

    def _call_kind(self, node: ast.Call, depth: int) -> Kind | None:
        func = node.func
        qualified = self.ctx.qualify(func)
        if qualified is not None:
            if qualified in TENSOR_CONSTRUCTORS:
                return TENSOR  # Tensor(...): the size depends on data we do not read
            if not returns_tensor(qualified):
                # builtins (int, len, ...), numpy, project functions, primitive classes, tuples
                # and Python values of mindspore.ops: not one tensor, or not known to be
                return None
            last = qualified.rsplit(".", 1)[-1]
            if last in SCALAR_RESULTS or (
                last in REDUCTIONS and _reduces_everything(node, tensor_arguments=1)
            ):
                return TENSOR
            # Elementwise on a tensor that may hold several elements keeps several; on anything
            # else the size is unknown (mindspore.scipy's line search runs logical_not on scalars).
            kinds = [self.kind(argument, depth + 1) for argument in node.args]
            kinds += [self.kind(keyword.value, depth + 1) for keyword in node.keywords]
            return PENDING if PENDING in kinds and MULTI not in kinds else (
                MULTI if MULTI in kinds else TENSOR
            )
        if isinstance(func, ast.Attribute) and self.ctx.is_self(func.value):
            # self.fc(x) with self.fc = nn.Dense(...): one tensor shaped like a batch of outputs.
            built = held_call_names(self.ctx, func.attr) if self.ctx.owner is not None else set()
            return MULTI if built and all(n in BATCH_LAYERS for n in built) else None
        if isinstance(func, ast.Attribute):
            receiver = self.kind(func.value, depth + 1)
            if receiver in (None, PENDING) or func.attr in NON_TENSOR_METHODS:
                return receiver if receiver == PENDING else None
            if receiver == INPUT:
                return None  # an input's method: the input may be any object a caller passes
            if func.attr in SCALAR_RESULTS or (
                func.attr in TENSOR_METHOD_REDUCTIONS and _reduces_everything(node, 0)
            ):
                return TENSOR
            return receiver  # elementwise, reshaped, or reduced along an axis: as many or fewer
        return None

    @property
    def tensor_parameters(self) -> set[str]:
        """Parameters of which the function reads a tensor-only attribute or method (``.shape``,
        ``.dtype``, ``.sum()``, ``.reshape()``...): no tuple, list or number has one."""
        if self._evidence is None:
            values = self.values
            node = values.node
            params = {
                a.arg
                for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
                if a.arg != values.self_name
            }
            found: set[str] = set()
            for child in self.ctx.module.body_nodes(node):
                if not isinstance(child, ast.Attribute):
                    continue
                name = _array_indexed(child.value) if child.attr in TENSOR_EVIDENCE else None
                if name in params:
                    # x[:, t].unsqueeze(1): only arrays take a tuple index holding a slice (a
                    # tuple's or list's index is an int, a dict cannot hash the slice), and an
                    # array a compiled function is given is a Tensor (as for x.sum() below)
                    parent = values.parent(child)
                    if isinstance(parent, ast.Call) and parent.func is child:
                        found.add(name)
                    continue
                if not isinstance(child.value, ast.Name):
                    continue
                name = child.value.id
                if name not in params:
                    continue
                if child.attr in TENSOR_EVIDENCE_READ:
                    found.add(name)
                elif child.attr in TENSOR_EVIDENCE:
                    # Methods count only when called: `cfg.mean` may be a config's number.
                    parent = values.parent(child)
                    if isinstance(parent, ast.Call) and parent.func is child:
                        found.add(name)
            # What the callers pass: a driver's Tensor(...) (the interpreter's values), or a
            # tensor every compiled call of a helper passes.
            found.update(name for name, value in self.ctx.evaluation.parameters.items()
                         if is_tensor_value(value) and name in params)
            self._evidence = found
            self._passed = self._passed_kinds(params - found)
            found.update(self._passed)
        return self._evidence

    def _reads_parameter_itself(self, node: ast.Name) -> bool:
        """Whether ``node`` reads a parameter shown to be a tensor while it still holds what was
        passed: before the first statement that rebinds it (``x = P.Transpose()(x, perm)`` may be
        anything), and not in a loop that reaches such a statement again. The evidence counts
        only when read the same way, so that ``x = f(x); x.shape`` shows nothing of the input."""
        if node.id not in self.tensor_parameters or node.id not in self._first_rebinding:
            return False
        return node.id in self._evidence_before_rebinding and self._before_rebinding(node)

    @cached_property
    def _first_rebinding(self) -> dict[str, int]:
        """Parameter -> the line of its first rebinding, for the parameters that have one."""
        first: dict[str, int] = {}
        for child in self.ctx.module.body_nodes(self.values.node):
            if child.__class__ is ast.Name and child.ctx.__class__ is not ast.Load:
                first[child.id] = min(first.get(child.id, child.lineno), child.lineno)
        return first

    @cached_property
    def _evidence_before_rebinding(self) -> set[str]:
        found = set()
        for child in self.ctx.module.body_nodes(self.values.node):
            if (child.__class__ is ast.Attribute and child.value.__class__ is ast.Name
                    and child.value.id in self._first_rebinding
                    and child.attr in TENSOR_EVIDENCE_READ
                    and self._before_rebinding(child.value)):
                found.add(child.value.id)
        return found

    def _before_rebinding(self, node: ast.Name) -> bool:
        rebound_at = self._first_rebinding[node.id]
        if node.lineno >= rebound_at:
            return False
        parent = self.values.parent(node)
        while parent is not None and parent is not self.values.node:
            if parent.__class__ in LOOPS and parent.end_lineno >= rebound_at:
                return False
            if parent.__class__ in NESTED_FUNCTIONS:
                return False  # run later, when the rebinding may have happened
            parent = self.values.parent(parent)
        return True

    def _passed_kinds(self, params: set[str]) -> dict[str, Kind]:
        """The parameters of a helper that every compiled call passes a tensor (in the caller's
        own kinds: ``forward(self, x)`` from a construct whose x a driver gives a tensor), with
        the join of what they pass (MULTI when any call may pass several elements)."""
        function = self.ctx.function
        if function.is_root or not function.callers or not params:
            return {}
        self._passing = True
        try:
            passed: dict[str, list[Kind | None]] = {param: [] for param in params}
            for caller, edge in function.callers:
                caller_kinds = kinds_of(self.ctx.model, caller)
                if caller_kinds._passing:
                    return {}  # recursion: what the cycle passes is not known
                bound = dict(bind_arguments(edge.call, edge.node, edge.binds_self))
                for param in params:
                    argument = bound.get(param)
                    passed[param].append(caller_kinds.kind(argument) if argument is not None
                                         else None)
            return {param: join_kinds(kinds) for param, kinds in passed.items()
                    if kinds and all(k in (MULTI, TENSOR) for k in kinds)}
        finally:
            self._passing = False


def _reduces_everything(node: ast.Call, tensor_arguments: int) -> bool:
    """x.sum(), ops.reduce_max(x): no axis given, one element left. x.sum(1) on a batch keeps
    the batch (`if logits.argmax(-1) == 1` fails for two samples)."""
    return len(node.args) <= tensor_arguments and not any(
        keyword.arg in AXIS_KEYWORDS
        and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
        for keyword in node.keywords
    )


def operation_kind(*operands: Kind | None) -> Kind | None:
    """What an operator gives on operands of these kinds: a tensor if any operand is one
    (several elements if any has several); PENDING where that is still being worked out; else
    not known. An input's own cases are the caller's: it may be a tuple."""
    if MULTI in operands:
        return MULTI
    if TENSOR in operands or (INPUT in operands and len(operands) == 1):
        return TENSOR  # -x, ~x: no tuple takes a unary operator
    return PENDING if PENDING in operands else None


def _array_indexed(node: ast.expr) -> str | None:
    """The name ``x`` of ``x[:, t]`` / ``x[..., 0]``: indexed by a tuple that holds a slice or
    an ellipsis."""
    if not (node.__class__ is ast.Subscript and node.value.__class__ is ast.Name
            and node.slice.__class__ is ast.Tuple):
        return None
    if any(part.__class__ is ast.Slice or (part.__class__ is ast.Constant and part.value is ...)
           for part in node.slice.elts):
        return node.value.id
    return None
