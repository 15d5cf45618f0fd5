"""MindSpore's facts that the engine and the rule families share: one table per fact.

Checked against MindSpore 2.10 by tests/test_knowledge.py (where the ``confirm`` extra is
installed); a new fact about MindSpore goes here, or in ``msgraphlint/knowledge/data/`` when it is read from
MindSpore by a snapshot script, never in a checker.
"""

from __future__ import annotations

import re

# ----- tensors ---------------------------------------------------------------------------------

TENSOR_CLASS = "mindspore.Tensor"
PARAMETER_CLASS = "mindspore.Parameter"
# Calls that build one tensor (from data, or a Parameter, which is a tensor in the graph).
TENSOR_CONSTRUCTORS = frozenset({TENSOR_CLASS, "mindspore.tensor", PARAMETER_CLASS})
TENSOR_CLASSES = frozenset({TENSOR_CLASS, PARAMETER_CLASS})  # mindspore.tensor is a function
PARAMETER_CLASSES = frozenset({PARAMETER_CLASS})
# Modules whose lower-case functions give back tensors (with NON_TENSOR_FUNCTIONS' exceptions).
# mindspore.ops.functional, .function and .operations are all below mindspore.ops.
TENSOR_FUNCTION_MODULES = ("mindspore.ops.", "mindspore.mint.", "mindspore.numpy.")
# Functions of those modules that give back Python values, tuples or functions, not one tensor.
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
# Tensor methods that give back a Python value, a tuple, a host copy or nothing tensor-like.
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
# Calls that make a variable of a constant: the graph no longer folds what they give.
VARIABLE_MAKERS = frozenset({"mindspore.mutable", "mindspore.common.mutable", "mindspore.common.mutable.mutable"})
# Tensor methods that copy the data to host Python (tolist() calls asnumpy()).
HOST_COPY_METHODS = frozenset({"asnumpy", "numpy", "tolist"})

# ----- dtypes ----------------------------------------------------------------------------------

# Where MindSpore's dtypes can be named from.
DTYPE_MODULES = frozenset({"mindspore", "mindspore.common", "mindspore.common.dtype", "mindspore.dtype"})
# Every public name of mindspore.common.dtype that is a dtype instance (MindSpore 2.10.0):
# instances, not types, so isinstance cannot take them.
DTYPE_NAMES = frozenset(
    {
        "bfloat16", "bool", "bool_", "byte", "cdouble", "cfloat", "complex128", "complex64",
        "coo_tensor", "csr_tensor", "double", "env_type", "float", "float16", "float32", "float64",
        "float8_e4m3fn", "float8_e5m2", "float_", "function", "half", "hifloat8", "index_slices",
        "int", "int16", "int32", "int64", "int8", "int_", "intc", "intp", "list_", "long",
        "number", "qint4x2", "short", "single", "string", "symbolic_key", "tensor_type", "tuple_",
        "type_none", "type_refkey", "type_type", "ubyte", "uint", "uint16", "uint32", "uint64",
        "uint8", "uintc", "uintp", "undetermined", "ushort",
    }
)
# The DTYPE_NAMES that stand for a kind of value, not an element type: what `P.typeof(x)` of a
# tensor, list or tuple is an instance of is their class (`type(mstype.tensor_type)`).
VALUE_KIND_DTYPES = frozenset({"tensor_type", "list_", "tuple_", "function", "type_none",
                               "coo_tensor", "csr_tensor", "index_slices"})
# Element types the interpreter of compile-time values follows by name: spelled the same in
# MindSpore and numpy (bool_ is read as bool).
ELEMENT_TYPES = frozenset({"bool_", "int8", "int16", "int32", "int64", "uint8", "float16",
                           "float32", "float64", "bfloat16", "bool"})

# ----- host modules ----------------------------------------------------------------------------

