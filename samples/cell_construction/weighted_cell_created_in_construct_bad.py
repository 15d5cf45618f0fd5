"""weighted-cell-created-in-construct: the layer's weights are never trained, and GRAPH_MODE freezes
one random initialisation where PyNative draws new weights on every call."""

from mindspore import mint, nn


class Classifier(nn.Cell):
    def construct(self, x):
        return nn.Dense(x.shape[-1], 2)(x)  # expect: weighted-cell-created-in-construct


class Projection(nn.Cell):
    def construct(self, x):
        return mint.nn.Linear(2, 2)(x) + x  # expect: weighted-cell-created-in-construct
