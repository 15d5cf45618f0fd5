"""Training script in MindSpore 2.x's functional style: value_and_grad plus a jit-compiled step."""

import time

import numpy as np

import mindspore as ms
from mindspore import nn

from transformer_port import TransformerClassifier

BATCH, LENGTH, FEATURES, CLASSES = 8, 16, 8, 4
MIXUP_ALPHA = 0.2

model = TransformerClassifier(FEATURES, classes=CLASSES)
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.AdamWeightDecay(model.trainable_params(), learning_rate=1e-3)


def forward_fn(data, label):
    """Mixup, as in the reference: blend each batch with itself reversed."""
    lam = np.random.beta(MIXUP_ALPHA, MIXUP_ALPHA)  # expect: random-frozen
    logits = model(lam * data + (1.0 - lam) * data[::-1])
    loss = lam * loss_fn(logits, label) + (1.0 - lam) * loss_fn(logits, label[::-1])
    return loss, logits


grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)


@ms.jit
def train_step(data, label):
    start = time.perf_counter()  # expect: clock-frozen
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)
    return loss, time.perf_counter() - start  # expect: clock-frozen


def eval_fn(data, label):
    predicted = model(data).argmax(axis=-1)
    return np.mean(predicted == label)  # expect: numpy-reduction-on-tensor


eval_step = ms.jit(eval_fn)


def random_batch(rng):
    data = rng.standard_normal((BATCH, LENGTH, FEATURES)).astype(np.float32)
    label = rng.integers(0, CLASSES, BATCH).astype(np.int32)
    return ms.Tensor(data), ms.Tensor(label)


def main(epochs=3, steps=20):
    rng = np.random.default_rng(0)
    for epoch in range(epochs):
        model.set_train(True)
        start = time.time()
        losses = []
        for _ in range(steps):
            loss, _ = train_step(*random_batch(rng))
            losses.append(loss.asnumpy())
        model.set_train(False)
        accuracy = np.mean([eval_step(*random_batch(rng)).asnumpy() for _ in range(4)])
        print(f"epoch {epoch}: loss {np.mean(losses):.4f}, accuracy {accuracy:.2f}, "
              f"{time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