# Host random sources (numpy.random, random, scipy.stats): compiled code evaluates a draw on
# constants once, while compiling, and every call of the graph reuses it (probed, MindSpore 2.10
# CPU, STRICT and LAX: module functions, a scipy.stats distribution's .rvs, and the methods of a
# generator held by the Cell, seeded or not); a draw on a tensor is a host call.
# Modules whose every function draws, but those that seed or read the state.
RANDOM_MODULES = ("numpy.random.", "random.")
RANDOM_STATE_FUNCTIONS = frozenset(
    {
        "numpy.random.seed", "numpy.random.get_state", "numpy.random.set_state",
        "random.seed", "random.getstate", "random.setstate",
    }
)
# Calls that build a generator: every method of what they give draws, but the state methods.
# Built from an explicit seed, it gives the same numbers at every call (PyNative too).
RANDOM_GENERATORS = frozenset(
    {
        "numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator",
        "random.Random", "random.SystemRandom",
    }
)
RANDOM_STATE_METHODS = frozenset(
    {"seed", "get_state", "set_state", "getstate", "setstate", "bit_generator", "spawn"}
)
# scipy.stats distributions: `norm.rvs(...)` draws, and so does `.rvs` of the frozen distribution
# `norm(...)` builds (its pdf, cdf, mean... do not); random_state= seeds the draw.
RANDOM_DISTRIBUTION_MODULES = ("scipy.stats.",)
RANDOM_DISTRIBUTION_DRAWS = frozenset({"rvs"})


def random_source(qualified: str) -> str | None:
    """What calling the host name ``qualified`` does with random numbers: "draw" (it draws:
    numpy.random.normal, random.random, scipy.stats.norm.rvs), "generator" (it builds an object
    whose methods draw: numpy.random.default_rng, random.Random), "distribution" (it builds a
    scipy.stats frozen distribution, whose .rvs draws), "state" (it seeds or reads the state),
    or None (nothing random)."""
    if qualified.startswith(RANDOM_DISTRIBUTION_MODULES):
        if qualified.rsplit(".", 1)[-1] in RANDOM_DISTRIBUTION_DRAWS:
            return "draw"
        return "distribution"
    if not qualified.startswith(RANDOM_MODULES):
        return None
    if qualified in RANDOM_STATE_FUNCTIONS:
        return "state"
    if qualified in RANDOM_GENERATORS:
        return "generator"
    return "draw"


def random_method_draws(source: str, method: str) -> bool:
    """Whether ``<object>.method(...)`` draws, for an object a call of kind ``source`` built."""
    if source == "generator":
        return not method.startswith("_") and method not in RANDOM_STATE_METHODS
    return source == "distribution" and method in RANDOM_DISTRIBUTION_DRAWS

# ----- the size of a tensor a call gives back ----------------------------------------------------

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
# Tensor.max/min reduce (ops.max/min return a tuple, hence the separate list).
TENSOR_METHOD_REDUCTIONS = REDUCTIONS | frozenset({"max", "min"})
# Tensor methods that no Python number, string, tuple, list or dict has (chosen from
# dir(mindspore.Tensor) minus those types' names, 2.10.0; generic words such as `data`, `value`,
# `size` or `type` left out): calling one shows that a parameter holds a tensor.
# The type names MindSpore's argument parser lists for a parameter (Tensor.sum(dim=<None, Tensor,
# int, list of int, tuple of int>), read into the API snapshots, that take a Python literal of
# each kind. Wide on purpose: the parser converts numbers to tensors and an int to a sequence of
# ints, so a literal is judged only where no listed name can take it. Other literals (None, bool,
# int) are never judged.
LITERAL_TAKEN_BY = {
    "str": frozenset({"str", "string", "any"}),
    "float": frozenset({"float", "Number", "number", "Tensor", "any"}),
    "tuple": frozenset({"tuple of int", "list of int", "Tuple", "List", "Tensor", "any"}),
}

# Tensor methods whose positional arguments are the new shape, one size each or one tuple
# (x.view(n, -1), x.reshape((n, -1))): the result has that many dimensions.
RESHAPES = frozenset({"view", "reshape"})

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
# Keywords that name the axis a reduction keeps or removes (mindspore.ops and mint spellings).
AXIS_KEYWORDS = frozenset({"axis", "dim", "axes", "dims"})

# ----- what MindSpore compiles --------------------------------------------------------------------

