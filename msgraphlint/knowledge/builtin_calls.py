"""What the graph compiler does with a call of a Python builtin, one table per fact: which builtins
it folds on constants like Python, how many arguments it takes, and what it checks of the
arguments while compiling (probed with MindSpore 2.10, and 2.7 where said).

The interpreter (values/calls.py) dispatches on these tables: a builtin's name appears here, never
in its code. Each check is named by what the compiler refuses; values/calls.py maps each name to
the method that judges it.
"""

from __future__ import annotations

# Builtins the graph folds on constants like Python does, called on known arguments only.
PURE_BUILTINS = {
    "abs": abs, "bool": bool, "float": float, "int": int, "len": len, "max": max, "min": min,
    "pow": pow, "range": range, "round": round, "slice": slice, "str": str, "sum": sum,
    "tuple": tuple, "list": list, "divmod": divmod, "chr": chr, "ord": ord, "any": any, "all": all,
}
# How many positional arguments the graph accepts for a builtin, (fewest, most; None: no
# limit), where it checks while compiling: Python's own counts, and two of the graph's own
# (zip needs one argument, super 0 or 2). Calls with keywords, * or ** are not counted.
BUILTIN_ARITY = {
    "abs": (1, 1), "all": (1, 1), "any": (1, 1), "bool": (0, 1), "chr": (1, 1), "divmod": (2, 2),
    "enumerate": (1, 2), "filter": (2, 2), "float": (0, 1), "getattr": (2, 3), "hasattr": (2, 2),
    "int": (0, 2), "isinstance": (2, 2), "len": (1, 1), "list": (0, 1), "map": (2, None),
    "max": (1, None), "min": (1, None), "ord": (1, 1), "pow": (2, 3), "range": (1, 3),
    "reversed": (1, 1), "round": (1, 2), "slice": (1, 3), "sorted": (1, 1), "sum": (1, 2),
    "tuple": (0, 1), "zip": (1, None), "super": (0, 2),
}
ARITY_EXCEPTIONS = {"super": {1}}  # counts within the range the graph still refuses
# Builtins whose result the compiler decides from the types while compiling (probed with 2.10:
# `t.to_local() if isinstance(t, Sub) else t` compiles on a Parameter). A branch on one that the
# interpreter cannot decide may be dead in the graph: what it reads there proves nothing.
TYPE_DECIDED = frozenset({"isinstance", "issubclass", "hasattr", "callable"})

# What the graph checks of a builtin's arguments while compiling, in the order the interpreter
# judges them; each check is one of these:
# - "string_length": STRICT and COMPATIBLE give graph strings no __len__ (len("ab"), enumerate("ab"));
# - "tensor_length": len() of a 0-d tensor ("Not support len of a 0-D tensor.");
# - "scalar_conversion": int() or float() of a tensor or array of several elements;
# - "iterates_first" / "iterates_every": iterating a 0-d tensor, which has no elements (the first
#   argument; zip: every argument);
# - "sequence_argument": enumerate of a scalar ("should be tuple or list or tensor", 2.10 and 2.7);
# - "dynamic_length_first" / "dynamic_length_every" / "dynamic_length_after_first": a
#   dynamic-length input is refused ("For 'map', the dynamic length input is unsupported in graph
#   mode"; enumerate is a zip; map's first argument is the function);
# - "attribute_by_name": getattr(obj, "name") reads the attribute; a name that is no str fails
#   (TypeError "getattr(): attribute name must be string", 2.10 and 2.7);
# - "has_attribute": hasattr(obj, "name") of a known object is decided while compiling;
# - "map_arguments": map takes lists or tuples of one kind and one length (compiler-suite 0347-0350);
# - "instance_check": isinstance of known values is decided while compiling.
BUILTIN_CHECKS = {
    "len": ("string_length", "tensor_length"),
    "enumerate": ("string_length", "iterates_first", "sequence_argument", "dynamic_length_first"),
    "int": ("scalar_conversion",),
    "float": ("scalar_conversion",),
    "list": ("iterates_first",),
    "tuple": ("iterates_first",),
    "zip": ("iterates_every", "dynamic_length_every"),
    "getattr": ("attribute_by_name",),
    "hasattr": ("has_attribute",),
    "map": ("map_arguments", "dynamic_length_after_first"),
    "isinstance": ("instance_check",),
}
# Folds the graph bounds before computing them, by the check that judges the known arguments:
# a range whose walk leaves int64 (the graph's make_range counts in int64: ValueError), a power
# too big to compute (left unknown).
BUILTIN_FOLD_BOUNDS = {"range": "range_in_int64", "pow": "power_size"}
