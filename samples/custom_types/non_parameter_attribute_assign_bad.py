"""non-parameter-attribute-assign: plain Cell attributes assigned inside construct.

What the compiler does at each level: msgraphlint explain non-parameter-attribute-assign.
"""

from mindspore import nn


class CountSteps(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = 0

    def construct(self, x):
        self.steps += 1  # expect: non-parameter-attribute-assign
        return x * 2


class KeepLast(nn.Cell):
    def __init__(self):
        super().__init__()
        self.last = None

    def construct(self, x):
        self.last = x * 3  # expect: non-parameter-attribute-assign
        return x * 2


class MarkCalled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.called = False

    def construct(self, x):
        self.called = True  # expect: non-parameter-attribute-assign
        return x * 2


class Memo(nn.Cell):
    """A memo written under a test of itself: LAX runs it as PyNative does, first value kept on
    purpose, so reading it back is not non-parameter-state-read (STRICT rejects the write)."""

    def __init__(self):
        super().__init__()
        self.cache = None

    def construct(self, x):
        if self.cache is None:
            self.cache = x * 2  # expect: non-parameter-attribute-assign
        return self.cache + x
