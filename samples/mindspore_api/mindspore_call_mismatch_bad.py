"""mindspore-call-mismatch: a keyword the MindSpore function no longer has.

What the compiler does at each level: msgraphlint explain mindspore-call-mismatch.
"""

from mindspore import nn, ops


class Padded(nn.Cell):
    def construct(self, x):
        return ops.pad(x, paddings=(1, 1))  # expect: mindspore-call-mismatch


class Transposed(nn.Cell):
    """ops.transpose(input, input_perm) up to 2.7; (input, dims) from 2.8 (probed with 2.7, 2.8
    and 2.10): `--target-version 2.7` reports nothing here."""

    def construct(self, x):
        return ops.transpose(x, input_perm=(1, 0))  # expect: mindspore-call-mismatch
