"""transpose-pair-as-permutation: PyTorch's x.transpose(dim0, dim1), which a graph reads as the
whole permutation of the axes. Per level: msgraphlint explain transpose-pair-as-permutation."""

import numpy as np

from mindspore import Tensor, nn, ops


class Scores(nn.Cell):
    """On a 2-D tensor (0, 1) is the identity permutation: the graph returns k unchanged, so the
    product is q @ k where PyNative computes q @ k.T."""

    def construct(self, q, k):
        return ops.matmul(q, k.transpose(0, 1))  # expect: transpose-pair-as-permutation


class SwapLastTwo(nn.Cell):
    """On a 3-D tensor two integers are no permutation: rejected."""

    def construct(self, x):
        return x.transpose(1, 2)  # expect: transpose-pair-as-permutation


def main():
    q = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    Scores()(q, q)
    SwapLastTwo()(Tensor(np.ones((2, 3, 4), np.float32)))


if __name__ == "__main__":
    main()
