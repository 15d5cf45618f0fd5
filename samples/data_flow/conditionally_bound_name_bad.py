"""conditionally-bound-name: names read after an if that binds them in one branch only, or after
the loop whose body binds them.

Python would run them all: the shape test and the isinstance test are not folded while parsing,
and a loop body's names never leave the loop, even for a constant trip count or a CellList.
What the compiler does at each level: msgraphlint explain conditionally-bound-name.
"""

from mindspore import Tensor, nn


class ShapeScale(nn.Cell):
    def construct(self, x):
        if x.shape[0] == 2:
            scale = 2.0
        return x * scale  # expect: conditionally-bound-name


class TypeDispatch(nn.Cell):
    def construct(self, x):
        if isinstance(x, Tensor):
            y = x + 1
        else:
            return x
        z = y * 2
        if x.sum() > 100:
            w = z
        return w  # expect: conditionally-bound-name


class LastLayerOutput(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.Tanh()])

    def construct(self, x):
        for layer in self.layers:
            out = layer(x)
        return out  # expect: conditionally-bound-name


class LoopIndex(nn.Cell):
    def construct(self, x):
        for i in range(3):
            x = x + 1
        return x * i  # expect: conditionally-bound-name


class Countdown(nn.Cell):
    def construct(self, x):
        steps = 0
        while steps < 3:
            last = x * steps
            steps += 1
        return last  # expect: conditionally-bound-name


class MaskedInstanceNorm(nn.Cell):
    """Every read of a name some path leaves unbound is rejected: fixing the first read only
    moves the error to the next one."""

    def construct(self, x):
        if x.ndim > 2:
            axes = (2,)
        mean = x
        if x.ndim > 2:
            mean = x.mean(axes, keep_dims=True)  # expect: conditionally-bound-name
        var = x
        if x.ndim > 2:
            var = x.var(axes, keepdims=True)  # expect: conditionally-bound-name
        return (x - mean) / var
