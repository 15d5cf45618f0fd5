"""A small ResNet ported from PyTorch, with the porting bugs such ports typically carry.

Every line that msgraphlint must flag carries an expect comment naming the rule; the training
and evaluation code around the model runs on the host and must not be flagged.
"""

from .model import ResNetLite, ResNetLiteMaxPool, evaluate, train

__all__ = ["ResNetLite", "ResNetLiteMaxPool", "evaluate", "train"]
