"""global-list-mutation-at-strict: extend/insert on a module-level list are lost at STRICT only."""

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
