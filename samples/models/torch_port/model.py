"""A classifier ported from PyTorch as a first port looks: forward instead of construct,
x.size(0), .detach(), .cuda(), np.mean on a tensor and ms_function. Every finding here has a safe
fix: `msgraphlint check --fix` rewrites it into a model that compiles at STRICT and LAX
(tests/test_fix.py compiles the fixed copy with the real MindSpore)."""

import numpy as np
from mindspore import nn, ops
from mindspore import ms_function  # expect: removed-ms-function


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def forward(self, x):  # expect: forward-without-construct
        return ops.relu(self.fc(x))


class Classifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.head = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        features = self.encoder(x.cuda())  # expect: device-move-call
        flat = features.reshape(features.size(0), -1)  # expect: tensor-size-call
        centred = flat - np.mean(flat, axis=1, keepdims=True)  # expect: numpy-reduction-on-tensor
        return self.head(centred) * flat.detach().sum()  # expect: detach-call


@ms_function
def predict(x):
    return x * 2 + 1
