"""tangent-structure-mismatch, fixed: the tangent mirrors the inputs, one tensor for one input and
a tuple for several (one per input). Per level: msgraphlint explain tangent-structure-mismatch."""

import numpy as np
from mindspore import Tensor, nn, ops


def cube(x):
    return x ** 3


class CubeTangent(nn.Cell):
    def construct(self, x):
        return ops.jvp(cube, (x,), x)


def main():
    x = Tensor(np.ones((2, 2), np.float32))
    CubeTangent()(x)


if __name__ == "__main__":
    main()
