"""jit-class-variable-init: a @jit_class instance built inside construct from a tensor. Per level: msgraphlint explain jit-class-variable-init."""

import mindspore as ms
from mindspore import nn


@ms.jit_class
class Scaler:
    def __init__(self, value):
        self.value = value

    def scaled(self, k):
        return self.value * k


class Net(nn.Cell):
    def construct(self, x):
        return Scaler(x).scaled(2.0)  # expect: jit-class-variable-init
