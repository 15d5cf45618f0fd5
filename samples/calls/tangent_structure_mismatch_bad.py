"""tangent-structure-mismatch: ops.jvp given a tangent whose structure is not that of the inputs.

What the compiler does at each level: msgraphlint explain tangent-structure-mismatch.
"""

import numpy as np
from mindspore import Tensor, nn, ops


def cube(x):
    return x ** 3


class CubeTangent(nn.Cell):
    def construct(self, x):
        return ops.jvp(cube, (x,), (x, x))  # expect: tangent-structure-mismatch


def main():
    x = Tensor(np.ones((2, 2), np.float32))
    CubeTangent()(x)


if __name__ == "__main__":
    main()
