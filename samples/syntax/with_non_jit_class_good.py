"""with-non-jit-class, fixed: the context manager is a @jit_class; host work stays outside. Per level: msgraphlint explain with-non-jit-class."""

from mindspore import jit_class, nn, ops


@jit_class
class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def __enter__(self):
        return self.factor

    def __exit__(self, *exc):
        return None


class ScaledForward(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scaler = Scaler(2.0)

    def construct(self, x):
        with self.scaler as factor:
            out = x * factor
        return out


class LocalScaler(nn.Cell):
    def construct(self, x):
        scaler = Scaler(3.0)
        with scaler as factor:
            out = ops.relu(x) * factor
        return out
