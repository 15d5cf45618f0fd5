"""branch-none-join: the branches of an if on a tensor give None and a tensor.

The joined value is only returned from construct.
What the compiler does at each level: msgraphlint explain branch-none-join.
"""

from mindspore import nn


class OptionalMask(nn.Cell):
    def construct(self, x):
        mask = None
        if x.sum() > 0:
            mask = x > 0.5
        return mask  # expect: branch-none-join


class MaybeScale(nn.Cell):
    def scale(self, x):
        if x.max() > 0.5:
            return x * 2
        return None  # expect: branch-none-join

    def construct(self, x):
        scaled = self.scale(x)
        return scaled


class Picked(nn.Cell):
    def construct(self, x):
        return x * 2 if x.min() > 0 else None  # expect: branch-none-join
