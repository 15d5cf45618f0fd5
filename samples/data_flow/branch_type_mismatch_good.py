"""branch-type-mismatch, fixed: branches give tensors (or one literal type), tuples of different
lengths, or a test known while compiling. Per level: msgraphlint explain branch-type-mismatch."""

from mindspore import nn, ops


class ClampedLoss(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x * 2
        return ops.zeros_like(x)


class RunningTotal(nn.Cell):
    def construct(self, x):
        total = ops.zeros_like(x.sum())
        if x.mean() > 0:
            total = x.sum()
        return x + total


class Gate(nn.Cell):
    def construct(self, x):
        gate = x * 2 if x.max() > 0.5 else ops.ones_like(x)
        return x * gate


class Code(nn.Cell):
    def helper(self, x):
        if x.sum() > 0:
            return 1.0
        return 0.5

    def construct(self, x):
        return x * self.helper(x)


class Pairs(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            pair = (x, x)
        else:
            pair = (x,)
        if x.shape[0] == 2:
            return pair[0]
        return 0.0


class FirstPositive(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if x.sum() > i:
                return x * i
        return x * 0 - 1


class PairOrSingle(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x, x * 2
        return x, x


def run():
    PairOrSingle()(Tensor(np.ones((2,), np.float32)))
