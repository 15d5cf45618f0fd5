"""jit-class-in-output, fixed: the fields go back to Python, or the object stays in the graph.
Per level: msgraphlint explain jit-class-in-output."""

import numpy as np

from mindspore import Tensor, jit_class, nn


@jit_class
class Output:
    def __init__(self, scale, shift):
        self.scale = scale
        self.shift = shift


class WithRecord(nn.Cell):
    def construct(self, x):
        record = Output(2, 0)
        return x * 2, record.scale, record.shift


class RecordInside(nn.Cell):
    def construct(self, x):
        record = Output(3, 1)
        return x * record.scale + record.shift


def main():
    x = Tensor(np.ones((2, 3), np.float32))
    WithRecord()(x)
    RecordInside()(x)


if __name__ == "__main__":
    main()
