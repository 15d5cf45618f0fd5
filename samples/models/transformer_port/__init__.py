"""A small transformer encoder ported from PyTorch, with the porting bugs such ports carry.

The functional helpers are re-exported here first, so the layers can `from . import` them.
Every line that msgraphlint must flag carries an expect comment naming the rule.
"""

from .functional import gelu_tanh, stable_softmax
from .attention import MultiHeadAttention
from .model import Encoder, EncoderLayer, FeedForward, TransformerClassifier

__all__ = [
    "Encoder",
    "EncoderLayer",
    "FeedForward",
    "MultiHeadAttention",
    "TransformerClassifier",
    "gelu_tanh",
    "stable_softmax",
]
