"""mindspore-call-mismatch, fixed: the keyword of MindSpore 2.10's signature. Per level:
msgraphlint explain mindspore-call-mismatch."""

from mindspore import mint, nn, ops


class Padded(nn.Cell):
    def construct(self, x):
        return ops.pad(x, padding=(1, 1))


class Transposed(nn.Cell):
    def construct(self, x):
        return ops.transpose(x, (1, 0))


class MaxAlongDim(nn.Cell):
    def construct(self, x):
        return mint.max(x, dim=1, keepdim=True)
