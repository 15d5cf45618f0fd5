"""One table of Tensor method calls: per method, a call no calling form of MindSpore 2.10 takes
and a call it takes that compiles on CPU. tests/test_family_mindspore_api.py checks every pair
statically and compiles all of them in one child process; the samples
samples/mindspore_api/tensor_method_mismatch_{bad,good}.py hold the ones named in IN_SAMPLES
(tests/test_compiler.py compiles those at every level, and --confirm, the referee's tests and
the variants take every sample, so they stay few). Run: python tools/tensor_method_samples.py
"""

from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "mindspore_api"
# (class name, bad call, good call that compiles on CPU) on x: a (2, 3) float32 tensor
CASES = [
    ("View", "x.view(6, axis=0)", "x.view(3, 2)"),
    ("Reshape", "x.reshape(3, 2, order='C')", "x.reshape(3, 2)"),
    ("Permute", "x.permute(1, 0, inplace=True)", "x.permute(1, 0)"),
    ("Transpose", "x.transpose(0, 1, conjugate=True)", "x.transpose(1, 0)"),
    ("Repeat", "x.repeat(3, axis=0)", "x.repeat_interleave(3, dim=0)"),
    ("Expand", "x.expand(2, 3)", "x.broadcast_to((2, 2, 3))"),
    ("Flatten", "x.flatten(start_dim=0, end=1)", "x.flatten(start_dim=0)"),
    ("Unsqueeze", "x.unsqueeze(0, 1)", "x.unsqueeze(0)"),
    ("Squeeze", "x.squeeze(dim=0, keepdim=True)", "x.squeeze(0)"),
    ("Sum", "x.sum(dim=1, keepdims=True)", "x.sum(dim=1, keepdim=True)"),
    ("Mean", "x.mean(axis=1, keepdim=True)", "x.mean(axis=1, keep_dims=True)"),
    ("Max", "x.max(dim=1, keepdims=True)", "x.max(axis=1, keepdims=True)"),
    ("Min", "x.min(dim=1, keepdims=True)", "x.min(axis=1, keepdims=True)"),
    ("Argmax", "x.argmax(dim=1, keepdims=True)", "x.argmax(dim=1, keepdim=True)"),
    ("Std", "x.std(dim=1, unbiased=False)", "x.std(axis=1, ddof=0)"),
    ("Var", "x.var(dim=1, unbiased=False)", "x.var(axis=1, ddof=0)"),
    ("Split", "x.split(1, axis=1, dim=1)", "x.split(1, axis=1)"),
    ("Chunk", "x.chunk(3, dimension=1)", "x.chunk(3, axis=1)"),
    ("MaskedFill", "x.masked_fill(x > 0, 0.0, inplace=True)", "x.masked_fill(x > 0, 0.0)"),
    ("TypeAs", "x.type_as(x, non_blocking=True)", "x.type_as(x)"),
    ("To", "x.to(ms.float16, device_id=0)", "x.to(ms.float16)"),
    ("Narrow", "x.narrow(1, 0, 2, step=1)", "x.narrow(1, 0, 2)"),
    ("Gather", "x.gather(1, ms.Tensor([[0, 1, 0], [1, 0, 1]], ms.int64), sparse_grad=False)",
     "x.gather(1, ms.Tensor([[0, 1, 0], [1, 0, 1]], ms.int64))"),
    ("IndexSelect", "x.index_select(1, ms.Tensor([0, 2], ms.int32), out=None)",
     "x.index_select(1, ms.Tensor([0, 2], ms.int32))"),
    ("Clamp", "x.clamp(0.0, 1.0, 2.0)", "x.clamp(0.0, 1.0)"),
    ("Softmax", "x.softmax(1, ms.float32, 0)", "x.softmax(1)"),
    ("Norm", "x.norm(2, 1, False, ms.float32)", "x.norm(2, 1, False, dtype=ms.float32)"),
    ("Topk", "x.topk(2, axis=1)", "x.topk(2, dim=1)"),
    ("Sort", "x.sort(axis=1, reverse=True)", "x.sort(axis=1, descending=True)"),
    ("Cumsum", "x.cumsum(dim=1, exclusive=True)", "x.cumsum(axis=1)"),
    ("NewZeros", "x.new_zeros((2, 3), ms.float32, requires_grad=False)", "x.new_zeros((2, 3), ms.float32)"),
    ("NewOnes", "x.new_ones((2, 3), ms.float32, requires_grad=False)", "x.new_ones((2, 3), ms.float32)"),
    ("AddInPlace", "x.add_(x, beta=2)", "(x * 1).add_(x, alpha=2)"),
    ("MulInPlace", "x.mul_(x, 2)", "(x * 1).mul_(x)"),
    ("Item", "x[0, 0].item(0)", "x[0, 0].item()"),
    ("Abs", "x.abs(1)", "x.abs()"),
    ("Exp", "x.exp(out=None)", "x.exp()"),
    ("Float", "x.float(memory_format=None)", "x.float()"),
    ("Astype", "x.astype(ms.float16, copy=False, casting='safe')", "x.astype(ms.float16, copy=False)"),
    ("Matmul", "x.matmul(x.T, out=None)", "x.matmul(x.T)"),
    ("Pow", "x.pow(2, out=None)", "x.pow(2)"),
    ("Flip", "x.flip(dims=(0,), axis=0)", "x.flip((0,))"),
    ("Tile", "x.tile((2, 1), axis=0)", "x.tile((2, 1))"),
    ("BroadcastTo", "x.broadcast_to((2, 2, 3), copy=True)", "x.broadcast_to((2, 2, 3))"),
    ("Prod", "x.prod(dim=1, keepdims=True)", "x.prod(dim=1, keepdim=True)"),
    ("Amax", "x.amax(dim=1, keepdim=True)", "x.amax(1, True)"),
    ("Any", "(x > 0).any(dim=1, keepdims=True)", "(x > 0).any(dim=1, keepdim=True)"),
    ("Unbind", "x.unbind(dim=0, axis=0)", "x.unbind(dim=0)"),
    ("Log", "x.log(2)", "x.log()"),
    ("Sqrt", "x.sqrt(out=None)", "x.sqrt()"),
    # An argument of a kind the parser's list for that parameter does not name (a str for an
    # int, a float for an int): "Failed calling sum with "sum(dim=string)"".
    ("SumDimStr", "x.sum(dim='1')", "x.sum(dim=1)"),
    ("MeanAxisStr", "x.mean(axis='0')", "x.mean(axis=0)"),
    ("MaxDimFloat", "x.max(dim=0.0)", "x.max(dim=0)"),
    ("ArgmaxDimStr", "x.argmax(dim='1')", "x.argmax(dim=1)"),
    ("CumsumFloat", "x.cumsum(0.0)", "x.cumsum(0)"),
    ("DivModeFloat", "x.div(x, rounding_mode=1.5)", "x.div(x, rounding_mode='floor')"),
    ("AddAlphaStr", "x.add(x, alpha='a')", "x.add(x, alpha=2)"),
    ("UnsqueezeStr", "x.unsqueeze('0')", "x.unsqueeze(0)"),
    ("RepeatInterleaveDimStr", "x.repeat_interleave(2, dim='0')", "x.repeat_interleave(2, dim=0)"),
    ("TopkDimStr", "x.topk(1, dim='1')", "x.topk(1, dim=1)"),
    ("ClampMinStr", "x.clamp(min='0')", "x.clamp(min=0)"),
    ("MaskedFillStr", "x.masked_fill(x > 0, 'a')", "x.masked_fill(x > 0, 0.0)"),
    ("TileStr", "x.tile('2')", "x.tile((2, 1))"),
    ("ProdDimStr", "x.prod(dim='0')", "x.prod(dim=0)"),
]

