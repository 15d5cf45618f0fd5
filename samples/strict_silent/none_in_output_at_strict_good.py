"""none-in-output-at-strict, fixed: only tensors beside each other, or a None in a nested tuple. Per level: msgraphlint explain none-in-output-at-strict."""

import mindspore as ms
from mindspore import nn, ops


class WithoutAux(nn.Cell):
    def construct(self, x):
        return x * 2, ops.zeros_like(x)


class AuxFirst(nn.Cell):
    def construct(self, x):
        return x + 1, (None, 1)


@ms.jit(fullgraph=True)
def predict(x):
    return [x - 1]
