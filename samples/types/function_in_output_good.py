"""function-in-output, fixed: functions are called inside the graph and only tensors go back;
a helper may hand a function to the graph that called it, which keeps it in the graph.
What the compiler does at each level: msgraphlint explain function-in-output.
"""

from mindspore import nn, ops


def scale(x):
    return x * 2


class CallsHelper(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Tanh()

    def construct(self, x):
        return self.head(x), ops.relu(x), self.pick()(x)

    def pick(self):
        return scale


class ReturnsProperty(nn.Cell):
    @property
    def factor(self):
        return 3

    def construct(self, x):
        return x * self.factor, self.factor
