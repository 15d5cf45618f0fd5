"""mindspore-call-mismatch: a keyword the MindSpore function no longer has.

What the compiler does at each level: msgraphlint explain mindspore-call-mismatch.
"""

from mindspore import nn, ops


class Padded(nn.Cell):
    def construct(self, x):
        return ops.pad(x, paddings=(1, 1))  # expect: mindspore-call-mismatch
