"""tensor-as-bool: a [2,2] tensor used as a Python boolean.

In if and while tests and an if expression; msgraphlint cannot see shapes, so it does not know
whether the tensor holds one element.
What the compiler does at each level: msgraphlint explain tensor-as-bool.
"""

import mindspore as ms
from mindspore import nn, ops


class Threshold(nn.Cell):
    def construct(self, x):
        batch = x.shape[0]
        scores = ops.sigmoid(x)
        if scores > 0.5:  # expect: tensor-as-bool
            return x + batch
        return x


class Finite(nn.Cell):
    def construct(self, x):
        y = x.astype(ms.float32)
        if not ops.isfinite(y):  # expect: tensor-as-bool
            return y
        return y * 2


class Decay(nn.Cell):
    def construct(self, x):
        y = x.reshape((2, 2))
        while y > 1:  # expect: tensor-as-bool
            y = y / 2
        return y


class Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.score = nn.Dense(2, 1)

    def construct(self, x):
        logit = self.score(x)
        return x * 2 if logit > 0 else x  # expect: tensor-as-bool


class Classify(nn.Cell):
    def construct(self, x):
        if x.argmax(-1) == 1:  # expect: tensor-as-bool
            return x * 2
        return x
