"""branch-type-mismatch: the branches of an if on a tensor give a tensor and a Python number.

In returns, in a variable bound in one branch and used after the if, and in an if expression.
What the compiler does at each level: msgraphlint explain branch-type-mismatch.
"""

import numpy as np
from mindspore import Tensor, nn


class ClampedLoss(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x * 2
        return 0.0  # expect: branch-type-mismatch


class RunningTotal(nn.Cell):
    def construct(self, x):
        total = 0
        if x.mean() > 0:
            total = x.sum()
        return x + total  # expect: branch-type-mismatch


class Gate(nn.Cell):
    def construct(self, x):
        gate = x * 2 if x.max() > 0.5 else 1.0  # expect: branch-type-mismatch
        return x * gate


class Shifted(nn.Cell):
    def shift(self, x):
        if x.sum() > 0:
            return x - 1
        return 0  # expect: branch-type-mismatch

    def construct(self, x):
        return self.shift(x)


class FirstPositive(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if x.sum() > i:
                return x * i
        return -1  # expect: branch-type-mismatch


class PairOrSingle(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x, x * 2
        return x  # expect: branch-type-mismatch


def run():
    PairOrSingle()(Tensor(np.ones((2,), np.float32)))
