"""nested-function-as-sort-key, good: the key is a module-level function or a lambda."""

from mindspore import nn


def by_size(v):
    return -v


class Largest(nn.Cell):
    def construct(self, x):
        sizes = sorted([3, 1, 2], key=by_size)
        return x * sizes[0]


class LargestLambda(nn.Cell):
    def construct(self, x):
        sizes = sorted([3, 1, 2], key=lambda v: -v)
        return x * sizes[0]
