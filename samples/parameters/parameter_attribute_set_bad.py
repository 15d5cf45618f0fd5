"""parameter-attribute-set: a Parameter frozen (requires_grad set) inside construct. Per level: msgraphlint explain parameter-attribute-set."""

import numpy as np
from mindspore import Parameter, Tensor, nn


class FreezeHead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        self.head.weight.requires_grad = False  # expect: parameter-attribute-set
        return self.head(x)


class FrozenScale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(np.ones((2, 2), np.float32)), name="scale")

    def construct(self, x):
        self.scale.requires_grad = False  # expect: parameter-attribute-set
        return x * self.scale
