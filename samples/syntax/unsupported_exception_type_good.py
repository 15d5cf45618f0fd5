"""unsupported-exception-type, fixed: the standard exceptions the compiler knows, details in the
message. Per level: msgraphlint explain unsupported-exception-type."""

from mindspore import nn


class CheckedInput(nn.Cell):
    def construct(self, x):
        if x.ndim != 2:
            raise ValueError(f"{x.ndim}-D input")
        return x * 2


class Lookup(nn.Cell):
    def __init__(self):
        super().__init__()
        self.table = {"scale": 2.0}

    def check(self, key):
        if key not in self.table:
            raise KeyError(key)
        return self.table[key]

    def construct(self, x):
        return x * self.check("scale")
