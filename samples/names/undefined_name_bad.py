"""undefined-name: names the graph compiler cannot resolve, even where Python would only fail
when (if ever) the line runs. Per level: msgraphlint explain undefined-name."""

from mindspore import nn


class ScaledByClassConstant(nn.Cell):
    SCALE = 2.0

    def construct(self, x):
        return x * SCALE  # expect: undefined-name


class ForgottenImport(nn.Cell):
    def construct(self, x):
        if x.sum() > 100:
            return ops.relu(x)  # expect: undefined-name
        return x
