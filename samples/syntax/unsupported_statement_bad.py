"""unsupported-statement: try, del, import, class, nonlocal and match inside construct.

What the compiler does at each level: msgraphlint explain unsupported-statement.
"""

from mindspore import jit, nn, ops


class SafeHead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        try:  # expect: unsupported-statement
            return self.head(x)
        except ValueError:
            return x


class FreeMemory(nn.Cell):
    def construct(self, x):
        hidden = ops.relu(x)
        out = hidden * 2
        del hidden  # expect: unsupported-statement
        return out


class LazyImport(nn.Cell):
    def construct(self, x):
        import math  # expect: unsupported-statement

        return x * math.pi


class LocalConfig(nn.Cell):
    def construct(self, x):
        if x.ndim == 2:
            class Scale:  # expect: unsupported-statement
                factor = 2.0

            x = x * Scale.factor
        return x


class Counter(nn.Cell):
    def construct(self, x):
        steps = 0

        def step(value):
            nonlocal steps  # expect: unsupported-statement
            steps = steps + 1
            return value + 1

        return step(x)


class Activation(nn.Cell):
    def __init__(self, kind="relu"):
        super().__init__()
        self.kind = kind

    def construct(self, x):
        match self.kind:  # expect: unsupported-statement
            case "relu":
                return ops.relu(x)
            case _:
                return x


@jit
def safe_log(x):
    try:  # expect: unsupported-statement
        return ops.log(x)
    except RuntimeError:
        return x