JIT_DECORATORS = frozenset({"mindspore.jit", "mindspore.ms_function"})
REMOVED_JIT_DECORATORS = frozenset({"mindspore.ms_function"})  # removed in MindSpore 2.6
JIT_CLASS_DECORATOR = "mindspore.jit_class"
# Calls that return a function running the wrapped one inside the graph.
FUNCTION_WRAPPERS = frozenset(
    {
        "mindspore.grad", "mindspore.value_and_grad", "mindspore.vmap", "mindspore.jit",
        "mindspore.ops.grad", "mindspore.ops.value_and_grad", "mindspore.ops.vmap",
        "mindspore.ops.functional.grad", "mindspore.ops.functional.value_and_grad",
    }
)
# What the tangent of a forward-mode derivative (jvp) or the cotangent of a reverse-mode one (vjp)
# must mirror (probed with 2.10, GRAPH_MODE): jvp's, the function's inputs (a tensor for one input,
# a tuple for several); vjp's, the function's output (a tensor for one tensor, a tuple for a tuple).
# Otherwise "Type Join Failed: Abstract type AbstractTuple cannot join with AbstractTensor" (or
# ops.jvp's "v has invalid length"). The Cells (by defining class) take it as their call's last
# argument, after the inputs they hand the function: nn.Jvp(fn)(*inputs, v).
TANGENT_CELLS = {"mindspore.nn.grad.cell_grad.Jvp": "inputs", "mindspore.nn.grad.cell_grad.Vjp": "output"}
# ops.jvp(fn, inputs, v): the inputs are one tensor or a tuple of them, v mirrors them.
TANGENT_FUNCTIONS = frozenset({"mindspore.ops.jvp", "mindspore.ops.functional.jvp"})
# Calls that bind some of a function's arguments ahead of its call: functools.partial, and
# MindSpore's Partial primitive as ops and ops.functional export it (probed with 2.10: both bind a
# parameter given positionally and by keyword at once with "Multiply values for specific argument").
PARTIAL_FUNCTIONS = frozenset(
    {"functools.partial", "mindspore.ops.partial", "mindspore.ops.functional.partial"}
)
# The composite operations that map a function over sequences, by the name the compiler's messages
# give them (probed with 2.10, and 2.7 to 2.9 alike: HyperMap recurses into nested tuples, lists and
# dicts, and broadcasts a tensor or scalar argument; Map maps the top level only, and refuses a
# tensor beside a sequence; both refuse arguments of different kinds or lengths while compiling).
SEQUENCE_MAPPERS = {
    "mindspore.ops.HyperMap": "HyperMap", "mindspore.ops.composite.HyperMap": "HyperMap",
    "mindspore.ops.composite.base.HyperMap": "HyperMap",
    "mindspore.ops.Map": "Map", "mindspore.ops.composite.Map": "Map",
    "mindspore.ops.composite.base.Map": "Map",
}
# MindSpore's sparse tensor classes, by name, and the builtins graph code cannot convert one with
# (probed with 2.10, 2.9 and 2.7 at STRICT and LAX: bool(), int(), float() of one refused, "bool()
# does not support sparse tensor input." for one built in __init__, "Failed calling ScalarCast with
# input_x=COOTensor[...]" for one built in the graph; list() of one refused, "list() does not
# support single sparse tensor input."; a RowTensor with "'RowTensor' object is not iterable" and
# "int() argument must be ... not 'RowTensor'". tuple() of one compiles, and is left out).
SPARSE_TENSOR_CLASSES = {
    f"{module}.{name}": name for module in ("mindspore", "mindspore.common", "mindspore.common.sparse_tensor")
    for name in ("COOTensor", "CSRTensor", "RowTensor")
}
SPARSE_REFUSED_CONVERSIONS = frozenset({"builtins.bool", "builtins.int", "builtins.float", "builtins.list"})
# Decorators of functions MindSpore runs on the host while compiling (on constants) or refuses.
HOST_EVALUATED_DECORATORS = frozenset({"constexpr", "_primexpr", "jit_forbidden_register"})
# From this release a @constexpr helper gets a variable tensor argument as the tensor; before,
# as None (probed with the isinstance-non-type sample: 2.7 and 2.8 compile it, 2.9 and 2.10 run
# its `data is not None` branch and fail).
CONSTEXPR_GETS_TENSORS_FROM = "2.9"


def constexpr_gets_tensors(release: str) -> bool:
    """Whether a @constexpr helper sees a variable tensor argument as a tensor, not None."""
    return tuple(map(int, release.split(".")[:2])) >= tuple(map(int, CONSTEXPR_GETS_TENSORS_FROM.split(".")))


def uncompilable_function(qualified: str, version: str | None = None) -> str | None:
    """The defining function of a public MindSpore function that graph mode cannot compile in
    the release (its own body calls ``mindspore.log``: ``mindspore.ops.matrix_determinant``'s
    deprecation notice); None for any other name. Read per release from the API snapshot
    (``api_snapshot.take`` with ``snapshots.uncompilable_functions``)."""
    from .api_snapshot import UNCOMPILABLE_KEY, load

    return load(version).get(UNCOMPILABLE_KEY, {}).get(qualified)

# ----- Cells and primitives ----------------------------------------------------------------------

