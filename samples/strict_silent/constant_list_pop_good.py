"""constant-list-pop, fixed: build the shorter list by slicing instead of popping.
Per level: msgraphlint explain constant-list-pop.
"""

from mindspore import nn


def last_scale():
    scales = [1, 2, 3]
    scales = scales[:1] + scales[2:]
    return scales[-1]


class DropMiddle(nn.Cell):
    def construct(self, x):
        scales = [1, 2, 3]
        scales = scales[:1] + scales[2:]
        return x * scales[-1]


class DropLast(nn.Cell):
    def construct(self, x):
        scales = []
        scales.append(1)
        scales.append(2)
        scales.append(3)
        scales = scales[:-1]
        return x * scales[-1] + len(scales)


class HelperPop(nn.Cell):
    def construct(self, x):
        return x * last_scale()
