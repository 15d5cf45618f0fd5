"""partial-argument-given-twice, fixed: each parameter gets one argument, from the partial or from
the call. Per level: msgraphlint explain partial-argument-given-twice."""

from functools import partial

from mindspore import nn, ops


def scale_shift(x, scale, shift):
    return x * scale + shift


class BoundFirst(nn.Cell):
    def construct(self, x):
        affine = partial(scale_shift, x)
        return affine(scale=2.0, shift=1.0)


class BoundByKeyword(nn.Cell):
    def blend(self, x, weight, bias):
        return x * weight + bias

    def construct(self, x):
        mix = ops.partial(self.blend, weight=0.5)
        return mix(x, bias=1.0)
