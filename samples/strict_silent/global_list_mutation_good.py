"""global-list-mutation, fixed: return the value; the caller collects it. Per level: msgraphlint explain global-list-mutation."""

from mindspore import nn

EVENTS = []


class LogLoss(nn.Cell):
    def construct(self, x):
        return x * 2, x.sum()


class CountCalls(nn.Cell):
    def construct(self, x):
        calls = []
        calls.append("called")  # a local list is fine
        return x + len(calls)
