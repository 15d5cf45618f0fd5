"""unpack-non-sequence: * or ** of a value the graph cannot unpack (a scalar, a str, a tensor; a
non-dict after ** in a dict display).

What the compiler does at each level: msgraphlint explain unpack-non-sequence.
"""

from mindspore import nn, ops


class PairMax(nn.Cell):
    def construct(self, x):
        pair = ops.relu(x)
        return ops.maximum(*pair)  # expect: unpack-non-sequence


class Options(nn.Cell):
    def construct(self, x):
        pairs = [("scale", 2)]
        options = {"shift": 1, **pairs}  # expect: unpack-non-sequence
        return x * options["scale"]


class Heads(nn.Cell):
    def construct(self, x):
        count = 3
        heads = (x, *count)  # expect: unpack-non-sequence
        return heads[0]
