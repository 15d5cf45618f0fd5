"""getattr-numpy-default, fixed: the default is a tuple the graph takes. Per level:
msgraphlint explain getattr-numpy-default."""

from mindspore import nn


class OptionalScale(nn.Cell):
    def construct(self, x):
        scale = getattr(self, "scale", (1.0, 1.0))
        return x * scale[0]
