"""forward-without-construct, fixed: the computation is in construct(). Per level: msgraphlint explain forward-without-construct."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()

    def construct(self, x):
        return self.act(x) * 2


class ScaledBlock(Block):
    # forward() as a plain helper is fine: construct is inherited from Block.
    def forward(self, x):
        return self.construct(x) * 3


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.scaled = ScaledBlock()

    def construct(self, x):
        return self.block(x) + self.scaled.forward(x)
