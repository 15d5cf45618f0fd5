"""sequence-operator-error, fixed: the operator is applied to the tensors, element by element.
Per level: msgraphlint explain sequence-operator-error."""

from mindspore import nn


class MaskIntersection(nn.Cell):
    def construct(self, x):
        low = [x > 0, x > 1]
        high = [x < 2, x < 3]
        masks = [a & b for a, b in zip(low, high)]
        return masks[0]


class PairDifference(nn.Cell):
    def construct(self, x):
        return tuple(a - b for a, b in zip((x * 2, x * 3), (x, x)))


class MixedConcat(nn.Cell):
    def construct(self, x):
        heads = [x, x * 2]
        return (heads + [x * 3])[2]
