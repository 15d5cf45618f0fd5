"""unpack-non-sequence, fixed: a tuple, list or dict unpacked. Per level: msgraphlint explain
unpack-non-sequence."""

from mindspore import nn, ops


class PairMax(nn.Cell):
    def construct(self, x):
        pair = ops.unstack(ops.relu(x))
        return ops.maximum(*pair)


class Options(nn.Cell):
    def construct(self, x):
        pairs = {"scale": 2}
        options = {"shift": 1, **pairs}
        return x * options["scale"]


class Heads(nn.Cell):
    def construct(self, x):
        count = 3
        heads = (x, *range(count))
        return heads[0]
