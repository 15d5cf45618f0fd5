"""multi-element-tensor-as-bool, fixed: the test says which truth it means. Per level:
msgraphlint explain multi-element-tensor-as-bool."""

from mindspore import Tensor, nn


class MaskGate(nn.Cell):
    def construct(self, x):
        mask = Tensor([0, 1])
        if (mask != 0).any():
            return x
        return x * 0
