"""uncompilable-mindspore-function: MindSpore functions whose own Python body calls mindspore.log
(a deprecation notice, or a host-only utility's warning), which graph mode compiles and rejects, on a (3, 3) float32 tensor (main()
passes it). Per level: msgraphlint explain uncompilable-mindspore-function."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops


class Determinant(nn.Cell):
    def construct(self, x):
        return ops.matrix_determinant(x)  # expect: uncompilable-mindspore-function


class SoftShrink(nn.Cell):
    def construct(self, x):
        return ops.soft_shrink(x)  # expect: uncompilable-mindspore-function


class HostUtility(nn.Cell):
    """pytype_to_dtype is a host utility: its body warns through mindspore.log."""

    def construct(self, x):
        return x.astype(ms.pytype_to_dtype(float))  # expect: uncompilable-mindspore-function


def main():
    x = Tensor(np.eye(3, dtype=np.float32) * 2)
    Determinant()(x)
    SoftShrink()(x)
    HostUtility()(x)


if __name__ == "__main__":
    main()
