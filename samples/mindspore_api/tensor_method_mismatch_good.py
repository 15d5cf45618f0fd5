"""tensor-method-mismatch, fixed: the same methods called as one of their forms, one Cell per Tensor method
on a (2, 3) float32 tensor (main() passes it). Per level: msgraphlint explain tensor-method-mismatch."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

class View(nn.Cell):
    def construct(self, x):
        return x.view(3, 2)

class Permute(nn.Cell):
    def construct(self, x):
        return x.permute(1, 0)

class Repeat(nn.Cell):
    def construct(self, x):
        return x.repeat_interleave(3, dim=0)

class Flatten(nn.Cell):
    def construct(self, x):
        return x.flatten(start_dim=0)

class Sum(nn.Cell):
    def construct(self, x):
        return x.sum(dim=1, keepdim=True)

class Mean(nn.Cell):
    def construct(self, x):
        return x.mean(axis=1, keep_dims=True)

class Max(nn.Cell):
    def construct(self, x):
        return x.max(axis=1, keepdims=True)

class Chunk(nn.Cell):
    def construct(self, x):
        return x.chunk(3, axis=1)

class MaskedFill(nn.Cell):
    def construct(self, x):
        return x.masked_fill(x > 0, 0.0)

class To(nn.Cell):
    def construct(self, x):
        return x.to(ms.float16)

class Softmax(nn.Cell):
    def construct(self, x):
        return x.softmax(1)

class NewZeros(nn.Cell):
    def construct(self, x):
        return x.new_zeros((2, 3), ms.float32)


def check_type(value, name, data_type=None):
    if data_type is not None and not isinstance(value, data_type):
        raise TypeError(f"{name} must be {data_type}")


class HeldLatent(nn.Cell):
    def __init__(self, latent=ms.Parameter(Tensor(np.ones((1, 3), np.float32)), name="latent")):
        super().__init__()
        self.latent = latent
        if latent is not None:
            check_type(latent, "latent", data_type=ms.Parameter)

    def construct(self, x):
        if self.latent is not None:
            return x + ops.tile(self.latent.view(1, -1), (2, 1)).sum()
        return x


def main():
    x = Tensor(np.full((2, 3), 0.5, np.float32))
    View()(x)
    Permute()(x)
    Repeat()(x)
    Flatten()(x)
    Sum()(x)
    Mean()(x)
    Max()(x)
    Chunk()(x)
    MaskedFill()(x)
    To()(x)
    Softmax()(x)
    NewZeros()(x)
    HeldLatent()(x)


if __name__ == "__main__":
    main()
