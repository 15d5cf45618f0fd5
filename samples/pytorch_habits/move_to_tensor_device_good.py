"""move-to-tensor-device, fixed: the cast is kept, the move is gone. Per level: msgraphlint explain move-to-tensor-device."""

import mindspore as ms
from mindspore import nn


class Mask(nn.Cell):
    def construct(self, x):
        mask = (x > 0.5).astype(ms.float32)
        return (x * mask).sum()


class Follow(nn.Cell):
    def construct(self, x):
        return (x * x).sum()