# Cell methods that set an attribute for each keyword they are given, on the Cell (add_flags) or
# on it and every sub-Cell (add_flags_recursive): `net.add_flags_recursive(train_backward=True)`.
ATTRIBUTE_SETTING_METHODS = ("add_flags", "add_flags_recursive")

# Where MindSpore's own Cells live (nn.Dense, mint.nn.Linear).
CELL_NAMESPACES = ("mindspore.nn.", "mindspore.mint.nn.")
# Where MindSpore's primitives live (ops.ReLU, ops.operations.MatMul).
PRIMITIVE_NAMESPACE = "mindspore.ops."


def returns_tensor(qualified: str) -> bool:
    """Whether a call of this MindSpore name gives back one tensor: a tensor constructor, or a
    lower-case function of mindspore.ops, mint or mindspore.numpy that gives neither a Python
    value nor a tuple. Classes (primitives, Cells) are not calls that give tensors."""
    if qualified in TENSOR_CONSTRUCTORS:
        return True
    if not qualified.startswith(TENSOR_FUNCTION_MODULES):
        return False
    last = qualified.rsplit(".", 1)[-1]
    return (last[:1].islower() and last not in NON_TENSOR_FUNCTIONS
            and not last.startswith(NON_TENSOR_PREFIXES))

MINDSPORE = "mindspore."

CELL_CLASS = "mindspore.nn.Cell"
NN_NAMESPACE = "mindspore.nn."
# Where Cell and Tensor are defined: the prefix of their methods in MindSpore's own registries.
CELL_DEFINED_AT = "mindspore.nn.cell.Cell"
TENSOR_DEFINED_AT = "mindspore.common.tensor.Tensor"
# Parameters that the Cells shipped in mindspore.nn create under these names.
NN_PARAMETER_NAMES = frozenset(
    {"weight", "bias", "gamma", "beta", "moving_mean", "moving_variance", "embedding_table"}
)


# What a layer's input looks like, read off its constructor: the parameter giving the input's
# channels or features (its name and position), the input's rank, and whether that count is
# the last dimension (features: Dense takes any rank) or the second (channels: NCHW, NCL).
# --confirm builds a target's inputs from the first layer its input reaches when the project
# shows no call with a tensor.
LAYER_INPUTS: dict[str, tuple[str, int, int, bool]] = {
    "mindspore.nn.Dense": ("in_channels", 0, 2, True),
    "mindspore.nn.Conv1d": ("in_channels", 0, 3, False),
    "mindspore.nn.Conv2d": ("in_channels", 0, 4, False),
    "mindspore.nn.Conv3d": ("in_channels", 0, 5, False),
    "mindspore.nn.BatchNorm1d": ("num_features", 0, 2, False),
    "mindspore.nn.BatchNorm2d": ("num_features", 0, 4, False),
    "mindspore.mint.nn.Linear": ("in_features", 0, 2, True),
    "mindspore.mint.nn.Conv2d": ("in_channels", 0, 4, False),
    "mindspore.mint.nn.BatchNorm2d": ("num_features", 0, 4, False),
    # normalized_shape: (width,) normalises the last dimension
    "mindspore.nn.LayerNorm": ("normalized_shape", 0, 2, True),
    "mindspore.mint.nn.LayerNorm": ("normalized_shape", 0, 2, True),
}
# The spatial size given to each dimension after the channels (a small image, a short sequence).
LAYER_INPUT_SPATIAL = 8
LAYER_INPUT_BATCH = 2


def is_mindspore_name(qualified: str | None) -> bool:
    return bool(qualified) and qualified.startswith(MINDSPORE)


def is_mindspore_cell_name(qualified: str) -> bool:
    """``mindspore.nn.Cell`` and the Cells ``mindspore.nn`` ships (Dense, SequentialCell, ...)."""
    if qualified == CELL_CLASS:
        return True
    return qualified.startswith(NN_NAMESPACE) and qualified.rsplit(".", 1)[-1][:1].isupper()


def is_layer_or_primitive(qualified: str | None) -> bool:
    """nn.Dense, ops.Add, P.ReLU: a Cell class of mindspore.nn or a primitive class, both callables
    once built."""
    if not qualified:
        return False
    return (qualified.rsplit(".", 1)[-1][:1].isupper()
            and qualified.startswith((NN_NAMESPACE, PRIMITIVE_NAMESPACE)))


