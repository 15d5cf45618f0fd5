"""function-in-output: construct hands a function, a method or a sub-Cell back to Python.

What the compiler does at each level: msgraphlint explain function-in-output.
"""

from mindspore import nn, ops


def scale(x):
    return x * 2


class ReturnsHelper(nn.Cell):
    def construct(self, x):
        return x, scale  # expect: function-in-output


class ReturnsOpsFunction(nn.Cell):
    def construct(self, x):
        return ops.relu  # expect: function-in-output


class ReturnsLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(2, 2)

    def construct(self, x):
        outputs = (x, self.head)
        return outputs  # expect: function-in-output


class ReturnsMethod(nn.Cell):
    def construct(self, x):
        return self.post  # expect: function-in-output

    def post(self, y):
        return y + 1


class ReturnsLambda(nn.Cell):
    def construct(self, x):
        return lambda y: y + x  # expect: function-in-output
