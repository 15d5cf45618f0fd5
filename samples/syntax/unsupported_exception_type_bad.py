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


class FirstInputCatcher(nn.Cell):
    """Records the inputs of the layer it stands in for, then stops the forward pass: built by a
    calibrator that may run in graph mode, where construct is compiled."""

    def __init__(self):
        super().__init__()
        self.inputs = []

    def construct(self, x):
        self.inputs.append(x)
        raise GeneratorExit("caught the first layer's inputs")  # expect: unsupported-exception-type


class Calibrator:
    def first_inputs(self, batch):
        catcher = FirstInputCatcher()
        try:
            catcher(batch)
        except GeneratorExit:
            pass
        return catcher.inputs
