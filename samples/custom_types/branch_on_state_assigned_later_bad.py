"""branch-on-state-assigned-later: an if tests a plain Cell attribute that construct assigns after it.

The graph may decide the branch once, while compiling, from the value __init__ gave.
What the compiler does at each level: msgraphlint explain branch-on-state-assigned-later.
"""

from mindspore import nn


class WarmUp(nn.Cell):
    """The first call is meant to be special; in the graph every call is the first."""

    def __init__(self):
        super().__init__()
        self.ready = False

    def construct(self, x):
        if not self.ready:  # expect: branch-on-state-assigned-later
            self.ready = True  # expect: non-parameter-attribute-assign
            return x * 3
        return x


class DoubleAfterFirst(nn.Cell):
    """Reduced from mindone's candidate generator: the mapped path is meant from the second call."""

    def __init__(self):
        super().__init__()
        self.mapped = False

    def construct(self, x):
        if self.mapped:  # expect: branch-on-state-assigned-later
            y = x * 2
        else:
            self.mapped = True  # expect: non-parameter-attribute-assign
            y = x
        return y


class StepCounter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = 0

    def construct(self, x):
        if self.steps > 0:  # expect: branch-on-state-assigned-later
            x = x * 2
        self.steps = self.steps + 1  # expect: non-parameter-attribute-assign
        return x
