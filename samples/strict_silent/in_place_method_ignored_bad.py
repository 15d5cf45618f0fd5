"""in-place-method-ignored: list.sort(), list.remove() and dict.setdefault() in compiled code.

The graph has no implementation of these three; the container may stay as it was.
Per level: msgraphlint explain in-place-method-ignored.
"""

from mindspore import nn


def smallest(values):
    ordered = list(values)
    ordered.sort()  # expect: in-place-method-ignored
    return ordered[0]


class SortedScale(nn.Cell):
    def construct(self, x):
        scales = [3, 1, 2]
        scales.sort(reverse=True)  # expect: in-place-method-ignored
        return x * scales[-1]


class RemovedScale(nn.Cell):
    def construct(self, x):
        scales = [1, 2, 3]
        scales.remove(1)  # expect: in-place-method-ignored
        return x * scales[0]


class DefaultWeight(nn.Cell):
    def construct(self, x):
        weights = {"main": 1}
        weights.setdefault("aux", 2)  # expect: in-place-method-ignored
        return x * len(weights)


class HelperSort(nn.Cell):
    def construct(self, x):
        return x * smallest((3, 1, 2))
