"""torch.neg(x) ported as np.negative(x)."""

import numpy as np
from mindspore import Tensor, nn


class Negate(nn.Cell):
    def construct(self, x):
        return Tensor(np.negative(x))


class NegateResidual(nn.Cell):
    def construct(self, x):
        return x * 2 + Tensor(np.negative(x))
