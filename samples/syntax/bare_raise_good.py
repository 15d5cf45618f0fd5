"""bare-raise, fixed: a specific exception. Per level: msgraphlint explain bare-raise."""

from mindspore import nn


class Guard(nn.Cell):
    def construct(self, x):
        if x.max() > 10:
            raise ValueError("x out of range")
        return x
