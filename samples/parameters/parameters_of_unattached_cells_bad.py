"""parameters-of-unattached-cells: a Cell collects the Parameters of two Cells of one class that
no Cell holds; both keep the names their class gives them, and compiled code reading both sets
makes the graph take two Parameters of one name.

What the compiler does at each level: msgraphlint explain parameters-of-unattached-cells.
"""

from mindspore import ParameterTuple, nn

SAMPLE_INPUTS = ("float32[2,4]",)


class SelfDistillation(nn.Cell):
    """Reduced from a student/teacher port: the two projections are built as locals of __init__."""

    def __init__(self):
        super().__init__()
        self.head = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        student = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        teacher = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.student_params = ParameterTuple(student.trainable_params())
        self.teacher_params = ParameterTuple(teacher.trainable_params())  # expect: parameters-of-unattached-cells

    def construct(self, x):
        drift = (self.student_params[0] - self.teacher_params[0]).square().sum()
        return self.head(x) + drift


class TwoLayers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        first = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        second = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.first = ParameterTuple(first.get_parameters())
        self.second = ParameterTuple(second.get_parameters())  # expect: parameters-of-unattached-cells

    def construct(self, x):
        return self.proj(x) + self.first[1] + self.second[1]
