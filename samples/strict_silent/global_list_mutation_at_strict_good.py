"""global-list-mutation-at-strict, fixed: return the value; the caller collects it. Per level: msgraphlint explain global-list-mutation-at-strict."""

from mindspore import nn

EVENTS = []


class Trace(nn.Cell):
    def construct(self, x):
        return x * 2, x.sum()


class TraceFirst(nn.Cell):
    def construct(self, x):
        return x + 1
