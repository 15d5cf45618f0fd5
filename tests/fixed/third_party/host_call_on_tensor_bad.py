"""host-call-on-tensor: scipy/math on a tensor value inside construct.

The argument flows from the inputs, so it is not a compile-time constant.
What the compiler does at each level: msgraphlint explain host-call-on-tensor.
"""

import math
import random

import scipy.special
from mindspore import Tensor, nn
from mindspore import ops


class ScipyGate(nn.Cell):
    def construct(self, x):
        return x + ops.sigmoid(x)  # expect: host-call-on-tensor


class MathScale(nn.Cell):
    def construct(self, x):
        return x * ops.sqrt(x.sum())  # expect: host-call-on-tensor


class TopValues(nn.Cell):
    def construct(self, x):
        row_sums = x.sum(1)
        return x * sorted(row_sums)[0]  # expect: host-call-on-tensor


class PickScale(nn.Cell):
    def construct(self, x):
        candidates = (x.sum(), x.mean())
        return x * random.choice(candidates[:1])  # expect: host-call-on-tensor
