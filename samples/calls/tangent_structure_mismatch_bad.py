"""tangent-structure-mismatch: ops.jvp given a tangent whose structure is not that of the inputs.

What the compiler does at each level: msgraphlint explain tangent-structure-mismatch.
"""

from mindspore import nn, ops


def cube(x):
    return x ** 3


class CubeTangent(nn.Cell):
    def construct(self, x):
        return ops.jvp(cube, (x,), (x, x))  # expect: tangent-structure-mismatch

