"""sequence-operator-error: an operator Python does not define on two lists or tuples, applied to
sequences of tensors.

What the compiler does at each level: msgraphlint explain sequence-operator-error.
"""

from mindspore import nn


class MaskIntersection(nn.Cell):
    def construct(self, x):
        low = [x > 0, x > 1]
        high = [x < 2, x < 3]
        masks = low & high  # expect: sequence-operator-error
        return masks[0]


class PairDifference(nn.Cell):
    def construct(self, x):
        return (x * 2, x * 3) - (x, x)  # expect: sequence-operator-error


class MixedConcat(nn.Cell):
    def construct(self, x):
        heads = [x, x * 2]
        return (heads + (x * 3,))[2]  # expect: sequence-operator-error
