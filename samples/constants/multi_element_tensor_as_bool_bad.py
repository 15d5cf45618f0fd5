"""multi-element-tensor-as-bool: a tensor whose construction shows several elements, used as a
Python boolean.

What the compiler does at each level: msgraphlint explain multi-element-tensor-as-bool.
"""

from mindspore import Tensor, nn


class MaskGate(nn.Cell):
    def construct(self, x):
        mask = Tensor([0, 1])
        return mask and x  # expect: multi-element-tensor-as-bool
