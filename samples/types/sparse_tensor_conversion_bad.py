"""sparse-tensor-conversion: bool(), int(), float() or list() of a COOTensor, CSRTensor or
RowTensor.

What the compiler does at each level: msgraphlint explain sparse-tensor-conversion.
"""

import mindspore as ms
from mindspore import COOTensor, Tensor, nn


class HeldFlag(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mask = COOTensor(Tensor([[0, 1]], ms.int32), Tensor([1.0], ms.float32), (2, 2))

    def construct(self, x):
        return x * float(self.mask)  # expect: sparse-tensor-conversion


class Listed(nn.Cell):
    def construct(self, x):
        sparse = COOTensor(Tensor([[0, 1], [1, 0]], ms.int32), Tensor([1.0, 2.0]) * x.mean(), (2, 2))
        return list(sparse)[0]  # expect: sparse-tensor-conversion
