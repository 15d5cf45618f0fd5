"""none-in-output-at-strict: None returned beside tensors. Per level: msgraphlint explain none-in-output-at-strict."""

import mindspore as ms
from mindspore import nn


class WithoutAux(nn.Cell):
    def construct(self, x):
        aux = None
        return x * 2, aux  # expect: none-in-output-at-strict


class AuxFirst(nn.Cell):
    def construct(self, x):
        return None, x + 1  # expect: none-in-output-at-strict


@ms.jit(fullgraph=True)
def predict(x):
    return [x - 1, None]  # expect: none-in-output-at-strict
