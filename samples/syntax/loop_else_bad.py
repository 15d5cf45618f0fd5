"""loop-else: for...else and while...else inside construct.

What the compiler does at each level: msgraphlint explain loop-else.
"""

from mindspore import nn


class FirstWideLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.widths = (1, 2, 4)

    def construct(self, x):
        for width in self.widths:  # expect: loop-else
            if width > 2:
                x = x * width
                break
        else:
            x = x * 0
        return x


class Halve(nn.Cell):
    def construct(self, x):
        steps = 0
        while steps < 3:  # expect: loop-else
            x = x / 2
            steps += 1
        else:
            x = x + 1
        return x
