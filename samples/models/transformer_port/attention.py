"""Multi-head self-attention: construct -> _attend -> _scores, as in the reference."""

import math

import numpy as np

import mindspore as ms
from mindspore import ops

from . import stable_softmax


class MultiHeadAttention(ms.nn.Cell):
    def __init__(self, width=16, heads=4, dropout=0.1, causal=True):
        super().__init__()
        assert width % heads == 0, "width must split evenly into heads"
        self.heads = heads
        self.head_dim = width // heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.qkv = ms.nn.Dense(width, 3 * width)
        self.out = ms.nn.Dense(width, width)
        self.dropout = dropout
        self.causal = causal

    def construct(self, x):
        batch, length, width = x.shape
        qkv = self.qkv(x).reshape(batch, length, 3, self.heads, self.head_dim)
        qkv = qkv.transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        weights = self._attend(q, k)
        if self.training and self.dropout > 0:
            keep = np.random.rand(*weights.shape) >= self.dropout  # expect: random-frozen
            weights = weights * ms.Tensor(keep, ms.float32) / (1.0 - self.dropout)
        context = ops.matmul(weights, v).transpose(0, 2, 1, 3).reshape(batch, length, width)
        return self.out(context)

    def _attend(self, q, k):
        return stable_softmax(self._scores(q, k))

    def _scores(self, q, k):
        scores = ops.matmul(q, k.swapaxes(-1, -2)) * self.scale
        if self.causal:
            n = q.shape[-2]
            future = np.triu(np.ones((n, n)), k=1).astype(bool)  # expect: numpy-on-constants
            scores = ops.masked_fill(scores, ms.Tensor(future), -1e9)
        return scores
