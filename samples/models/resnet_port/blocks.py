"""The backbone base class and the residual block it is built from."""

import numpy as np

from mindspore import Tensor, nn

from .utils import IMAGENET_MEAN, IMAGENET_STD, leaky_relu

# Filled by the blocks for debugging, where the reference used forward hooks.
ACTIVATION_MEANS = []


class Backbone(nn.Cell):
    """Base of the ported backbones: input statistics, the classifier head and shared helpers."""

    def __init__(self, channels, num_classes):
        super().__init__()
        # numpy in __init__ runs once on the host, before anything is compiled
        self.mean = Tensor(np.array(IMAGENET_MEAN, np.float32).reshape(1, 3, 1, 1))
        self.std = Tensor(np.array(IMAGENET_STD, np.float32).reshape(1, 3, 1, 1))
        self.head = nn.Dense(channels, num_classes)

    def _pool(self, features):
        """Global average pooling over height and width."""
        return features.mean(axis=(2, 3))

    def _post(self, pooled):
        """The reference's `x.view(x.size(0), -1)` before the head."""
        return pooled.reshape(pooled.size(0), -1)  # expect: tensor-size-call


class ResidualBlock(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def construct(self, x):
        out = leaky_relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        ACTIVATION_MEANS.append(out.mean())  # expect: global-list-mutation
        return leaky_relu(out + x)
