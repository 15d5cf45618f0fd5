"""mindspore-name-missing, fixed: the name MindSpore 2.10 has. Per level:
msgraphlint explain mindspore-name-missing."""

from mindspore import nn, ops


class Joined(nn.Cell):
    def construct(self, x):
        return ops.concat((x, x), axis=0)
