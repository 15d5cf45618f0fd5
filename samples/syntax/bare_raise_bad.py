"""bare-raise: a raise with no exception in compiled code.

What the compiler does at each level: msgraphlint explain bare-raise.
"""

from mindspore import nn


class Guard(nn.Cell):
    def construct(self, x):
        if x.max() > 10:
            raise  # expect: bare-raise
        return x
