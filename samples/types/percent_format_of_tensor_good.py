"""percent-format-of-tensor, fixed: an f-string. Per level: msgraphlint explain
percent-format-of-tensor."""

from mindspore import nn


class Limit(nn.Cell):
    def construct(self, x):
        if x.max() > 10:
            raise ValueError(f"too big: {x.max()}")
        return x
