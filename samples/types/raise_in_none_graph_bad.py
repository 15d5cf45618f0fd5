"""raise-in-none-graph: a check Cell that gives back nothing and raises on a tensor test, and
functions its compiled code calls that give back nothing and raise, or assign a Parameter, under
a tensor test.

What the compiler does at each level: msgraphlint explain raise-in-none-graph.
"""

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

SAMPLE_INPUTS = ("float32[2,4]",)


class CheckRange(nn.Cell):
    def construct(self, x):
        if x.max() > 10:
            raise ValueError("out of range")  # expect: raise-in-none-graph


def check_finite(x):
    """A helper compiled code calls: it gives back None too."""
    if ops.isnan(x).any():
        raise ValueError("input has NaN")  # expect: raise-in-none-graph


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.scale = Parameter(Tensor(np.ones(4), ms.float32), name="scale")

    def _track(self, x):
        if x.max() > 10:
            self.scale = self.scale * 0.5  # expect: raise-in-none-graph

    def construct(self, x):
        x = self.proj(x)
        check_finite(x)
        self._track(x)
        return x * self.scale
