"""detach-call: PyTorch's x.detach(), which MindSpore tensors do not have. Per level: msgraphlint explain detach-call."""

from mindspore import nn
from mindspore import ops


class FixedScale(nn.Cell):
    def construct(self, x):
        return x * ops.stop_gradient(x)  # expect: detach-call


class TiedProjection(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc(x) + x @ ops.stop_gradient(self.fc.weight)  # expect: detach-call
