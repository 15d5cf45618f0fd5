"""Host-side code around the model: data standardisation (a jit function), training, evaluation."""

import time

import numpy as np

import mindspore as ms
from mindspore import nn, ops

from .layers import FEATURES
from .model import margin

SAMPLE_INPUTS = (f"float32[4,{FEATURES}]",)
EPS = 1e-5


@ms.jit
def standardise(batch):
    """Per-feature standardisation of one batch, compiled once and reused by the data loop."""
    mean = batch.mean(axis=0, keep_dims=True)
    std = ops.sqrt(((batch - mean) ** 2).mean(axis=0, keep_dims=True) + EPS)
    return (batch - mean) / std


def make_batches(count, batch_size, num_classes, seed=0):
    """Synthetic (features, labels) batches, built with numpy on the host."""
    rng = np.random.default_rng(seed)
    batches = []
    for _ in range(count):
        features = rng.standard_normal((batch_size, FEATURES)).astype(np.float32)
        labels = rng.integers(0, num_classes, size=batch_size).astype(np.int32)
        batches.append((ms.Tensor(features), ms.Tensor(labels)))
    return batches


def train(net, batches, epochs=2, learning_rate=1e-2):
    optimizer = nn.SGD(net.trainable_params(), learning_rate=learning_rate)
    loss_fn = nn.CrossEntropyLoss()

    def forward(features, labels):
        logits, _ = net(standardise(features))
        return loss_fn(logits, labels)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    @ms.jit
    def step(features, labels):
        loss, grads = grad_fn(features, labels)
        optimizer(grads)
        return loss

    history = []
    for epoch in range(epochs):
        start = time.time()
        losses = [float(step(x, y).asnumpy()) for x, y in batches]
        history.append(float(np.mean(losses)))
        print(f"epoch {epoch}: loss {history[-1]:.4f} in {time.time() - start:.2f}s")
    return history


def evaluate(net, batches):
    """Accuracy over batches, computed on the host with numpy."""
    correct = total = 0
    margins = []
    for features, labels in batches:
        logits, _ = net(standardise(features))
        predicted = logits.asnumpy().argmax(axis=-1)
        correct += int(np.sum(predicted == labels.asnumpy()))
        total += predicted.shape[0]
        margins.extend(margin(logits))
    print(f"accuracy {correct}/{total}, mean margin {np.mean(margins):.3f}")
    return correct / max(total, 1)