# Where numpy's array makers take the shape: the position of ``size``/``shape`` (a tuple, or an
# int for one dimension), or None for ``rand(2, 3)``, whose every argument is a dimension. A
# driver's batch (`rng.standard_normal((8, 16, 8))`, `rng.integers(0, 4, 8)`) is read with it.
NUMPY_SHAPE_ARGUMENT = {
    "zeros": 0, "ones": 0, "empty": 0, "full": 0, "standard_normal": 0, "random": 0,
    "random_sample": 0, "integers": 2, "randint": 2, "normal": 2, "uniform": 2, "choice": 1,
    "rand": None, "randn": None,
}
NUMPY_SHAPE_KEYWORDS = ("size", "shape")


# Last names of MindSpore's loss functions (ops.mse_loss, ops.cross_entropy, mint's too).
LOSS_WORDS = ("loss", "entropy")


def is_loss_function(qualified: str) -> bool:
    """A MindSpore loss function: ``ops.mse_loss``, ``ops.cross_entropy``, ``mint.nn.functional.l1_loss``."""
    last = qualified.rsplit(".", 1)[-1]
    return is_mindspore_name(qualified) and last[:1].islower() and any(
        word in last.lower() for word in LOSS_WORDS)


# CapWords names in mindspore.nn that are not Cells (metrics), and the base class itself.
NOT_CELLS = frozenset(
    {
        "Cell", "Accuracy", "BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric",
        "CosineSimilarity", "Dice", "F1", "Fbeta", "HausdorffDistance", "Loss", "MAE", "MSE",
        "MeanSurfaceDistance", "Metric", "OcclusionSensitivity", "Perplexity", "Precision", "ROC",
        "Recall", "RootMeanSquareDistance", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
        "TopKCategoricalAccuracy",
    }
)


def is_mindspore_layer_class(qualified: str) -> bool:
    """A Cell class MindSpore ships: ``nn.Dense``, ``nn.MSELoss``, ``mint.nn.CrossEntropyLoss``
    (not ``nn.Cell`` itself, nor the metrics ``mindspore.nn`` also exports)."""
    name = qualified.rsplit(".", 1)[-1]
    return qualified.startswith(CELL_NAMESPACES) and name[:1].isupper() and name not in NOT_CELLS


def all_mindspore_layers(built: set[str | None]) -> bool:
    """Whether every call a value is built from (None: not a call) is of a Cell class MindSpore
    ships, and there is one."""
    return bool(built) and all(name is not None and is_mindspore_layer_class(name) for name in built)


def is_tensor_function(qualified: str) -> bool:
    """A function (not a class) of mindspore.ops, mint or mindspore.numpy."""
    return (qualified.startswith(TENSOR_FUNCTION_MODULES)
            and qualified.rsplit(".", 1)[-1][:1].islower())


def is_tensor_method(name: str) -> bool:
    """A method of mindspore.Tensor (not a property such as ``shape``), per the API snapshot."""
    from .api_snapshot import load

    entry = load()["mindspore.Tensor"].get(name)
    return entry is not None and entry["kind"] == "function"


# ----- what the graph knows while compiling ----------------------------------------------------

# Builtins the graph has no implementation of: on a tensor value they fail at STRICT/COMPATIBLE and
# fall back at LAX, exactly like a library call (seen with MindSpore 2.10). len, max, min, sum, abs,
# round, isinstance, range, zip, enumerate, map, filter, print, int, float, bool, tuple, list and
# dict are graph builtins and are not listed. str/repr/format are left out: their string result
# cannot reach a differentiated output, so at LAX they are harmless.
NON_GRAPH_BUILTINS = frozenset(
    {
        "builtins.sorted", "builtins.set", "builtins.frozenset", "builtins.reversed",
        "builtins.divmod", "builtins.hash", "builtins.chr", "builtins.ord", "builtins.bin",
        "builtins.hex", "builtins.oct", "builtins.id",
    }
)
# What makes a host value (a numpy array, a Python list) out of a variable at run time: its length
# and shape depend on the data, unlike a tensor's, which the compiler knows.
HOST_PACKAGES = ("numpy.", "scipy.")
# Attributes of a host array that depend on its data (a tensor's are static).
HOST_DATA_SIZED_ATTRIBUTES = frozenset({"shape", "size", "nbytes"})
# Attributes of a tensor that the compiler knows statically.
STATIC_TENSOR_ATTRIBUTES = frozenset(
    {"shape", "dtype", "ndim", "rank", "itemsize", "nbytes", "size"}
)
# Tensor methods whose result the compiler knows while compiling, as it knows the shape: host
# Python given x.numel() or x.dim() compiles at STRICT (probed with 2.10: np.sqrt(x.numel()),
# math.sqrt(x.dim()), at STRICT and LAX).
STATIC_TENSOR_METHODS = frozenset(
    {"dim", "ndimension", "numel", "nelement", "is_floating_point", "is_complex", "is_signed"}
)
# Calls whose result is a compile-time value even on a tensor argument.
STATIC_CALLS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.issubclass",
        "builtins.callable",
        "builtins.type",
        "builtins.hasattr",
        "builtins.getattr",
        "builtins.id",
        "builtins.range",
        "mindspore.ops.shape",
        "mindspore.ops.rank",
        "mindspore.ops.dtype",
        "mindspore.ops.function.shape",
        "mindspore.ops.functional.shape",
        "mindspore.ops.size",
        "mindspore.ops.numel",
        "mindspore.ops.is_floating_point",
        "mindspore.ops.is_complex",
    }
)

