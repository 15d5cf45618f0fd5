"""Values of the wrong kind where the graph compiler settles types while compiling.

``isinstance`` whose second argument is not a type (a dtype such as ``ms.float32``, a string, a list,
a ``|`` union); ``range()`` of a tensor; a tuple or list indexed by a tensor; a tensor that may hold
several elements used as a Python boolean; a function, method, Cell or primitive returned from
construct. What the compiler does at each level is in msgraphlint/rules/types.toml.

What is a tensor is judged by :class:`TensorKinds`, stricter than "flows from the inputs": a
construct parameter may be a Python int or a tuple, so only values the code itself shows to be
tensors count: results of mindspore.ops and tensor methods, arithmetic on them, Parameters,
outputs of batch layers (nn.Dense, nn.Conv2d, ...), and parameters the function reads ``.shape``
or ``.dtype`` of or calls a tensor method on.
"""

from __future__ import annotations

import ast

from msgraphlint.analyze import Family, FunctionContext
from msgraphlint.attributes import attribute_assignments, held_call_names, held_class
from msgraphlint.interpret import TensorValue, evaluation
from msgraphlint.reach import NESTED_SCOPES
from msgraphlint.values import NOT_DATA_COMPARISONS, FunctionValues
# What goes back to Python from a return is decided as for strict-silent's dict returns.

ISINSTANCE_INSTEAD = "a type or a tuple of types"
DTYPE_INSTEAD = "x.dtype == <dtype> to compare dtypes"
UNION_INSTEAD = "the tuple %s"
RANGE_INSTEAD = "a shape (x.shape[0]), a constant, or int(%s)"
INDEX_INSTEAD = "ops.stack of the elements indexed by the tensor"
OUTPUT_INSTEAD = "return tensors only and call it inside the graph"
VALUE_CONSTRUCTORS = {"numpy.array": "numpy array", "numpy.asarray": "numpy array",
                      "numpy.zeros": "numpy array", "numpy.ones": "numpy array",
                      "mindspore.Tensor": "tensor"}
NONE_GRAPH_INSTEAD = "return a tensor (the input, or a flag) from the graph"
PERCENT_INSTEAD = "an f-string, or the tensor itself as the exception's argument"

# ----- data --------------------------------------------------------------------------------

