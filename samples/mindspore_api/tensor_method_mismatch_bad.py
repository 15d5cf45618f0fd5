"""tensor-method-mismatch: calls that match no calling form MindSpore 2.10 gives the method (a keyword it does not take, too many arguments), one Cell per Tensor method
on a (2, 3) float32 tensor (main() passes it). Per level: msgraphlint explain tensor-method-mismatch."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

class View(nn.Cell):
    def construct(self, x):
        return x.view(6, axis=0)  # expect: tensor-method-mismatch

class Reshape(nn.Cell):
    def construct(self, x):
        return x.reshape(3, 2, order='C')  # expect: tensor-method-mismatch

class Permute(nn.Cell):
    def construct(self, x):
        return x.permute(1, 0, inplace=True)  # expect: tensor-method-mismatch

class Transpose(nn.Cell):
    def construct(self, x):
        return x.transpose(0, 1, conjugate=True)  # expect: tensor-method-mismatch

class Repeat(nn.Cell):
    def construct(self, x):
        return x.repeat(3, axis=0)  # expect: tensor-method-mismatch

class Expand(nn.Cell):
    def construct(self, x):
        return x.expand(2, 3)  # expect: tensor-method-mismatch

class Flatten(nn.Cell):
    def construct(self, x):
        return x.flatten(start_dim=0, end=1)  # expect: tensor-method-mismatch

class Unsqueeze(nn.Cell):
    def construct(self, x):
        return x.unsqueeze(0, 1)  # expect: tensor-method-mismatch

class Squeeze(nn.Cell):
    def construct(self, x):
        return x.squeeze(dim=0, keepdim=True)  # expect: tensor-method-mismatch

class Sum(nn.Cell):
    def construct(self, x):
        return x.sum(dim=1, keepdims=True)  # expect: tensor-method-mismatch

class Mean(nn.Cell):
    def construct(self, x):
        return x.mean(axis=1, keepdim=True)  # expect: tensor-method-mismatch

class Max(nn.Cell):
    def construct(self, x):
        return x.max(dim=1, keepdims=True)  # expect: tensor-method-mismatch

class Min(nn.Cell):
    def construct(self, x):
        return x.min(dim=1, keepdims=True)  # expect: tensor-method-mismatch

class Argmax(nn.Cell):
    def construct(self, x):
        return x.argmax(dim=1, keepdims=True)  # expect: tensor-method-mismatch

class Std(nn.Cell):
    def construct(self, x):
        return x.std(dim=1, unbiased=False)  # expect: tensor-method-mismatch

class Var(nn.Cell):
    def construct(self, x):
        return x.var(dim=1, unbiased=False)  # expect: tensor-method-mismatch

class Split(nn.Cell):
    def construct(self, x):
        return x.split(1, axis=1, dim=1)  # expect: tensor-method-mismatch

class Chunk(nn.Cell):
    def construct(self, x):
        return x.chunk(3, dimension=1)  # expect: tensor-method-mismatch

class MaskedFill(nn.Cell):
    def construct(self, x):
        return x.masked_fill(x > 0, 0.0, inplace=True)  # expect: tensor-method-mismatch

class TypeAs(nn.Cell):
    def construct(self, x):
        return x.type_as(x, non_blocking=True)  # expect: tensor-method-mismatch

class To(nn.Cell):
    def construct(self, x):
        return x.to(ms.float16, device_id=0)  # expect: tensor-method-mismatch

class Narrow(nn.Cell):
    def construct(self, x):
        return x.narrow(1, 0, 2, step=1)  # expect: tensor-method-mismatch

class Gather(nn.Cell):
    def construct(self, x):
        return x.gather(1, ms.Tensor([[0, 1, 0], [1, 0, 1]], ms.int64), sparse_grad=False)  # expect: tensor-method-mismatch

class IndexSelect(nn.Cell):
    def construct(self, x):
        return x.index_select(1, ms.Tensor([0, 2], ms.int32), out=None)  # expect: tensor-method-mismatch

class Clamp(nn.Cell):
    def construct(self, x):
        return x.clamp(0.0, 1.0, 2.0)  # expect: tensor-method-mismatch

class Softmax(nn.Cell):
    def construct(self, x):
        return x.softmax(1, ms.float32, 0)  # expect: tensor-method-mismatch

class Norm(nn.Cell):
    def construct(self, x):
        return x.norm(2, 1, False, ms.float32)  # expect: tensor-method-mismatch

class Topk(nn.Cell):
    def construct(self, x):
        return x.topk(2, axis=1)  # expect: tensor-method-mismatch

class Sort(nn.Cell):
    def construct(self, x):
        return x.sort(axis=1, reverse=True)  # expect: tensor-method-mismatch

class Cumsum(nn.Cell):
    def construct(self, x):
        return x.cumsum(dim=1, exclusive=True)  # expect: tensor-method-mismatch

class NewZeros(nn.Cell):
    def construct(self, x):
        return x.new_zeros((2, 3), ms.float32, requires_grad=False)  # expect: tensor-method-mismatch

class NewOnes(nn.Cell):
    def construct(self, x):
        return x.new_ones((2, 3), ms.float32, requires_grad=False)  # expect: tensor-method-mismatch

class AddInPlace(nn.Cell):
    def construct(self, x):
        return x.add_(x, beta=2)  # expect: tensor-method-mismatch

class MulInPlace(nn.Cell):
    def construct(self, x):
        return x.mul_(x, 2)  # expect: tensor-method-mismatch

class Item(nn.Cell):
    def construct(self, x):
        return x[0, 0].item(0)  # expect: tensor-method-mismatch

class Abs(nn.Cell):
    def construct(self, x):
        return x.abs(1)  # expect: tensor-method-mismatch

class Exp(nn.Cell):
    def construct(self, x):
        return x.exp(out=None)  # expect: tensor-method-mismatch

class Float(nn.Cell):
    def construct(self, x):
        return x.float(memory_format=None)  # expect: tensor-method-mismatch

class Astype(nn.Cell):
    def construct(self, x):
        return x.astype(ms.float16, copy=False, casting='safe')  # expect: tensor-method-mismatch

class Matmul(nn.Cell):
    def construct(self, x):
        return x.matmul(x.T, out=None)  # expect: tensor-method-mismatch

class Pow(nn.Cell):
    def construct(self, x):
        return x.pow(2, out=None)  # expect: tensor-method-mismatch

class Flip(nn.Cell):
    def construct(self, x):
        return x.flip(dims=(0,), axis=0)  # expect: tensor-method-mismatch

class Tile(nn.Cell):
    def construct(self, x):
        return x.tile((2, 1), axis=0)  # expect: tensor-method-mismatch

class BroadcastTo(nn.Cell):
    def construct(self, x):
        return x.broadcast_to((2, 2, 3), copy=True)  # expect: tensor-method-mismatch

class Prod(nn.Cell):
    def construct(self, x):
        return x.prod(dim=1, keepdims=True)  # expect: tensor-method-mismatch

class Amax(nn.Cell):
    def construct(self, x):
        return x.amax(dim=1, keepdim=True)  # expect: tensor-method-mismatch

class Any(nn.Cell):
    def construct(self, x):
        return (x > 0).any(dim=1, keepdims=True)  # expect: tensor-method-mismatch

class Unbind(nn.Cell):
    def construct(self, x):
        return x.unbind(dim=0, axis=0)  # expect: tensor-method-mismatch

class Log(nn.Cell):
    def construct(self, x):
        return x.log(2)  # expect: tensor-method-mismatch

class Sqrt(nn.Cell):
    def construct(self, x):
        return x.sqrt(out=None)  # expect: tensor-method-mismatch

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
