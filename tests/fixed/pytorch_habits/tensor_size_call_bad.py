"""tensor-size-call: PyTorch's x.size(0), where MindSpore's x.size is an int. Per level: msgraphlint explain tensor-size-call."""

from mindspore import nn


class Flatten(nn.Cell):
    def construct(self, x):
        return x.reshape(x.shape[0], -1)  # expect: tensor-size-call


class MeanOverRows(nn.Cell):
    def construct(self, x):
        rows, _ = x.shape  # expect: tensor-size-call
        return x.sum(axis=0) / rows
