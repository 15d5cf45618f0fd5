"""ResNetLite, a variant with max pooling, and the host-side training and evaluation loops."""

import time

import numpy as np

import mindspore as ms
from mindspore import nn, ops

from .blocks import Backbone, ResidualBlock
from .utils import accuracy, normalise, seed_everything


class ResNetLite(Backbone):
    def __init__(self, num_classes=10, channels=16, depth=2):
        super().__init__(channels, num_classes)
        self.stem = nn.Conv2d(3, channels, 3, pad_mode="same", has_bias=False)
        self.layers = nn.SequentialCell([ResidualBlock(channels) for _ in range(depth)])

    def construct(self, images):
        x = normalise(images, self.mean, self.std)
        x = self.layers(self.stem(x))
        logits = self.head(self._post(self._pool(x)))
        confidence = ops.softmax(logits.detach(), axis=-1).max(axis=-1)  # expect: detach-call
        return logits, confidence


class ResNetLiteMaxPool(ResNetLite):
    """The reference's max-pooling variant: only the pooling helper changes."""

    def _pool(self, features):
        # ResNetLite.construct calls self._pool: compiled for this class through the inherited
        # construct, so the numpy reduction fails here.
        return np.amax(features, axis=(2, 3))  # expect: numpy-reduction-on-tensor


def train(net, batches, epochs=1, learning_rate=0.01):
    """The PyTorch loop, ported: the step is compiled, everything else runs on the host."""
    seed_everything(0)
    optimizer = nn.Momentum(net.trainable_params(), learning_rate, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    def forward(images, labels):
        logits, _ = net(images)
        return loss_fn(logits, labels)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    @ms.jit
    def step(images, labels):
        loss, grads = grad_fn(images, labels)
        optimizer(grads)
        return loss.asnumpy()  # expect: asnumpy-in-graph

    history = []
    for epoch in range(epochs):
        start = time.time()
        losses = [step(images, labels) for images, labels in batches]
        history.append(float(np.mean(losses)))
        print(f"epoch {epoch}: loss {history[-1]:.4f}, {time.time() - start:.1f}s")
    return history


def evaluate(net, batches):
    """Mean top-1 accuracy; runs in PyNative or calls the compiled net, never compiled itself."""
    net.set_train(False)
    scores = []
    for images, labels in batches:
        logits, _ = net(images)
        scores.append(accuracy(logits, labels))
    print(f"accuracy {np.mean(scores):.3f} over {len(scores)} batches, last logits "
          f"{logits.asnumpy().round(2)}")
    return float(np.mean(scores))


def synthetic_batches(count=2, batch=4, classes=10, seed=0):
    """Random images and labels in the reference's shapes, for a smoke run without a dataset."""
    rng = np.random.default_rng(seed)
    return [(ms.Tensor(rng.standard_normal((batch, 3, 32, 32)).astype(np.float32)),
             ms.Tensor(rng.integers(0, classes, batch).astype(np.int32))) for _ in range(count)]


def main():
    net = ResNetLite()
    batches = synthetic_batches()
    train(net, batches)
    evaluate(net, batches)


if __name__ == "__main__":
    main()
