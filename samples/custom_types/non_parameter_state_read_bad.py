"""non-parameter-state-read: an attribute assigned in construct read back into tensor maths.

The attribute is a plain Cell attribute, not a Parameter.
What the compiler does at each level: msgraphlint explain non-parameter-state-read.
"""

from mindspore import nn


class Anneal(nn.Cell):
    def __init__(self):
        super().__init__()
        self.temperature = 1.0

    def construct(self, x):
        self.temperature = 0.5  # expect: non-parameter-attribute-assign
        return x * self.temperature  # expect: non-parameter-state-read


class Residual(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cache = None

    def construct(self, x):
        self.cache = x * 3  # expect: non-parameter-attribute-assign
        return self.cache + x  # expect: non-parameter-state-read
