"""in-place-method-ignored, fixed: rebind instead of changing in place.
Per level: msgraphlint explain in-place-method-ignored.
"""

from mindspore import nn


def smallest(values):
    ordered = sorted(values)
    return ordered[0]


class SortedScale(nn.Cell):
    def construct(self, x):
        scales = [3, 1, 2]
        scales = sorted(scales, reverse=True)
        return x * scales[-1]


class RemovedScale(nn.Cell):
    def construct(self, x):
        scales = [1, 2, 3]
        first = scales.index(1)
        scales = scales[:first] + scales[first + 1:]
        return x * scales[0]


class DefaultWeight(nn.Cell):
    def construct(self, x):
        weights = {"main": 1}
        if "aux" not in weights:
            weights["aux"] = 2
        return x * len(weights)


class HelperSort(nn.Cell):
    def construct(self, x):
        return x * smallest((3, 1, 2))
