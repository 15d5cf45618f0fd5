"""graph-compile-error: an error only the compiler finds (shapes that do not fit), no static rule.

msgraphlint cannot see shapes, so the static check is silent; `msgraphlint check --confirm`
compiles the Cell and reports MindSpore's message. Per level: msgraphlint explain graph-compile-error.
"""

import mindspore
from mindspore import nn, ops


class Projection(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ops.ones((3, 4))

    def construct(self, x):
        return ops.matmul(x, self.weight)  # expect: graph-compile-error


if __name__ == "__main__":
    # The project calls it with a 2x2 input: the shapes the compiler is given to check.
    net = Projection()
    print(net(ops.ones((2, 2), mindspore.float32)))
