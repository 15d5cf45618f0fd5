"""operand-type-error, fixed: the operands are numbers. Per level: msgraphlint explain
operand-type-error."""

from mindspore import mutable, nn, ops


class ShiftByText(nn.Cell):
    def construct(self, x):
        return ops.relu(x) + 0.5


class StepModulo(nn.Cell):
    def construct(self, x):
        step = mutable(5)
        phase = step % 4
        return x * phase
