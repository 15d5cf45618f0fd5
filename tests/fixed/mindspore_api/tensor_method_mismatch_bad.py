"""tensor-method-mismatch: calls that match no calling form MindSpore 2.10 gives the method (a keyword it does not take, too many arguments), one Cell per Tensor method
on a (2, 3) float32 tensor (main() passes it). Per level: msgraphlint explain tensor-method-mismatch."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

class View(nn.Cell):
    def construct(self, x):
        return x.view(6, axis=0)  # expect: tensor-method-mismatch

class Permute(nn.Cell):
    def construct(self, x):
        return x.permute(1, 0, inplace=True)  # expect: tensor-method-mismatch

class Repeat(nn.Cell):
    def construct(self, x):
        return x.repeat(3, axis=0)  # expect: tensor-method-mismatch

class Flatten(nn.Cell):
    def construct(self, x):
        return x.flatten(start_dim=0, end=1)  # expect: tensor-method-mismatch

class Sum(nn.Cell):
    def construct(self, x):
        return x.sum(dim=1, keepdim=True)  # expect: tensor-method-mismatch

class Mean(nn.Cell):
    def construct(self, x):
        return x.mean(axis=1, keep_dims=True)  # expect: tensor-method-mismatch

class Max(nn.Cell):
    def construct(self, x):
        return x.max(dim=1, keepdims=True)  # expect: tensor-method-mismatch

class Chunk(nn.Cell):
    def construct(self, x):
        return x.chunk(3, dimension=1)  # expect: tensor-method-mismatch

class MaskedFill(nn.Cell):
    def construct(self, x):
        return x.masked_fill(x > 0, 0.0, inplace=True)  # expect: tensor-method-mismatch

class To(nn.Cell):
    def construct(self, x):
        return x.to(ms.float16, device_id=0)  # expect: tensor-method-mismatch

class Softmax(nn.Cell):
    def construct(self, x):
        return x.softmax(1, ms.float32, 0)  # expect: tensor-method-mismatch

class NewZeros(nn.Cell):
    def construct(self, x):
        return x.new_zeros((2, 3), ms.float32, requires_grad=False)  # expect: tensor-method-mismatch


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
            return x + self.latent.view(1, -1).repeat(2, axis=0).sum()  # expect: tensor-method-mismatch
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