# The PyTorch-port and numpy-habit mistakes met most, one per family of forms.
IN_SAMPLES = ("View", "Permute", "Repeat", "Sum", "Mean", "Max", "Chunk", "MaskedFill", "To",
              "NewZeros", "Flatten", "Softmax")

HEAD = '''"""tensor-method-mismatch{fixed}: {what}, one Cell per Tensor method
on a (2, 3) float32 tensor{driver}. Per level: msgraphlint explain tensor-method-mismatch."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
'''


# A receiver that is not the input: the model must know it is a tensor. Reduced from mindflow's
# MultiScaleFCSequential, whose latent vector is a constructor argument a check requires to be a
# Parameter (the default here only lets the compiler tests build the Cell without arguments).
HELD_RECEIVER = '''

def check_type(value, name, data_type=None):
    if data_type is not None and not isinstance(value, data_type):
        raise TypeError(f"{{name}} must be {{data_type}}")


class HeldLatent(nn.Cell):
    def __init__(self, latent=ms.Parameter(Tensor(np.ones((1, 3), np.float32)), name="latent")):
        super().__init__()
        self.latent = latent
        if latent is not None:
            check_type(latent, "latent", data_type=ms.Parameter)

    def construct(self, x):
        if self.latent is not None:
            return x + {call}.sum()
        return x
'''
HELD_CALLS = {"bad": ("self.latent.view(1, -1).repeat(2, axis=0)", "  # expect: tensor-method-mismatch"),
              "good": ("ops.tile(self.latent.view(1, -1), (2, 1))", "")}


def write(path, which, fixed, what):
    cases = [case for case in CASES if case[0] in IN_SAMPLES]
    out = [HEAD.format(fixed=fixed, what=what, driver=" (main() passes it)")]
    for name, bad, good in cases:
        call = bad if which == "bad" else good
        mark = "  # expect: tensor-method-mismatch" if which == "bad" else ""
        out.append(f"\nclass {name}(nn.Cell):\n    def construct(self, x):\n        return {call}{mark}\n")
    call, mark = HELD_CALLS[which]
    out.append(HELD_RECEIVER.format(call=call).replace(".sum()\n", f".sum(){mark}\n", 1))
    out.append("\n\ndef main():\n    x = Tensor(np.full((2, 3), 0.5, np.float32))\n")
    out += [f"    {name}()(x)\n" for name, _, _ in [*cases, ("HeldLatent", "", "")]]
    out.append('\n\nif __name__ == "__main__":\n    main()\n')
    path.write_text("".join(out), "utf-8")


if __name__ == "__main__":
    write(SAMPLES / "tensor_method_mismatch_bad.py", "bad", "",
          "calls that match no calling form MindSpore 2.10 gives the method (a keyword it does not take, too many arguments)")
    write(SAMPLES / "tensor_method_mismatch_good.py", "good", ", fixed",
          "the same methods called as one of their forms")