# Attributes a driver reads to pass a construct argument that the graph receives as a
# compile-time constant, like the scalars, strings and tuples of them it folds (seen with 2.10; a
# tensor, or mutable(), is an input).
DRIVER_CONSTANT_ATTRIBUTES = frozenset({"shape", "ndim", "dtype"})

# ----- how nn.Cell walks its tree (the names its Parameters get) ---------------------------------

PARAMETER_TUPLE_CLASS = "mindspore.ParameterTuple"
# Cell methods that list a Cell's Parameters (under their current names): what a ParameterTuple
# collects from another Cell.
CELL_PARAMETER_LISTS = frozenset({"get_parameters", "trainable_params"})
# Cell.apply(fn) calls fn on every Cell below and then on the Cell itself; a loop over
# cells_and_names() visits the same, cells() only the direct children.
CELL_APPLY_METHOD = "apply"
CELL_TREE_ITERATOR = "cells_and_names"
CELL_CHILD_ITERATOR = "cells"
# Containers built from the Cells they hold, which they name by position ("layers.0").
CELL_CONTAINERS = frozenset({"SequentialCell", "CellList"})

# ----- the execution mode -----------------------------------------------------------------------

# get_context("mode") against these tells PyNative from graph mode (PYNATIVE_MODE is 1 and
# GRAPH_MODE 0 in every release). In PyNative a Cell's construct runs as Python, uncompiled.
GET_CONTEXT = frozenset({"mindspore.get_context", "mindspore.context.get_context"})
MODE_CONSTANTS = {
    "mindspore.PYNATIVE_MODE": "pynative", "mindspore.context.PYNATIVE_MODE": "pynative",
    "mindspore.GRAPH_MODE": "graph", "mindspore.context.GRAPH_MODE": "graph",
}
MODE_NUMBERS = {1: "pynative", 0: "graph"}

# ----- names and spellings ------------------------------------------------------------------------

# Public spellings that name the same object as the canonical one.
CANONICAL_SPELLINGS = {
    "mindspore.Cell": "mindspore.nn.Cell",
    "mindspore.nn.cell.Cell": "mindspore.nn.Cell",
    "mindspore.common.api.jit": "mindspore.jit",
    "mindspore.graph.api.jit": "mindspore.jit",  # where 2.10 defines it (MindSpore's own code)
    "mindspore.common.jit_config.JitConfig": "mindspore.JitConfig",
    "mindspore.common.api.ms_function": "mindspore.ms_function",
    "mindspore.common.Parameter": "mindspore.Parameter",
    "mindspore.common.parameter.Parameter": "mindspore.Parameter",
    "mindspore.common.ParameterTuple": "mindspore.ParameterTuple",
    "mindspore.common.parameter.ParameterTuple": "mindspore.ParameterTuple",
    "mindspore.common.Tensor": "mindspore.Tensor",
    "mindspore.common.tensor.Tensor": "mindspore.Tensor",
    "mindspore.jit_class": "mindspore.jit_class",
    "mindspore.common.jit_class": "mindspore.jit_class",
    "numpy": "numpy",
}

# MindSpore functions the compiler folds on constant arguments, checking them as it folds
# (values/interpret.py implements each by name).
FOLDED_OPERATIONS = {"mindspore.ops.functional.tuple_div": "tuple_div"}

# Primitives whose output the compiler knows while compiling (a tuple of ints, an int, a dtype);
# not TensorShape or DynamicShape, which return tensors.
STATIC_PRIMITIVES = frozenset({"Shape", "Rank", "Size", "DType"})

# Modules `ms_function` used to be imported from, and its replacement, jit, in a version fallback.
REMOVED_FROM_MODULES = frozenset({"mindspore", "mindspore.common", "mindspore.common.api"})
REMOVED_QUALIFIED = REMOVED_JIT_DECORATORS | {"mindspore.common.ms_function"}

