"""jit-class-in-output: a @jit_class object among what construct gives back to Python ("Illegal
type in the graph: AbstractClass" where the level cannot describe it).
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
        return x * 2, Output(2, 0)  # expect: jit-class-in-output


class RecordByName(nn.Cell):
    def construct(self, x):
        record = Output(3, 1)  # expect: jit-class-in-output
        return x + 1, record


def main():
    x = Tensor(np.ones((2, 3), np.float32))
    WithRecord()(x)
    RecordByName()(x)


if __name__ == "__main__":
    main()
