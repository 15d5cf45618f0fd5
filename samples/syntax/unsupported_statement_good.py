"""unsupported-statement, fixed: if/else instead of try and match, imports and classes at module
level, values returned instead of nonlocal. Per level: msgraphlint explain unsupported-statement."""

import math

from mindspore import jit, nn, ops


class Scale:
    factor = 2.0


def step(value, steps):
    return value + 1, steps + 1


class SafeHead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        if x.shape[-1] != 2:
            raise ValueError("SafeHead expects 2 features")
        return self.head(x)


class FreeMemory(nn.Cell):
    def construct(self, x):
        hidden = ops.relu(x)
        return hidden * 2


class ModuleImport(nn.Cell):
    def construct(self, x):
        return x * math.pi


class ModuleConfig(nn.Cell):
    def construct(self, x):
        if x.ndim == 2:
            x = x * Scale.factor
        return x


class Counter(nn.Cell):
    def construct(self, x):
        out, _ = step(x, 0)
        return out


class Activation(nn.Cell):
    def __init__(self, kind="relu"):
        super().__init__()
        self.kind = kind

    def construct(self, x):
        if self.kind == "relu":
            return ops.relu(x)
        return x


@jit
def safe_log(x):
    return ops.log(ops.clamp(x, min=1e-6))