# ----- what the graph parser reads itself ----------------------------------------------------------

# MindSpore's stream contexts, by kind. Graph code may enter one (2.8 and later), but not one inside
# another of the same kind: the parser refuses "Nested with StreamCtx statements are not supported
# in graph mode." (StreamLimitCtx likewise), probed with 2.8, 2.9 and 2.10 at STRICT and LAX; a
# StreamLimitCtx inside a StreamCtx, two in one `with`, and one in a called helper compile. 2.7
# enters none of them ("Only support jit_class instance").
STREAM_CONTEXTS = {
    "mindspore.runtime.StreamCtx": "StreamCtx",
    "mindspore.runtime.stream.StreamCtx": "StreamCtx",
    "mindspore.hal.StreamCtx": "StreamCtx",
    "mindspore.hal.stream.StreamCtx": "StreamCtx",
    "mindspore.runtime.StreamLimitCtx": "StreamLimitCtx",
    "mindspore.runtime.stream_limit.StreamLimitCtx": "StreamLimitCtx",
}

# MindSpore API the graph compiler refuses in compiled code whatever it is given (probed with 2.7,
# 2.8, 2.9 and 2.10 at STRICT and LAX): a parallel strategy set there ("Cell.shard or ms.shard not
# supported in jit syntax, please use shard out of jit or construct scope."), Tensor.move_to
# ("The method 'move_to' is not supported in jit."), Parameter.register_hook ("Register hook for
# Parameter inside graph is not supported."). Tensor.register_hook itself compiles, once per name
# in a function's own statements ("It is not supported to register multiple hooks for a Tensor").
GRAPH_REFUSED_FUNCTIONS = frozenset({"mindspore.shard", "mindspore.parallel.shard"})
GRAPH_REFUSED_CELL_METHODS = frozenset({"shard"})
GRAPH_REFUSED_TENSOR_METHODS = frozenset({"move_to"})
GRAPH_REFUSED_PARAMETER_METHODS = frozenset({"register_hook"})
TENSOR_HOOK_METHOD = "register_hook"

# `# @jit.typing: () -> tensor_type[float32]`: the type a statement's JIT Fallback gives back.
# MindSpore reads the comment at the end of each line of an expression it runs through the
# interpreter at LAX (a tensor's asnumpy, a host library called on a variable), and a comment line
# just before it: the form its parser matches (a comment that does not match is ignored), the kinds
# it takes (a name of mindspore.common.dtype that is none of them, with an element, is refused:
# "JIT type annotation only support tensor/list_/tuple_, but got 'float32"), and the dtype names
# each kind refuses as its element ("Cannot get dtype for by input string: 'string', for
# 'tensor_type'", "Cannot get element type for by input string: 'list_', for 'tuple_'"); a name
# that is no dtype at all is "Wrong comment format for JIT type annotation". Probed with 2.7 to
# 2.10 at LAX; a `{name}` is looked up in the function and was not judged.
JIT_TYPING_COMMENT = re.compile(
    r"#\s*@jit.typing\s*:\s*\(\)\s*->\s*([a-zA-Z0-9{}_]+)?\[?([a-zA-Z0-9{}_]+)?\]?")
JIT_TYPING_ELEMENTS_REFUSED = {
    "tensor_type": frozenset({"string", "tensor_type", "list_", "type_none"}),
    "list_": frozenset({"string", "list_", "type_none"}),
    "tuple_": frozenset({"string", "list_", "type_none"}),
}
# The Tensor method LAX runs through the interpreter (tolist is compiled: a comment there is not read).
RUNTIME_FALLBACK_METHODS = frozenset({"asnumpy"})

# ----- constructors and layers -------------------------------------------------------------------

# What a call builds, as a message names it.
VALUE_CONSTRUCTORS = {"numpy.array": "numpy array", "numpy.asarray": "numpy array",
                      "numpy.zeros": "numpy array", "numpy.ones": "numpy array",
                      "mindspore.Tensor": "tensor"}
# The calls that make a range in compiled code (their bounds must be known while compiling).
RANGE_CALLS = frozenset(
    {"builtins.range", "mindspore.ops.make_range", "mindspore.ops.functional.make_range"}
)

# Values that are certainly not a Parameter when stored in an attribute in __init__.
NON_PARAMETER_CALLS = frozenset(
    {
        "builtins.int", "builtins.float", "builtins.bool", "builtins.str", "builtins.list",
        "builtins.dict", "builtins.tuple", "builtins.set", "mindspore.Tensor",
    }
)

