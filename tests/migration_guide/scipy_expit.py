"""torch.sigmoid(x) ported as scipy.special.expit on a host copy."""

import scipy.special
from mindspore import Tensor, nn


class Gate(nn.Cell):
    def construct(self, x):
        return Tensor(scipy.special.expit(x.asnumpy()))


class GatedResidual(nn.Cell):
    def construct(self, x):
        return x + Tensor(scipy.special.expit(x.asnumpy()))


class GateOnTensor(nn.Cell):
    def construct(self, x):
        return x * Tensor(scipy.special.expit(x))
