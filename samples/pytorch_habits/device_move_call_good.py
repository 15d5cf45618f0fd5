"""device-move-call, fixed: no moves in the graph (mindspore.set_device picks the device). Per level: msgraphlint explain device-move-call."""

import mindspore as ms
from mindspore import nn, ops


class ToGpu(nn.Cell):
    def construct(self, x):
        return ops.relu(x)


class CastWithTo(nn.Cell):
    def construct(self, x):
        # Tensor.to(dtype) is a cast, and compiles.
        return ops.relu(x.to(ms.float32))


class CastWithAstype(nn.Cell):
    def construct(self, x):
        return ops.relu(x.astype(ms.float16)).astype(ms.float32)
