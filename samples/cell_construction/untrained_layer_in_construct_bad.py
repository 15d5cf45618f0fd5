"""untrained-layer-in-construct: normalisation layers created and called inside construct. Per level: msgraphlint explain untrained-layer-in-construct."""

from mindspore import nn


class Normalised(nn.Cell):
    def construct(self, x):
        return nn.LayerNorm((x.shape[-1],))(x)  # expect: untrained-layer-in-construct


class BatchNormalised(nn.Cell):
    def construct(self, x):
        return nn.BatchNorm1d(2)(x) + x  # expect: untrained-layer-in-construct
