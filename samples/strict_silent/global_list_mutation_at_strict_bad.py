"""global-list-mutation-at-strict: extend and insert on a module-level list inside construct. Per level: msgraphlint explain global-list-mutation-at-strict."""

from mindspore import nn

EVENTS = []


class Trace(nn.Cell):
    def construct(self, x):
        EVENTS.extend([x.sum()])  # expect: global-list-mutation-at-strict
        return x * 2


class TraceFirst(nn.Cell):
    def construct(self, x):
        EVENTS.insert(0, "step")  # expect: global-list-mutation-at-strict
        return x + 1
