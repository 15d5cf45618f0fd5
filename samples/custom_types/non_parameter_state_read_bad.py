"""non-parameter-state-read: an attribute assigned in construct read back into tensor maths.

STRICT: the assignment is rejected. LAX: the value comes back through the interpreter and the
gradient of the whole Cell is zero.
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
