"""string-length-at-strict: the length of a string constant, or a loop over one, in compiled code.

What the compiler does at each level: msgraphlint explain string-length-at-strict.
"""

from mindspore import nn


class Letters(nn.Cell):
    def construct(self, x):
        for i, c in enumerate("xyz"):  # expect: string-length-at-strict
            x = x + i
        return x + len("abcd")  # expect: string-length-at-strict