# MindSpore dtypes are instances, not types (read from mindspore.common.dtype, MindSpore 2.10.0).
DTYPE_NAMES = frozenset(
    {
        "bfloat16", "bool", "bool_", "byte", "cdouble", "cfloat", "complex128", "complex64",
        "double", "float", "float16", "float32", "float64", "float8_e4m3fn", "float8_e5m2",
        "float_", "half", "hifloat8", "int", "int16", "int32", "int64", "int8", "int_", "intc",
        "intp", "list_", "long", "number", "qint4x2", "short", "single", "string", "tensor_type",
        "tuple_", "type_none", "ubyte", "uint", "uint16", "uint32", "uint64", "uint8", "uintc",
        "uintp", "ushort",
    }
)
DTYPE_MODULES = frozenset(
    {"mindspore", "mindspore.common", "mindspore.common.dtype", "mindspore.dtype"}
)
RANGE_CALLS = frozenset(
    {"builtins.range", "mindspore.ops.make_range", "mindspore.ops.functional.make_range"}
)
ISINSTANCE = "builtins.isinstance"
BOOL_CALL = "builtins.bool"
CHECKED_CALLS = RANGE_CALLS | {ISINSTANCE, BOOL_CALL}
# Modules whose lower-case functions return tensors (with the exceptions below).
TENSOR_FUNCTION_MODULES = ("mindspore.ops.", "mindspore.mint.", "mindspore.numpy.")
TENSOR_CONSTRUCTORS = frozenset({"mindspore.Tensor", "mindspore.tensor", "mindspore.Parameter"})
# Functions of those modules that return Python values, tuples or functions, not one tensor.
NON_TENSOR_FUNCTIONS = frozenset(
    {
        "shape", "rank", "size", "dtype", "typeof", "isconstant", "is_tensor", "isinstance_",
        "make_range", "grad", "value_and_grad", "vmap", "jvp", "vjp", "jacfwd", "jacrev",
        "hook", "print_", "constexpr", "primitive", "depend",
        # tuples of tensors
        "split", "tensor_split", "vsplit", "hsplit", "dsplit", "chunk", "unbind", "unstack",
        "meshgrid", "broadcast_tensors", "unique", "unique_consecutive", "unique_with_pad",
        "topk", "sort", "max", "min", "aminmax", "median", "mode", "kthvalue", "cummax",
        "cummin", "std_mean", "var_mean", "frexp", "slogdet", "svd", "eig", "eigh", "qr",
        "lu_unpack", "geqrf", "lstsq", "nonzero", "ctc_greedy_decoder", "sort_with_index",
    }
)
# mindspore.ops.functional's scalar, tuple and predicate helpers: F.tuple_len, F.scalar_add,
# F.make_tuple, ops.is_floating_point, ... give Python values.
NON_TENSOR_PREFIXES = (
    "is_", "tuple_", "list_", "dict_", "scalar_", "bool_", "string_", "make_", "shape_",
    "sequence_", "env_", "get_", "partial",
)
# Reductions: without an axis they leave one element, and tensor-as-bool has nothing to say.
REDUCTIONS = frozenset(
    {
        "sum", "mean", "prod", "all", "any", "amax", "amin", "argmax", "argmin", "std", "var",
        "logsumexp", "count_nonzero", "nansum", "nanmean", "reduce_sum", "reduce_mean",
        "reduce_max", "reduce_min", "reduce_prod", "reduce_all", "reduce_any",
    }
)
# Results that are (or are usually) one element whatever the arguments: norm(x, 2) takes an
# order, not an axis; dot of two vectors is a number.
SCALAR_RESULTS = frozenset(
    {"norm", "dot", "inner", "trace", "det", "equal_count", "is_close_all", "allclose",
     "equal_all", "numel"}
)
# Tensor methods that give back a Python value, a tuple or nothing tensor-like.
NON_TENSOR_METHODS = frozenset(
    {
        "item", "tolist", "asnumpy", "numpy", "dim", "ndimension", "numel", "nelement", "size",
        "stride", "is_contiguous", "is_floating_point", "is_complex", "is_signed", "has_init",
        "element_size", "data_ptr", "storage_offset", "init_data", "flush_from_cache",
        "split", "tensor_split", "chunk", "unbind", "topk", "sort", "median",
        "aminmax", "unique", "nonzero", "set_dtype", "assign_value", "__len__", "register_hook",
        "view_as_real",
    }
)
# mindspore.nn layers whose output is one tensor with the batch (and channel) dimensions of the
# input: a Dense(8, 1) on a batch of one is [1, 1], still no Python boolean.
BATCH_LAYERS = frozenset(
    f"mindspore.nn.{name}"
    for name in (
        "Dense", "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
        "Conv3dTranspose", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm",
        "InstanceNorm2d", "Embedding", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
    )
)
AXIS_KEYWORDS = frozenset({"axis", "dim", "axes", "dims"})
# Tensor.max/min reduce (ops.max/min return a tuple, hence the separate list).
TENSOR_METHOD_REDUCTIONS = REDUCTIONS | frozenset({"max", "min"})
# Tensor methods that no Python number, string, tuple, list or dict has (chosen from
# dir(mindspore.Tensor) minus those types' names, 2.10.0; generic words such as `data`, `value`,
# `size` or `type` left out): calling one shows that a parameter holds a tensor.
TENSOR_EVIDENCE = frozenset(
    {
        "abs", "all", "any", "amax", "amin", "argmax", "argmin", "asnumpy", "astype",
        "broadcast_to", "ceil", "clamp", "clip", "contiguous", "cumsum", "exp", "expand_as",
        "expand_dims", "flatten", "flip", "floor", "half", "isfinite", "isinf", "isnan", "log",
        "logical_and", "logical_not", "logical_or", "masked_fill", "matmul", "max", "mean", "min",
        "ndimension", "nelement", "norm", "numel", "permute", "pow", "prod", "repeat_interleave",
        "reshape", "rsqrt", "sigmoid", "sqrt", "square", "squeeze", "std", "sum", "swapaxes",
        "tanh", "tile",
        "transpose", "unsqueeze", "var", "view",
    }
)
# Tensor attributes whose mere reading shows the same.
TENSOR_EVIDENCE_READ = frozenset({"shape", "dtype", "ndim", "T", "mT"})
# Attribute results that stay tensors of the same size.
SAME_SIZE_ATTRIBUTES = frozenset({"T", "mT", "H", "real", "imag"})
# `is`/`in` comparisons give Python booleans, answered while compiling even on tensors (identity,
# membership in a tuple). Also used by the data-flow family.
SIMPLE_EXPRESSIONS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)  # `.any()` reads right after

