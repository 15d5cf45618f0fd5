"""asnumpy-in-graph: a tensor copied to the host (asnumpy, numpy, tolist) in compiled code. Per level: msgraphlint explain asnumpy-in-graph."""

import numpy as np

from mindspore import Tensor, jit, nn


class ScaleBySum(nn.Cell):
    def construct(self, x):
        factor = float(x.sum().asnumpy())  # expect: asnumpy-in-graph
        return x * factor


class DoublePlusInput(nn.Cell):
    def construct(self, x):
        doubled = Tensor(x.numpy() * 2)  # expect: asnumpy-in-graph
        return doubled + x


@jit
def scale_by_total(x):
    total = x.sum().tolist()  # expect: asnumpy-in-graph
    return x * total


class SumOfDoubled(nn.Cell):
    # A comprehension over the copy: rejected at LAX as well (gradient.toml's case).
    def construct(self, x):
        return x * sum([v * 2 for v in x.tolist()])  # expect: asnumpy-in-graph


@jit
def predict(x):
    # Only returned, and plain Python only calls predict: harmless at LAX, rejected at STRICT.
    return (x * 2).asnumpy()  # expect: asnumpy-in-graph


def run_predict():
    return predict(Tensor(np.ones((2, 2), np.float32)))
