"""sub-cell-attribute-assign: a parent switching its child on in construct, in a method construct
calls, and rebinding a child's Parameter. What the compiler does at each level:
msgraphlint explain sub-cell-attribute-assign.
"""

import numpy as np
from mindspore import Parameter, Tensor, nn


class Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.open = False

    def construct(self, x):
        if self.open:
            return x + 1
        return x


class GatedBlock(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gate = Gate()

    def construct(self, x):
        self.gate.open = True  # expect: sub-cell-attribute-assign
        return self.gate(x)


class GatedByHelper(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gate = Gate()

    def _open(self):
        self.gate.open = True  # expect: sub-cell-attribute-assign

    def construct(self, x):
        self._open()
        return self.gate(x)


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w", requires_grad=False)

    def construct(self, x):
        return x * self.w


class Doubler(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Scale()

    def construct(self, x):
        self.scale.w = self.scale.w * 2  # expect: sub-cell-attribute-assign
        return self.scale(x)
