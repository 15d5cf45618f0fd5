"""device-move-call: x.cuda(), x.cpu() and x.to(device) in compiled code. Per level: msgraphlint explain device-move-call."""

from mindspore import nn, ops


class ToGpu(nn.Cell):
    def construct(self, x):
        return ops.relu(x)  # expect: device-move-call


class BackToHost(nn.Cell):
    def construct(self, x):
        return ops.relu(x)  # expect: device-move-call


class MoveWithTo(nn.Cell):
    def __init__(self, device="cuda"):
        super().__init__()
        self.device = device

    def construct(self, x):
        return ops.relu(x)  # expect: device-move-call


class MoveToCpu(nn.Cell):
    def construct(self, x):
        return ops.relu(x)  # expect: device-move-call
