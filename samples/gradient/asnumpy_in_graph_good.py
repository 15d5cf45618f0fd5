"""asnumpy-in-graph, fixed: stay on tensors (item() for a scalar), so the gradient flows. And a
pseudo-quantized pass that copies to the host under a flag that only PyNative calibration code
sets, then resets (mindspore_gs's outlier-suppression search): the graph is compiled with the
flag ``__init__`` gave it, and never builds that branch. Per level: msgraphlint explain
asnumpy-in-graph."""

import numpy as np
from mindspore import PYNATIVE_MODE, get_context, jit, nn, ops


class ScaleBySum(nn.Cell):
    def construct(self, x):
        factor = x.sum().item()
        return x * factor


class DoublePlusInput(nn.Cell):
    def construct(self, x):
        doubled = x * 2
        return doubled + x


@jit
def scale_by_total(x):
    total = x.sum().item()
    return x * total


class SumOfDoubled(nn.Cell):
    def construct(self, x):
        return x * (x * 2).sum()


@jit
def predict(x):
    return x * 2  # the caller copies it with asnumpy(), on the host


class FakeQuantLinear(nn.Cell):
    def __init__(self):
        super().__init__()
        self.quant_forward = False

    def _quant_forward(self, x):
        peak = np.abs(x.asnumpy()).max()
        return ops.round(x / peak) * peak

    def construct(self, x):
        if self.quant_forward:
            return self._quant_forward(x)
        return x * 2


class ScaleSearch:
    """Compares each layer's output with its pseudo-quantized output."""

    def process(self, layer_name, layer, inputs):
        reference = layer(inputs)
        layer.quant_forward = True
        error = ops.abs(layer(inputs) - reference).max()
        layer.quant_forward = False
        return layer_name, error


def calibrate(algorithms, layers, inputs):
    if get_context("mode") != PYNATIVE_MODE:
        raise ValueError("calibrate in PYNATIVE_MODE")
    return [algorithm.process(name, layer, inputs) for algorithm in algorithms
            for name, layer in layers]
