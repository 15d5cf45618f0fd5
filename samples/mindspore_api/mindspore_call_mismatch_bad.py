"""mindspore-call-mismatch: a keyword the MindSpore function no longer has.

What the compiler does at each level: msgraphlint explain mindspore-call-mismatch.
"""

from mindspore import mint, nn, ops


class Padded(nn.Cell):
    def construct(self, x):
        return ops.pad(x, paddings=(1, 1))  # expect: mindspore-call-mismatch


class Transposed(nn.Cell):
    """ops.transpose(input, input_perm) up to 2.7; (input, dims) from 2.8 (probed with 2.7, 2.8
    and 2.10): `--target-version 2.7` reports nothing here."""

    def construct(self, x):
        return ops.transpose(x, input_perm=(1, 0))  # expect: mindspore-call-mismatch


class MaxAlongDim(nn.Cell):
    """mint.max is overloaded: (input), (input, other) or (input, dim, keepdim); numpy's keepdims
    matches none of them."""

    def construct(self, x):
        return mint.max(x, dim=1, keepdims=True)  # expect: mindspore-call-mismatch
