"""Building blocks: RMS normalisation and a gated MLP, with weights made on the host in __init__."""

import math

import numpy as np

from mindspore import Parameter, Tensor, nn, ops

# Every Cell of the package takes a (batch, FEATURES) float32 batch.
FEATURES = 8
SAMPLE_INPUTS = (f"float32[2,{FEATURES}]",)


def seeded_weight(shape, seed):
    """Reproducible initial weights, drawn with numpy on the host (never compiled)."""
    rng = np.random.default_rng(seed)
    bound = 1.0 / math.sqrt(shape[-1])
    return Tensor(rng.uniform(-bound, bound, size=shape).astype(np.float32))


def rms(x, eps):
    """Root mean square over the last axis; compiled as part of RMSNorm.construct."""
    return ops.sqrt((x * x).mean(axis=-1, keep_dims=True) + eps)


def residual_scale(branch, depth):
    """GPT-2 style 1/sqrt(2 * depth) residual scaling; `depth` is the Python int the model holds."""
    return branch / math.sqrt(2 * depth)


def soft_clip(x, limit):
    """Squash values above `limit` smoothly; `limit` is a Python float known at compile time."""
    return ops.tanh(x / limit) * limit


class RMSNorm(nn.Cell):
    def __init__(self, dim=FEATURES, eps=1e-6):
        super().__init__()
        self.weight = Parameter(Tensor(np.ones(dim, np.float32)), name="weight")
        self.eps = eps

    def construct(self, x):
        return x / rms(x, self.eps) * self.weight


class GatedMLP(nn.Cell):
    def __init__(self, dim=FEATURES, hidden=16, seed=0):
        super().__init__()
        self.proj = nn.CellList(
            [
                nn.Dense(dim, hidden, weight_init=seeded_weight((hidden, dim), seed + k),
                         bias_init="zeros")
                for k in range(2)
            ]
        )
        self.out = nn.Dense(hidden, dim, weight_init=seeded_weight((dim, hidden), seed + 2),
                            bias_init="zeros")
        self.residual_scale = 1.0 / math.sqrt(2 * hidden)

    def construct(self, x):
        value, gate = [layer(x) for layer in self.proj]
        hidden = value * ops.sigmoid(gate)
        return self.out(hidden) * self.residual_scale
