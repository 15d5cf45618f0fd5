"""loop-else, fixed: a flag set before break and tested after the loop. Per level: msgraphlint explain loop-else."""

from mindspore import nn


class FirstWideLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.widths = (1, 2, 4)

    def construct(self, x):
        found = False
        for width in self.widths:
            if width > 2:
                x = x * width
                found = True
                break
        if not found:
            x = x * 0
        return x


class Halve(nn.Cell):
    def construct(self, x):
        steps = 0
        while steps < 3:
            x = x / 2
            steps += 1
        x = x + 1
        return x
