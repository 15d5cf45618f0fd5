"""move-to-tensor-device: PyTorch's labels.to(logits.device), which keeps tensors together. Per level: msgraphlint explain move-to-tensor-device."""

import mindspore as ms
from mindspore import nn


class Mask(nn.Cell):
    def construct(self, x):
        mask = (x > 0.5).astype(ms.float32)  # expect: move-to-tensor-device
        return (x * mask).sum()


class Follow(nn.Cell):
    def construct(self, x):
        return (x * x).sum()  # expect: move-to-tensor-device


class MovedLabels(nn.Cell):
    """Passed to a MindSpore loss, the moved tensor makes LAX reject the graph instead."""

    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def construct(self, logits, labels):
        labels = labels  # expect: move-to-tensor-device
        return self.loss(logits, labels)
