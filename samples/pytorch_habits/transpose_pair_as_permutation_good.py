"""transpose-pair-as-permutation, fixed: x.swapaxes(dim0, dim1) swaps two dimensions in a graph
as in PyNative, at every rank. Per level: msgraphlint explain transpose-pair-as-permutation."""

import numpy as np

from mindspore import Tensor, nn, ops


class Scores(nn.Cell):
    def construct(self, q, k):
        return ops.matmul(q, k.swapaxes(0, 1))


class SwapLastTwo(nn.Cell):
    def construct(self, x):
        return x.swapaxes(1, 2)


class FullPermutation(nn.Cell):
    """(1, 0) on a 2-D tensor is the same swap read either way."""

    def construct(self, x):
        return x.transpose(1, 0)


def main():
    q = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    Scores()(q, q)
    SwapLastTwo()(Tensor(np.ones((2, 3, 4), np.float32)))
    FullPermutation()(q)


if __name__ == "__main__":
    main()
