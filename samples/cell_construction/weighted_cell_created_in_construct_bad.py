"""weighted-cell-created-in-construct: layers with weights (nn.Dense, mint.nn.Linear) created and
called inside construct. Per level: msgraphlint explain weighted-cell-created-in-construct."""

from mindspore import mint, nn


class Classifier(nn.Cell):
    def construct(self, x):
        return nn.Dense(x.shape[-1], 2)(x)  # expect: weighted-cell-created-in-construct


class Projection(nn.Cell):
    def construct(self, x):
        return mint.nn.Linear(2, 2)(x) + x  # expect: weighted-cell-created-in-construct
