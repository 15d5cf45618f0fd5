"""conditionally-bound-name, fixed: every name is bound on every path that reaches its use.

A default before the if or the loop, a branch that returns or raises instead of binding, a test the
parser folds (`self` flags, settings). Per level: msgraphlint explain conditionally-bound-name.
"""

from mindspore import Tensor, nn


class ShapeScale(nn.Cell):
    def construct(self, x):
        scale = 1.0
        if x.shape[0] == 2:
            scale = 2.0
        return x * scale


class TypeDispatch(nn.Cell):
    def construct(self, x):
        if isinstance(x, Tensor):
            y = x + 1
        else:
            return x
        z = y * 2
        if x.sum() > 100:
            w = z
        else:
            w = z - 1
        return w


class LastLayerOutput(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.Tanh()])

    def construct(self, x):
        out = x
        for layer in self.layers:
            out = layer(x)
        return out


class LoopIndex(nn.Cell):
    def construct(self, x):
        count = 0
        for i in range(3):
            x = x + 1
            count = i
        return x * count


class Countdown(nn.Cell):
    def construct(self, x):
        steps = 0
        last = x
        while steps < 3:
            last = x * steps
            steps += 1
        return last


class FoldedFlag(nn.Cell):
    def __init__(self, use_bias=True):
        super().__init__()
        self.use_bias = use_bias
        self.mode = "scale"

    def construct(self, x):
        if self.use_bias:
            bias = x * 0.5
        if self.mode == "scale":
            factor = 2.0
        elif self.mode == "shift":
            factor = 1.0
        return x * factor + bias


class EarlyExit(nn.Cell):
    def construct(self, x):
        if x.shape[0] != 2:
            raise ValueError("expected two rows")
        else:
            rows = x.shape[0]
        return x * rows
