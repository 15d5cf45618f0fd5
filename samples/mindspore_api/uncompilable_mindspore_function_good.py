"""uncompilable-mindspore-function, fixed: the functions the deprecation notices name, which graph
mode compiles. Per level: msgraphlint explain uncompilable-mindspore-function."""

import numpy as np

from mindspore import Tensor, nn, ops


class Determinant(nn.Cell):
    def construct(self, x):
        return ops.det(x)


class SoftShrink(nn.Cell):
    def construct(self, x):
        return ops.softshrink(x)


def main():
    x = Tensor(np.eye(3, dtype=np.float32) * 2)
    Determinant()(x)
    SoftShrink()(x)


if __name__ == "__main__":
    main()
