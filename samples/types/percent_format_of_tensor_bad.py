"""percent-format-of-tensor: a tensor %-formatted into a message in compiled code.

What the compiler does at each level: msgraphlint explain percent-format-of-tensor.
"""

from mindspore import nn


class Limit(nn.Cell):
    def construct(self, x):
        if x.max() > 10:
            raise ValueError("too big: %s" % x.max())  # expect: percent-format-of-tensor
        return x
