"""global-list-mutation: append and += on a module-level list inside construct. Per level: msgraphlint explain global-list-mutation."""

from mindspore import nn

EVENTS = []


class LogLoss(nn.Cell):
    def construct(self, x):
        EVENTS.append(x.sum())  # expect: global-list-mutation
        return x * 2


class CountCalls(nn.Cell):
    def construct(self, x):
        global EVENTS
        EVENTS += ["called"]  # expect: global-list-mutation
        return x + 1
