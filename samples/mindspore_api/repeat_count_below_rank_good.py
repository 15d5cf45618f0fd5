"""repeat-count-below-rank, fixed: numpy's repeat along an axis is repeat_interleave; a tiling
gives one count per dimension. Per level: msgraphlint explain repeat-count-below-rank."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.common.initializer import Zero


class RepeatAlongAxis(nn.Cell):
    def construct(self, x):
        return x.repeat_interleave(2, dim=1)


class PaddingBlock(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.pad = Tensor(shape=(1, channels, 4, 2), dtype=ms.float32, init=Zero())

    def construct(self, x):
        return ops.tile(self.pad, (x.shape[0], 1, 1, 1))


class Critic(nn.Cell):
    def construct(self, obs):
        return self.build_inputs(obs) * 2

    def build_inputs(self, obs):
        """Four counts for the four dimensions the view names."""
        return ops.tile(obs[:, 1:].view(-1, 2, 1, 1), (1, 1, 2, 1))


class CriticLoss(nn.Cell):
    def __init__(self, networks=None):
        super().__init__()
        networks = networks or {"critic": Critic()}
        self.critic = networks["critic"]

    def construct(self, obs):
        return self.critic.build_inputs(obs).sum()


def main():
    x = Tensor(np.ones((2, 3, 4), np.float32))
    RepeatAlongAxis()(x)
    PaddingBlock(3)(x)
    CriticLoss({"critic": Critic()})(x)


if __name__ == "__main__":
    main()
