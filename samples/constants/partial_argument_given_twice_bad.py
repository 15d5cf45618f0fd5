"""partial-argument-given-twice: a partial's call gives one parameter both a positional and a
keyword argument.

What the compiler does at each level: msgraphlint explain partial-argument-given-twice.
"""

from functools import partial

from mindspore import nn, ops


def scale_shift(x, scale, shift):
    return x * scale + shift


class BoundFirst(nn.Cell):
    def construct(self, x):
        affine = partial(scale_shift, x)
        return affine(x=x, scale=2.0, shift=1.0)  # expect: partial-argument-given-twice


class BoundByKeyword(nn.Cell):
    def blend(self, x, weight, bias):
        return x * weight + bias

    def construct(self, x):
        mix = ops.partial(self.blend, weight=0.5)
        return mix(x, 0.25, 1.0)  # expect: partial-argument-given-twice
