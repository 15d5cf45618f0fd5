"""builtin-arity-error: a builtin called with a number of arguments the graph refuses.

What the compiler does at each level: msgraphlint explain builtin-arity-error.
"""

from mindspore import nn


class EmptyZip(nn.Cell):
    def construct(self, x):
        for a, b in zip():  # expect: builtin-arity-error
            x = x + a * b
        return x


class MapWithoutSequence(nn.Cell):
    def double(self, v):
        return v * 2

    def construct(self, x):
        doubled = map(self.double)  # expect: builtin-arity-error
        return x, doubled
