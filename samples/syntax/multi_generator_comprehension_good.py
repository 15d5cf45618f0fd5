"""multi-generator-comprehension, fixed: nested for loops, or one comprehension per loop. Per level: msgraphlint explain multi-generator-comprehension."""

from mindspore import nn


class PairSums(nn.Cell):
    def construct(self, x):
        offsets = []
        for a in (0, 1):
            for b in (0, 1):
                offsets.append(a + b)
        return x + offsets[-1]


class GridWeights(nn.Cell):
    def construct(self, x):
        rows = (0, 1)
        grid = {}
        for i in rows:
            for j in rows:
                grid[(i, j)] = i * j
        return x * grid[(1, 1)]


class TotalOffset(nn.Cell):
    def construct(self, x):
        rows = [sum(a * b for b in (3, 4)) for a in (1, 2)]
        return x + sum(rows)
