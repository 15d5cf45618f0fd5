"""random-frozen, fixed: MindSpore's random operators draw inside the graph. Per level: msgraphlint explain random-frozen."""

import numpy as np
from mindspore import Tensor, jit, nn, ops


class NoisyInput(nn.Cell):
    def construct(self, x):
        noise = ops.randn_like(x) * 0.1
        return x + noise


class RandomScale(nn.Cell):
    def __init__(self):
        super().__init__()
        # Drawn once on purpose, in __init__: a fixed random projection is not frozen by mistake.
        self.projection = Tensor(np.random.rand(2, 2).astype(np.float32))

    def construct(self, x):
        scale = 0.8 + 0.4 * ops.rand(1)
        return ops.matmul(x, self.projection) * scale


@jit
def jitter(x):
    offset = ops.rand_like(x)
    return x + offset


class TruncatedScale(nn.Cell):
    def construct(self, x):
        return x * ops.clamp(1.0 + 0.1 * ops.randn(1), 0.8, 1.2)


class NormalShift(nn.Cell):
    def construct(self, x):
        return x + ops.randn(1)


class HeldGenerator(nn.Cell):
    # Not ops.uniform nor ops.normal: in the CI runs their PyNative draws repeated between calls
    # while GRAPH_MODE's did not (not reproduced alone, seeded or not), a MindSpore difference
    # this sample is not about. randn, rand and their _like forms never did.
    def construct(self, x):
        return x * (0.8 + 0.4 * ops.rand_like(x))
