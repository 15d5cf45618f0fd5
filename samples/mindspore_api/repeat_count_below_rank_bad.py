"""repeat-count-below-rank: numpy's x.repeat(n, axis) on a tensor of more than two dimensions,
which Tensor.repeat (PyTorch's, one count per dimension) takes as two counts. Reduced from
mindflow's spectral layers. Per level: msgraphlint explain repeat-count-below-rank."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.common.initializer import Zero


class RepeatAlongAxis(nn.Cell):
    def construct(self, x):
        return x.repeat(2, 1)  # expect: repeat-count-below-rank


class PaddingBlock(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.pad = Tensor(shape=(1, channels, 4, 2), dtype=ms.float32, init=Zero())

    def construct(self, x):
        return self.pad.repeat(x.shape[0], 0)  # expect: repeat-count-below-rank


def main():
    x = Tensor(np.ones((2, 3, 4), np.float32))
    RepeatAlongAxis()(x)
    PaddingBlock(3)(x)


if __name__ == "__main__":
    main()
