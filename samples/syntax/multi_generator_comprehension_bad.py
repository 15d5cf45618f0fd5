"""multi-generator-comprehension: list, dict and generator comprehensions with two 'for' clauses.

"The 'generators' supports 1 'comprehension' in ListComp/GeneratorExp, but got 2" at every level.
"""

from mindspore import nn


class PairSums(nn.Cell):
    def construct(self, x):
        offsets = [a + b for a in range(2) for b in range(2)]  # expect: multi-generator-comprehension
        return x + offsets[-1]


class GridWeights(nn.Cell):
    def construct(self, x):
        weights = {(i, j): i * j for i in range(2) for j in range(2)}  # expect: multi-generator-comprehension
        return x * weights[(1, 1)]


class TotalOffset(nn.Cell):
    def construct(self, x):
        total = sum(a * b for a in (1, 2) for b in (3, 4))  # expect: multi-generator-comprehension
        return x + total
