"""Functional helpers, ported from the reference's functional.py (numpy idioms and all)."""

import math

import numpy as np

from mindspore import ops


def gelu_tanh(x):
    """GELU with the tanh approximation, as the reference computes it."""
    inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)
    return 0.5 * x * (1.0 + np.tanh(inner))  # expect: host-call-on-tensor


def stable_softmax(scores):
    """Softmax over the last axis with the maximum subtracted first."""
    shifted = scores - np.max(scores, axis=-1, keepdims=True)  # expect: numpy-reduction-on-tensor
    weights = ops.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)
