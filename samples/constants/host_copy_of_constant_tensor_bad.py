"""host-copy-of-constant-tensor: a host copy of a tensor built from constants.

What the compiler does at each level: msgraphlint explain host-copy-of-constant-tensor.
"""

from mindspore import Tensor, nn


class Table(nn.Cell):
    def construct(self, x):
        table = Tensor([1, 2, 3]).asnumpy()  # expect: host-copy-of-constant-tensor
        return x * len(table)
