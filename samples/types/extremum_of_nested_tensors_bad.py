"""extremum-of-nested-tensors: max() or min() of a sequence whose elements hold tensors only in
nested sequences.

What the compiler does at each level: msgraphlint explain extremum-of-nested-tensors.
"""

from mindspore import nn


class NestedPairs(nn.Cell):
    def construct(self, x):
        pairs = ((x.sum(), x.max()), (x.min(),))
        return max(pairs)  # expect: extremum-of-nested-tensors


class NestedList(nn.Cell):
    def construct(self, x):
        return min([[x.sum()], [x.mean()]])  # expect: extremum-of-nested-tensors
