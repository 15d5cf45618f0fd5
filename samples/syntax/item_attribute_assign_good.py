"""item-attribute-assign, fixed: the slope is chosen when the layers are built, not set from construct. Per level: msgraphlint explain item-attribute-assign."""

from mindspore import nn


class Rescaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.LeakyReLU(alpha=0.2), nn.Tanh()])

    def construct(self, x):
        return self.layers[1](self.layers[0](x))


def warm_up(x, warm=False):
    if warm:
        x = x * 1.1
    return x


class Warmed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.LeakyReLU(alpha=0.1), nn.Tanh()])

    def construct(self, x):
        return self.layers[1](warm_up(x))
