"""raise-in-none-graph, fixed: the graph and the functions it calls give back their input. Per level:
msgraphlint explain raise-in-none-graph."""

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

SAMPLE_INPUTS = ("float32[2,4]",)


class CheckRange(nn.Cell):
    def construct(self, x):
        if x.max() > 10:
            raise ValueError("out of range")
        return x


def check_finite(x):
    if ops.isnan(x).any():
        raise ValueError("input has NaN")
    return x


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.scale = Parameter(Tensor(np.ones(4), ms.float32), name="scale")

    def _track(self, x):
        if x.max() > 10:
            self.scale = self.scale * 0.5
        return x

    def construct(self, x):
        x = check_finite(self.proj(x))
        x = self._track(x)
        return x * self.scale
