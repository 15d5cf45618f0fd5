"""missing-attribute: self.<name> read in compiled code that no class of the Cell ever sets.
What the compiler does at each level: msgraphlint explain missing-attribute."""

from mindspore import nn


class Typo(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def construct(self, x):
        return x * self.scael  # expect: missing-attribute


class MissingLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        return self.act(self.dense(x))  # expect: missing-attribute
