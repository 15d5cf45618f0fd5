"""host-copy-of-constant-tensor, fixed: the Python value itself. Per level:
msgraphlint explain host-copy-of-constant-tensor."""

from mindspore import nn


class Table(nn.Cell):
    def construct(self, x):
        table = (1, 2, 3)
        return x * len(table)
