"""weighted-cell-created-in-construct, fixed: layers are created in __init__, so their weights are
Parameters of the network. Per level: msgraphlint explain weighted-cell-created-in-construct."""

from mindspore import mint, nn


class Classifier(nn.Cell):
    def __init__(self, in_channels=2):
        super().__init__()
        # Fixed initial weights keep GRAPH_MODE and PyNative runs of this sample comparable.
        self.fc = nn.Dense(in_channels, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc(x)


class Projection(nn.Cell):
    def __init__(self):
        super().__init__()
        self.linear = mint.nn.Linear(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.linear(x) + x
