"""forward-without-construct: a Cell ported from PyTorch with forward() and no construct(). Per level: msgraphlint explain forward-without-construct."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()

    def construct(self, x):  # expect: forward-without-construct
        return self.act(x) * 2


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return self.block(x) + 1
