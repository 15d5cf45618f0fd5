"""multi-generator-comprehension: list, dict and generator comprehensions with two 'for' clauses.

What the compiler does at each level: msgraphlint explain multi-generator-comprehension.
"""

from mindspore import nn


class PairSums(nn.Cell):
    def construct(self, x):
        offsets = [a + b for a in (0, 1) for b in (0, 1)]  # expect: multi-generator-comprehension
        return x + offsets[-1]


class GridWeights(nn.Cell):
    def construct(self, x):
        rows = (0, 1)
        grid = {(i, j): i * j for i in rows for j in rows}  # expect: multi-generator-comprehension
        return x * grid[(1, 1)]


class TotalOffset(nn.Cell):
    def construct(self, x):
        total = sum(a * b for a in (1, 2) for b in (3, 4))  # expect: multi-generator-comprehension
        return x + total