# CapWords names in mindspore.ops that are not primitives: composites, registration helpers.
NOT_PRIMITIVES = frozenset(
    {
        "AiCPURegOp", "AkgAscendRegOp", "AkgGpuRegOp", "CpuRegOp", "CustomOpBuilder",
        "CustomRegOp", "DataType", "GradOperation", "HyperMap", "Map", "MultitypeFuncGraph",
        "P2POp", "ReduceOp", "TBERegOp", "TCPStore", "Tensor", "Primitive", "PrimitiveWithInfer",
        "PrimitiveWithCheck",
    }
)
# MindSpore layers that own Parameters (mindspore.nn and mindspore.mint.nn, 2.10).
WEIGHTED_LAYERS = frozenset(
    {
        "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "BiDense", "Conv1d", "Conv1dTranspose",
        "Conv2d", "Conv2dBnAct", "Conv2dTranspose", "Conv3d", "Conv3dTranspose",
        "ConvTranspose2d", "Dense", "DenseBnAct", "Embedding", "EmbeddingExt", "EmbeddingLookup",
        "GRU", "GRUCell", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
        "LSTM", "LSTMCell", "LayerNorm", "LayerNormExt", "Linear", "MultiFieldEmbeddingLookup",
        "MultiheadAttention", "PReLU", "PReLUExt", "RNN", "RNNCell", "SyncBatchNorm",
        "Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
        "TransformerEncoderLayer",
    }
)
# Of those, the layers whose weights start from fixed values (ones, zeros, 0.25) when no
# *_init argument says otherwise: GRAPH_MODE and PyNative compute the same (probed, 2.10).
FIXED_INIT_LAYERS = frozenset(
    {
        "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "InstanceNorm1d",
        "InstanceNorm2d", "InstanceNorm3d", "LayerNorm", "LayerNormExt", "PReLU", "PReLUExt",
        "SyncBatchNorm",
    }
)

# Tensor methods whose kernels (InplaceUniform, InplaceNormal, InplaceRandom, ...) MindSpore 2.10
# does not register for CPU; add_, mul_, sub_, div_ and copy_ compile there and are left alone.
INPLACE_INITIALISERS = {
    "uniform_": "ops.rand_like or ops.uniform",
    "normal_": "ops.randn_like or ops.normal",
    "random_": "ops.randint_like",
    "bernoulli_": "ops.bernoulli",
    "exponential_": "ops.rand_like and -ops.log(1 - u) / rate",
    "zero_": "ops.zeros_like",
    "fill_": "ops.full_like",
}

# ----- numpy on tensors, and what replaces it -----------------------------------------------------

# np.<name>(tensor) calls tensor.<name>(axis=None, out=None): fails in MindSpore 2.10.
NUMPY_REDUCTIONS = frozenset(
    {"sum", "mean", "max", "min", "amax", "amin", "prod", "product", "std", "var", "any", "all", "ptp"}
)
# Scalar constructors: `np.float32(0.5)` is a constant, not an array worth moving to __init__.
NUMPY_SCALAR_TYPES = frozenset(
    {
        "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "float32", "float64", "dtype", "finfo", "iinfo",
    }
)

# numpy reduction -> (the Tensor method, how it spells keepdims, whether it takes an axis), as
# MindSpore 2.10 compiles them at STRICT and LAX: sum, max and min take `keepdims`, mean, any and
# all `keep_dims`; prod takes no axis. std and var are left out (their ddof defaults differ
# between versions); so are amax/amin (PyNative rejects their keepdims).
NUMPY_REDUCTION_METHODS = {
    "sum": ("sum", "keepdims", True), "max": ("max", "keepdims", True),
    "min": ("min", "keepdims", True), "mean": ("mean", "keep_dims", True),
    "any": ("any", "keep_dims", True), "all": ("all", "keep_dims", True),
    "prod": ("prod", "", False), "product": ("prod", "", False),
}
# numpy/math functions whose mindspore.ops namesake takes the same positional arguments and
# computes the same elementwise values (seen with MindSpore 2.10).
OPS_ELEMENTWISE_NAMESAKES = frozenset({"exp", "log", "sqrt", "abs", "tanh", "square", "maximum",
                                       "minimum", "floor", "ceil", "sigmoid", "erf"})

# numpy dtype names MindSpore tensors are made from (bfloat16 has no numpy dtype).
INPUT_DTYPES = frozenset({
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
})
