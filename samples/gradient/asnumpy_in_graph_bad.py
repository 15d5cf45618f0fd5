"""asnumpy-in-graph: a tensor copied to the host (asnumpy, numpy, tolist) in compiled code. Per level: msgraphlint explain asnumpy-in-graph."""

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
