"""multi-generator-comprehension, fixed: nested for loops, or one comprehension per loop."""

from mindspore import nn


class PairSums(nn.Cell):
    def construct(self, x):
        offsets = []
        for a in range(2):
            for b in range(2):
                offsets.append(a + b)
        return x + offsets[-1]


class GridWeights(nn.Cell):
    def construct(self, x):
        weights = {}
        for i in range(2):
            for j in range(2):
                weights[(i, j)] = i * j
        return x * weights[(1, 1)]


class TotalOffset(nn.Cell):
    def construct(self, x):
        rows = [sum(a * b for b in (3, 4)) for a in (1, 2)]
        return x + sum(rows)
