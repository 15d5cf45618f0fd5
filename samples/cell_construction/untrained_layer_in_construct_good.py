"""untrained-layer-in-construct, fixed: the layers are attributes made in __init__, trained with the network. Per level: msgraphlint explain untrained-layer-in-construct."""

from mindspore import nn


class Normalised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm((2,))

    def construct(self, x):
        return self.norm(x)


class BatchNormalised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.norm = nn.BatchNorm1d(2)

    def construct(self, x):
        return self.norm(x) + x
