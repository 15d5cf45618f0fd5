"""constant-list-pop: pop() on a list of constants built in compiled code.

The list of constants is folded into one object while compiling; what a pop does to it may
outlive the call. Per level: msgraphlint explain constant-list-pop.
"""

from mindspore import nn


def last_scale():
    scales = [1, 2, 3]
    scales.pop(1)  # expect: constant-list-pop
    return scales[-1]


class DropMiddle(nn.Cell):
    def construct(self, x):
        scales = [1, 2, 3]
        scales.pop(1)  # expect: constant-list-pop
        return x * scales[-1]


class DropLast(nn.Cell):
    def construct(self, x):
        scales = []
        scales.append(1)
        scales.append(2)
        scales.append(3)
        scales.pop()  # expect: constant-list-pop
        return x * scales[-1] + len(scales)


class HelperPop(nn.Cell):
    def construct(self, x):
        return x * last_scale()
