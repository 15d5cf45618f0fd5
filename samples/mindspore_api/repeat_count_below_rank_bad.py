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


class Critic(nn.Cell):
    def construct(self, obs):
        return self.build_inputs(obs) * 2

    def build_inputs(self, obs):
        """What the critic is comes from a config dict, so only its method's name says which
        Cell it is; obs[:, 1:] shows obs is a tensor, and the view names four dimensions."""
        return obs[:, 1:].view(-1, 2, 1, 1).repeat(2, 2)  # expect: repeat-count-below-rank


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
