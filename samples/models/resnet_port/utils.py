"""Helpers shared by the blocks and the training code (the port of the reference's utils.py)."""

import numpy as np

import mindspore as ms
from mindspore import ops

# ImageNet statistics, kept on the host; the backbone turns them into tensors in __init__.
IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)


def normalise(images, mean, std):
    """Channel-wise standardisation; compiled as part of the model's construct."""
    return (images - mean) / std


def leaky_relu(x, slope=0.1):
    """torch.where(x > 0, x, slope * x), ported with numpy's where."""
    return ms.Tensor(np.where(x > 0, x, slope * x))  # expect: host-call-on-tensor


def seed_everything(seed):
    """Host-side seeding before the model is built: numpy here is never compiled."""
    np.random.seed(seed)
    ms.set_seed(seed)


def accuracy(logits, labels):
    """Top-1 accuracy on the host, from tensors the model returned."""
    predicted = np.argmax(logits.asnumpy(), axis=-1)
    return float(np.mean(predicted == labels.asnumpy()))


def one_hot(labels, num_classes):
    """Used by the data pipeline only."""
    return ops.one_hot(labels, num_classes, ms.Tensor(1.0), ms.Tensor(0.0))
