"""unsupported-exception-type: raise of a project exception class or an unlisted standard one.

The raises sit under an if, in construct and in a method it calls.
What the compiler does at each level: msgraphlint explain unsupported-exception-type.
"""

from mindspore import nn


class ShapeError(ValueError):
    """The project's own error for bad input shapes."""


class CheckedInput(nn.Cell):
    def construct(self, x):
        if x.ndim != 2:
            raise ShapeError(f"{x.ndim}-D input")  # expect: unsupported-exception-type
        return x * 2


class Lookup(nn.Cell):
    def __init__(self):
        super().__init__()
        self.table = {"scale": 2.0}

    def check(self, key):
        if key not in self.table:
            raise LookupError(key)  # expect: unsupported-exception-type
        return self.table[key]

    def construct(self, x):
        return x * self.check("scale")