MULTI = "multi"  # a tensor that may hold more than one element
TENSOR = "tensor"  # a tensor of unknown size (after a reduction or an index: probably small)
PENDING = "pending"  # a name whose kind is being worked out (x = x / 2): neutral in joins


# ----- what is a tensor --------------------------------------------------------------------


class TensorKinds:
    """Which expressions of one compiled function are certainly tensors (TENSOR), and which may
    hold more than one element (MULTI): those that carry an input or a Parameter elementwise."""

    def __init__(self, ctx: FunctionContext):
        self.values: FunctionValues = ctx.values
        self.ctx = ctx
        self._names: dict[str, str | None] = {}
        self._evidence: set[str] | None = None

    def is_tensor(self, node: ast.expr) -> bool:
        return self.kind(node) in (MULTI, TENSOR)

    def kind(self, node: ast.expr, depth: int = 0) -> str | None:
        if depth > 50:  # deep expressions are valid Python; give up rather than recurse further
            return None
        ctx = self.ctx
        match node:
            case ast.Name(id=name):
                return self._name_kind(name, depth)
            case ast.Attribute(value=value, attr=attr):
                if ctx.is_self(value):
                    # A Parameter of the Cell: a tensor, but of unknown size. Scalar Parameters
                    # (step counters, loss scales) are tested in `if` all the time and compile
                    # (mindocr's `if self.cur_accu_step % self.grad_accu_steps == 0`).
                    return TENSOR if attr in self.values.parameter_attrs else None
                if attr in SAME_SIZE_ATTRIBUTES:
                    return self.kind(value, depth + 1)
                return None
            case ast.Subscript(value=value):
                # x[i] may pick one element (`if mask[0]:`): a tensor, size unknown.
                inner = self.kind(value, depth + 1)
                return TENSOR if inner in (MULTI, TENSOR) else inner
            case ast.BinOp(left=left, right=right):
                if isinstance(left, ast.Constant) and isinstance(left.value, str):
                    return None  # "%s" % x
                return _join(self.kind(left, depth + 1), self.kind(right, depth + 1))
            case ast.Compare(left=left, ops=ops, comparators=comparators):
                if any(isinstance(op, NOT_DATA_COMPARISONS) for op in ops) or any(
                    isinstance(part, ast.Constant) and part.value is None for part in comparators
                ):
                    return None  # `x is None`, `x == None`, `k in d`: Python booleans
                kinds = [self.kind(part, depth + 1) for part in (left, *comparators)]
                return _join(*kinds)
            case ast.UnaryOp(op=op, operand=operand):
                return None if isinstance(op, ast.Not) else self.kind(operand, depth + 1)
            case ast.IfExp(body=body, orelse=orelse):
                first, second = self.kind(body, depth + 1), self.kind(orelse, depth + 1)
                return _join(first, second) if None not in (first, second) else None
            case ast.Call():
                return self._call_kind(node, depth)
        return None

    def _name_kind(self, name: str, depth: int) -> str | None:
        if name in self._names:
            return self._names[name]
        self._names[name] = PENDING  # a cycle (x = x / 2) adds nothing to the other bindings
        values = self.values
        if name in self.tensor_parameters:
            # An input shown to be a tensor; rebinding it (x = x * 2) keeps it one only if every
            # rebinding is a tensor too (x = self.layer(x) may be anything).
            rebound = values.bound.get(name, [])
            kinds = [self.kind(v, depth + 1) if v is not None else None for v in rebound]
            kind = MULTI if all(k in (MULTI, TENSOR, PENDING) for k in kinds) else None
        elif assigned := values.assigned_values(name):
            kinds = [k for k in (self.kind(v, depth + 1) for v in assigned) if k != PENDING]
            kind = None if not kinds or None in kinds else _join(*kinds)
        else:
            kind = None
        self._names[name] = kind
        return kind

    def _call_kind(self, node: ast.Call, depth: int) -> str | None:
        func = node.func
        qualified = self.ctx.qualify(func)
        if qualified is not None:
            if qualified in TENSOR_CONSTRUCTORS:
                return TENSOR  # Tensor(...): the size depends on data we do not read
            if not qualified.startswith(TENSOR_FUNCTION_MODULES):
                return None  # builtins (int, len, ...), numpy, project functions: not known
            last = qualified.rsplit(".", 1)[-1]
            if (
                not last[:1].islower()
                or last in NON_TENSOR_FUNCTIONS
                or last.startswith(NON_TENSOR_PREFIXES)
            ):
                return None  # a primitive class, a tuple, a Python value
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
                if not isinstance(child, ast.Attribute) or not isinstance(child.value, ast.Name):
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
            self._evidence = found
        return self._evidence


