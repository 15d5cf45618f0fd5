"""item-attribute-assign: an attribute of an item taken by index assigned in compiled code. Per level: msgraphlint explain item-attribute-assign."""

from mindspore import nn


class Rescaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.LeakyReLU(alpha=0.1), nn.Tanh()])

    def construct(self, x):
        self.layers[0].alpha = 0.2  # expect: item-attribute-assign
        return self.layers[1](self.layers[0](x))


def warm_up(layers, x, warm=False):
    if warm:  # never taken by the caller below: the parser rejects it all the same
        layers[0].alpha += 0.1  # expect: item-attribute-assign
    return x


class Warmed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.LeakyReLU(alpha=0.1), nn.Tanh()])

    def construct(self, x):
        return self.layers[1](warm_up(self.layers, x))
