"""detach-call, fixed: ops.stop_gradient cuts the value out of the gradient. Per level: msgraphlint explain detach-call."""

from mindspore import nn, ops


class FixedScale(nn.Cell):
    def construct(self, x):
        return x * ops.stop_gradient(x)


class TiedProjection(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc(x) + x @ ops.stop_gradient(self.fc.weight)
