"""unsupported-exception-type, fixed: the standard exceptions the compiler knows, details in the
message; and a Cell raising GeneratorExit that only PyNative runs (the one place building it
demands PyNative mode first), so it is never compiled.
Per level: msgraphlint explain unsupported-exception-type."""

from mindspore import PYNATIVE_MODE, get_context, nn


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


class FirstInputCatcher(nn.Cell):
    """Records the inputs of the layer it stands in for, then stops the forward pass: raised in
    PyNative only, since the one place that builds it demands PyNative first."""

    def __init__(self):
        super().__init__()
        self.inputs = []

    def construct(self, x):
        self.inputs.append(x)
        raise GeneratorExit("caught the first layer's inputs")


class Calibrator:
    def _check_mode(self):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("calibrate in PYNATIVE_MODE")

    def first_inputs(self, batch):
        self._check_mode()
        catcher = FirstInputCatcher()
        try:
            catcher(batch)
        except GeneratorExit:
            pass
        return catcher.inputs
