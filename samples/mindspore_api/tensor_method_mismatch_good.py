"""tensor-method-mismatch, fixed: the same methods called as one of their forms, one Cell per Tensor method
on a (2, 3) float32 tensor (main() passes it). Per level: msgraphlint explain tensor-method-mismatch."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

class View(nn.Cell):
    def construct(self, x):
        return x.view(3, 2)

class Reshape(nn.Cell):
    def construct(self, x):
        return x.reshape(3, 2)

class Permute(nn.Cell):
    def construct(self, x):
        return x.permute(1, 0)

class Transpose(nn.Cell):
    def construct(self, x):
        return x.transpose(1, 0)

class Repeat(nn.Cell):
    def construct(self, x):
        return x.repeat_interleave(3, dim=0)

class Expand(nn.Cell):
    def construct(self, x):
        return x.broadcast_to((2, 2, 3))

class Flatten(nn.Cell):
    def construct(self, x):
        return x.flatten(start_dim=0)

class Unsqueeze(nn.Cell):
    def construct(self, x):
        return x.unsqueeze(0)

class Squeeze(nn.Cell):
    def construct(self, x):
        return x.squeeze(0)

class Sum(nn.Cell):
    def construct(self, x):
        return x.sum(dim=1, keepdim=True)

class Mean(nn.Cell):
    def construct(self, x):
        return x.mean(axis=1, keep_dims=True)

class Max(nn.Cell):
    def construct(self, x):
        return x.max(axis=1, keepdims=True)

class Min(nn.Cell):
    def construct(self, x):
        return x.min(axis=1, keepdims=True)

class Argmax(nn.Cell):
    def construct(self, x):
        return x.argmax(dim=1, keepdim=True)

class Std(nn.Cell):
    def construct(self, x):
        return x.std(axis=1, ddof=0)

class Var(nn.Cell):
    def construct(self, x):
        return x.var(axis=1, ddof=0)

class Split(nn.Cell):
    def construct(self, x):
        return x.split(1, axis=1)

class Chunk(nn.Cell):
    def construct(self, x):
        return x.chunk(3, axis=1)

class MaskedFill(nn.Cell):
    def construct(self, x):
        return x.masked_fill(x > 0, 0.0)

class TypeAs(nn.Cell):
    def construct(self, x):
        return x.type_as(x)

class To(nn.Cell):
    def construct(self, x):
        return x.to(ms.float16)

class Narrow(nn.Cell):
    def construct(self, x):
        return x.narrow(1, 0, 2)

class Gather(nn.Cell):
    def construct(self, x):
        return x.gather(1, ms.Tensor([[0, 1, 0], [1, 0, 1]], ms.int64))

class IndexSelect(nn.Cell):
    def construct(self, x):
        return x.index_select(1, ms.Tensor([0, 2], ms.int32))

class Clamp(nn.Cell):
    def construct(self, x):
        return x.clamp(0.0, 1.0)

class Softmax(nn.Cell):
    def construct(self, x):
        return x.softmax(1)

class Norm(nn.Cell):
    def construct(self, x):
        return x.norm(2, 1, False, dtype=ms.float32)

class Topk(nn.Cell):
    def construct(self, x):
        return x.topk(2, dim=1)

class Sort(nn.Cell):
    def construct(self, x):
        return x.sort(axis=1, descending=True)

class Cumsum(nn.Cell):
    def construct(self, x):
        return x.cumsum(axis=1)

class NewZeros(nn.Cell):
    def construct(self, x):
        return x.new_zeros((2, 3), ms.float32)

class NewOnes(nn.Cell):
    def construct(self, x):
        return x.new_ones((2, 3), ms.float32)

class AddInPlace(nn.Cell):
    def construct(self, x):
        return (x * 1).add_(x, alpha=2)

class MulInPlace(nn.Cell):
    def construct(self, x):
        return (x * 1).mul_(x)

class Item(nn.Cell):
    def construct(self, x):
        return x[0, 0].item()

class Abs(nn.Cell):
    def construct(self, x):
        return x.abs()

class Exp(nn.Cell):
    def construct(self, x):
        return x.exp()

class Float(nn.Cell):
    def construct(self, x):
        return x.float()

class Astype(nn.Cell):
    def construct(self, x):
        return x.astype(ms.float16, copy=False)

class Matmul(nn.Cell):
    def construct(self, x):
        return x.matmul(x.T)

class Pow(nn.Cell):
    def construct(self, x):
        return x.pow(2)

class Flip(nn.Cell):
    def construct(self, x):
        return x.flip((0,))

class Tile(nn.Cell):
    def construct(self, x):
        return x.tile((2, 1))

class BroadcastTo(nn.Cell):
    def construct(self, x):
        return x.broadcast_to((2, 2, 3))

class Prod(nn.Cell):
    def construct(self, x):
        return x.prod(dim=1, keepdim=True)

class Amax(nn.Cell):
    def construct(self, x):
        return x.amax(1, True)

class Any(nn.Cell):
    def construct(self, x):
        return (x > 0).any(dim=1, keepdim=True)

class Unbind(nn.Cell):
    def construct(self, x):
        return x.unbind(dim=0)

class Log(nn.Cell):
    def construct(self, x):
        return x.log()

class Sqrt(nn.Cell):
    def construct(self, x):
        return x.sqrt()

def main():
    x = Tensor(np.full((2, 3), 0.5, np.float32))
    View()(x)
    Reshape()(x)
    Permute()(x)
    Transpose()(x)
    Repeat()(x)
    Expand()(x)
    Flatten()(x)
    Unsqueeze()(x)
    Squeeze()(x)
    Sum()(x)
    Mean()(x)
    Max()(x)
    Min()(x)
    Argmax()(x)
    Std()(x)
    Var()(x)
    Split()(x)
    Chunk()(x)
    MaskedFill()(x)
    TypeAs()(x)
    To()(x)
    Narrow()(x)
    Gather()(x)
    IndexSelect()(x)
    Clamp()(x)
    Softmax()(x)
    Norm()(x)
    Topk()(x)
    Sort()(x)
    Cumsum()(x)
    NewZeros()(x)
    NewOnes()(x)
    AddInPlace()(x)
    MulInPlace()(x)
    Item()(x)
    Abs()(x)
    Exp()(x)
    Float()(x)
    Astype()(x)
    Matmul()(x)
    Pow()(x)
    Flip()(x)
    Tile()(x)
    BroadcastTo()(x)
    Prod()(x)
    Amax()(x)
    Any()(x)
    Unbind()(x)
    Log()(x)
    Sqrt()(x)


if __name__ == "__main__":
    main()
