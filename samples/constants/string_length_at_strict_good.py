"""string-length-at-strict, fixed: a tuple of the characters and a literal length. Per level:
msgraphlint explain string-length-at-strict."""

from mindspore import nn


class Letters(nn.Cell):
    def construct(self, x):
        for i, c in enumerate(("x", "y", "z")):
            x = x + i
        return x + 4
