"""custom-object-with-tensor: a plain Python object made to hold a tensor inside construct.

The object is a project class, neither a Cell nor a @jit_class.
What the compiler does at each level: msgraphlint explain custom-object-with-tensor.
"""

from mindspore import nn


class Box:
    """A small record passed between layers, PyTorch style."""

    def __init__(self, value):
        self.value = value


class Memory:
    def __init__(self):
        self.last = None

    def remember(self, value):
        self.last = value
        return self.last


class Wrap(nn.Cell):
    def construct(self, x):
        box = Box(x)  # expect: custom-object-with-tensor
        return box.value * 2


class Remember(nn.Cell):
    def __init__(self):
        super().__init__()
        self.memory = Memory()

    def construct(self, x):
        return self.memory.remember(x) * 2  # expect: custom-object-with-tensor
