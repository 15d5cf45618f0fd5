"""The classifier: a base Cell with the shared head, and the model that subclasses it."""

import math

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

from .layers import FEATURES, GatedMLP, RMSNorm, residual_scale, seeded_weight, soft_clip

SAMPLE_INPUTS = (f"float32[2,{FEATURES}]",)


class ClassifierBase(nn.Cell):
    """Holds the classification head and counts forward calls in a Parameter."""

    def __init__(self, dim=FEATURES, num_classes=4):
        super().__init__()
        self.dim = dim
        self.num_classes = num_classes
        self.head = nn.Dense(dim, num_classes,
                             weight_init=seeded_weight((num_classes, dim), seed=7),
                             bias_init="zeros")
        self.calls = Parameter(Tensor(0, ms.int32), name="calls", requires_grad=False)

    def _classify(self, features):
        ops.assign(self.calls, self.calls + 1)
        return self.head(features)

    def construct(self, x):
        return self._classify(x)


class TinyClassifier(ClassifierBase):
    def __init__(self, dim=FEATURES, num_classes=4, depth=2, clip=6.0):
        super().__init__(dim, num_classes)
        self.norm = RMSNorm(dim)
        self.blocks = nn.CellList([GatedMLP(dim, seed=10 * i) for i in range(depth)])
        self.depth = depth
        self.clip = clip
        self.temperature = math.sqrt(num_classes)

    def construct(self, x):
        assert x.ndim == 2, f"expected a (batch, {self.dim}) batch, got {x.ndim} dimensions"
        batch, dim = x.shape
        print(f"TinyClassifier: batch of {batch} x {dim} features")
        h = self.norm(x)
        for block in self.blocks:
            h = h + residual_scale(block(h), self.depth)
        if h.abs().max() > self.clip:
            h = soft_clip(h, self.clip)
        logits = self._classify(h) / self.temperature

        def margin(row):
            return row.max() - row.mean()

        # the reference computed the per-sample margin in a loop; kept as written
        margins = []
        for row in logits:
            margins.append(margin(row))
        return logits, ops.stack(margins)


def margin(logits):
    """Host-side report: per sample, how far the best class is ahead of the runner-up."""
    top_two = np.sort(logits.asnumpy(), axis=-1)[:, -2:]
    return top_two[:, 1] - top_two[:, 0]
