"""mindspore-name-missing: a MindSpore name the target version does not have.

What the compiler does at each level: msgraphlint explain mindspore-name-missing.
"""

from mindspore import nn, ops


class Joined(nn.Cell):
    def construct(self, x):
        return ops.concatcat((x, x), axis=0)  # expect: mindspore-name-missing
