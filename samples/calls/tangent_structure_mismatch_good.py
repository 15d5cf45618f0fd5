"""tangent-structure-mismatch, fixed: the tangent mirrors the inputs, one tensor for one input and
a tuple for several (one per input). Per level: msgraphlint explain tangent-structure-mismatch."""

from mindspore import nn, ops


def cube(x):
    return x ** 3


class CubeTangent(nn.Cell):
    def construct(self, x):
        return ops.jvp(cube, (x,), x)

