"""dynamic-length-unsupported, fixed: a for loop over the dynamic-length sequence, append, and
dynamic_len passed positionally. Per level: msgraphlint explain dynamic-length-unsupported."""

from mindspore import jit, mutable, nn


@jit
def pair_up(x):
    sizes = mutable([1, 2, 3], True)
    total = 0
    for size in sizes:
        total = total + size * size
    return x * total


class Numbered(nn.Cell):
    def construct(self, x):
        sizes = (1, 2, 3)
        for index, size in enumerate(sizes):
            x = x + index * size
        return x


class Extended(nn.Cell):
    def construct(self, x):
        sizes = mutable([1, 2], True)
        sizes.append(3)
        return x * len(sizes)


class PositionalFlag(nn.Cell):
    def construct(self, x):
        sizes = mutable([1, 2], True)
        return x * len(sizes)


class NotEmptyAtVariableIndex(nn.Cell):
    def construct(self, x):
        some = (2, 3)
        return x * some[mutable(0)]
