"""Encoder layers and the classifier, in the `Cell as Base` spelling of the reference port."""

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.nn import Cell as Base

from .attention import MultiHeadAttention
from .functional import gelu_tanh


class FeedForward(Base):
    def __init__(self, width=16, hidden=64):
        super().__init__()
        self.up = nn.Dense(width, hidden)
        self.down = nn.Dense(hidden, width)

    def construct(self, x):
        return self.down(gelu_tanh(self.up(x)))


class EncoderLayer(Base):
    def __init__(self, width=16, heads=4):
        super().__init__()
        self.norm1 = nn.LayerNorm((width,))
        self.attn = MultiHeadAttention(width, heads)
        self.norm2 = nn.LayerNorm((width,))
        self.ffn = FeedForward(width)
        self.last_attended = None  # the reference kept it for attention plots

    def construct(self, x):
        attended = self.attn(self.norm1(x))
        self.last_attended = attended  # expect: non-parameter-attribute-assign
        x = x + attended
        return x + self.ffn(self.norm2(x))


class Encoder(Base):
    def __init__(self, features=8, width=16, depth=2, heads=4, max_length=32):
        super().__init__()
        self.embed = nn.Dense(features, width)
        table = np.random.default_rng(0).normal(0.0, 0.02, (1, max_length, width))
        self.position = ms.Parameter(ms.Tensor(table, ms.float32), name="position")
        self.layers = nn.SequentialCell([EncoderLayer(width, heads) for _ in range(depth)])

    def construct(self, x):
        length = x.shape[1]
        return self.layers(self.embed(x) + self.position[:, :length])

    def pool(self, tokens):
        """Mean over the sequence; the classifier calls it on this sub-Cell from its construct."""
        return tokens.sum(axis=1) / tokens.size(1)  # expect: tensor-size-call


class TransformerClassifier(Base):
    def __init__(self, features=8, width=16, classes=4):
        super().__init__()
        self.encoder = Encoder(features, width)
        self.head = nn.Dense(width, classes)

    def construct(self, x):
        tokens = self.encoder(x)
        return self.head(self.encoder.pool(tokens))
