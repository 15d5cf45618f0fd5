"""parameter-attribute-set, fixed: freeze in __init__, or stop the gradient inside the graph. Per level: msgraphlint explain parameter-attribute-set."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class FreezeHead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        self.head.weight.requires_grad = False

    def construct(self, x):
        return self.head(x)


class FrozenScale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(np.ones((2, 2), np.float32)), name="scale")

    def construct(self, x):
        return x * ops.stop_gradient(self.scale)