def _reduces_everything(node: ast.Call, tensor_arguments: int) -> bool:
    """x.sum(), ops.reduce_max(x): no axis given, one element left. x.sum(1) on a batch keeps
    the batch (`if logits.argmax(-1) == 1` fails for two samples)."""
    return len(node.args) <= tensor_arguments and not any(
        keyword.arg in AXIS_KEYWORDS
        and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
        for keyword in node.keywords
    )


def _join(*kinds: str | None) -> str | None:
    for kind in (MULTI, TENSOR, PENDING):
        if kind in kinds:
            return kind
    return None


# ----- the family ----------------------------------------------------------------------------


class TypesFamily(Family):
    name = "types"

    def __init__(self) -> None:
        self._current: TensorKinds | None = None

    def kinds(self, ctx: FunctionContext) -> TensorKinds:
        """The TensorKinds of the function being walked: the engine makes one context per compiled
        function and walk, and a TensorKinds depends on nothing but its context."""
        if self._current is None or self._current.ctx is not ctx:
            self._current = TensorKinds(ctx)
        return self._current

    # ----- graphs that give None and may raise; %-formatting of a tensor ------------------

    def visit_function(self, function: ast.FunctionDef | ast.AsyncFunctionDef, ctx: FunctionContext):
        """A root graph that gives back only None and raises under a test on a tensor: STRICT
        cannot build its output ("Invalid abstract;AbstractNone"), whatever the input."""
        if not ctx.function.is_root or (ctx.cell is not None and ctx.model.holders(ctx.cell)):
            return
        nodes = ctx.module.body_nodes(function)
        if any(n.__class__ is ast.Return and not _is_none(n.value) for n in nodes):
            return
        dead = ctx.model.dead_nodes(ctx.function)
        parents = ctx.module.parents(function)
        for node in nodes:
            if node.__class__ is ast.Raise and id(node) not in dead:
                test = _variable_test_above(node, parents, function, ctx)
                if test is not None:
                    ctx.report("raise-in-none-graph", node, function.name, test.lineno, NONE_GRAPH_INSTEAD)
                    return

    def visit_BinOp(self, node: ast.BinOp, ctx: FunctionContext) -> None:
        if not (isinstance(node.op, ast.Mod) and isinstance(node.left, (ast.Constant, ast.JoinedStr))
                and (not isinstance(node.left, ast.Constant) or isinstance(node.left.value, str))):
            return
        operands = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        found = evaluation(ctx.model, ctx.function)
        for operand in operands:
            if self.kinds(ctx).is_tensor(operand) or found.value(operand).__class__ is TensorValue:
                ctx.report("percent-format-of-tensor", node, ast.unparse(node)[:60], ast.unparse(operand),
                           PERCENT_INSTEAD)
                return

    # ----- calls: isinstance, range, bool --------------------------------------------------

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified not in CHECKED_CALLS:
            return
        if qualified == ISINSTANCE:
            self._check_isinstance(node, ctx)
        elif qualified == BOOL_CALL:
            if len(node.args) == 1 and not node.keywords:
                self._check_truth(node.args[0], "bool()", ctx)
        else:
            for argument in node.args:
                if self.kinds(ctx).is_tensor(argument):
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

    def _not_a_type(self, spec: ast.expr, ctx: FunctionContext) -> tuple[str, str] | None:
        """(what the argument is, what to write instead) when it is certainly not a type or a
        tuple of types; None when it is one or when that cannot be told."""
        spelled = ast.unparse(spec)
        match spec:
            case ast.Tuple(elts=elements):
                for element in elements:
                    if (problem := self._not_a_type(element, ctx)) is not None:
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
            case ast.BinOp(op=ast.BitOr()):
                # Python 3.10 accepts `int | float`; the graph compiler does not (seen in 2.10).
                parts = _union_parts(spec)
                tuple_spelled = f"({', '.join(ast.unparse(p) for p in parts)})"
                return f"'{spelled}' is a union, which compiled code does not accept", (
                    UNION_INSTEAD % tuple_spelled
                )
        qualified = ctx.qualify(spec)
        if qualified is not None and "." in qualified:
            module, last = qualified.rsplit(".", 1)
            if module in DTYPE_MODULES and last in DTYPE_NAMES:
                return f"'{spelled}' is a MindSpore dtype, not a type", DTYPE_INSTEAD
            return None
        if isinstance(spec, ast.Attribute) and ctx.is_self(spec.value) and ctx.owner is not None:
            assigned = attribute_assignments(ctx).get(spec.attr, [])
            if assigned and all(isinstance(v, ast.Constant) for _, v in assigned):
                value = assigned[0][1].value
                return f"'{spelled}' holds the constant {value!r}", ISINSTANCE_INSTEAD
            return None
        if self.kinds(ctx).is_tensor(spec):
            return f"'{spelled}' is a tensor", ISINSTANCE_INSTEAD
        return None

    # ----- tuple and list indices ------------------------------------------------------------

    def visit_Subscript(self, node: ast.Subscript, ctx: FunctionContext) -> None:
        if isinstance(node.slice, (ast.Slice, ast.Tuple)) or not isinstance(node.ctx, ast.Load):
            return
        if not self.kinds(ctx).is_tensor(node.slice):
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
        if self.kinds(ctx).kind(value) != MULTI:
            return
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

    def _function_like(self, node: ast.expr, ctx: FunctionContext) -> str | None:
        """What kind of function the expression certainly is, or None."""
        values = ctx.values
        if isinstance(node, ast.Lambda):
            return "a lambda"
        if isinstance(node, ast.Name):
            name = node.id
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
        qualified = ctx.qualify(node)
        if qualified is None:
            return None
        last = qualified.rsplit(".", 1)[-1]
        if qualified.startswith(("mindspore.ops.", "mindspore.mint.")) and last[:1].islower():
            return "the function " + qualified.replace("mindspore.", "", 1)
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
            if all(_is_layer_or_primitive(name) for name in built):
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


def _is_layer_or_primitive(qualified: str | None) -> bool:
    """nn.Dense(...), ops.Add(), P.ReLU(): a Cell or a primitive, both callables."""
    if not qualified:
        return False
    last = qualified.rsplit(".", 1)[-1]
    return last[:1].isupper() and qualified.startswith(("mindspore.nn.", "mindspore.ops."))


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
