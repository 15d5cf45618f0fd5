"""dynamic-length-unsupported: operations the graph refuses on a dynamic-length sequence or at a
variable index. Per level: msgraphlint explain dynamic-length-unsupported."""

from mindspore import jit, mutable, nn


@jit
def pair_up(x):
    sizes = mutable([1, 2, 3], True)
    pairs = tuple(zip(sizes, sizes))  # expect: dynamic-length-unsupported
    return x * len(pairs)


class Numbered(nn.Cell):
    def construct(self, x):
        sizes = mutable((1, 2, 3), True)
        for index, size in enumerate(sizes):  # expect: dynamic-length-unsupported
            x = x + index * size
        return x


class Extended(nn.Cell):
    def construct(self, x):
        sizes = mutable([1, 2], True)
        sizes.extend([3])  # expect: dynamic-length-unsupported
        return x * len(sizes)


class KeywordFlag(nn.Cell):
    def construct(self, x):
        sizes = mutable([1, 2], dynamic_len=True)  # expect: dynamic-length-unsupported
        return x * len(sizes)


class EmptyAtVariableIndex(nn.Cell):
    def construct(self, x):
        none_yet = ()
        return x * none_yet[mutable(0)]  # expect: dynamic-length-unsupported
