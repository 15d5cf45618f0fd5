"""uncompilable-mindspore-function, fixed: the functions the deprecation notices name, which graph
mode compiles, and the host utility called in __init__. Per level: msgraphlint explain uncompilable-mindspore-function."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops


class Determinant(nn.Cell):
    def construct(self, x):
        return ops.det(x)


class SoftShrink(nn.Cell):
    def construct(self, x):
        return ops.softshrink(x)


class HostUtility(nn.Cell):
    """The host utility runs once, in Python, when the Cell is built."""

    def __init__(self):
        super().__init__()
        self.dtype = ms.pytype_to_dtype(float)

    def construct(self, x):
        return x.astype(self.dtype)


def main():
    x = Tensor(np.eye(3, dtype=np.float32) * 2)
    Determinant()(x)
    SoftShrink()(x)
    HostUtility()(x)


if __name__ == "__main__":
    main()
