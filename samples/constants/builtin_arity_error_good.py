"""builtin-arity-error, fixed: the builtins get the arguments they take. Per level:
msgraphlint explain builtin-arity-error."""

from mindspore import nn


class PairedZip(nn.Cell):
    def construct(self, x):
        for a, b in zip((1, 2), (3, 4)):
            x = x + a * b
        return x


class MapOverSequence(nn.Cell):
    def double(self, v):
        return v * 2

    def construct(self, x):
        doubled = map(self.double, (1, 2))
        return x * doubled[1]
