"""custom-object-mutation: a held helper object changes its own state inside construct.

What the compiler does at each level: msgraphlint explain custom-object-mutation.
"""

from mindspore import nn


class StepCounter:
    def __init__(self):
        self.count = 0

    def tick(self):
        self.count += 1
        return self.count


class Warmup(nn.Cell):
    def __init__(self):
        super().__init__()
        self.counter = StepCounter()

    def construct(self, x):
        step = self.counter.tick()  # expect: custom-object-mutation
        return x * step
