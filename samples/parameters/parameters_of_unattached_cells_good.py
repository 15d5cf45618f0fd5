"""parameters-of-unattached-cells, fixed: the Cells are attached before their Parameters are
collected, so MindSpore names each after its path (student.weight, teacher.weight).
"""

from mindspore import ParameterTuple, nn

SAMPLE_INPUTS = ("float32[2,4]",)


class SelfDistillation(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.student = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.teacher = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.student_params = ParameterTuple(self.student.trainable_params())
        self.teacher_params = ParameterTuple(self.teacher.trainable_params())

    def construct(self, x):
        drift = (self.student_params[0] - self.teacher_params[0]).square().sum()
        return self.head(x) + drift


class TwoLayers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.layers = nn.CellList([nn.Dense(4, 4, weight_init="ones", bias_init="zeros"),
                                   nn.Dense(4, 4, weight_init="ones", bias_init="zeros")])
        self.first = ParameterTuple(self.layers[0].get_parameters())
        self.second = ParameterTuple(self.layers[1].get_parameters())

    def construct(self, x):
        return self.proj(x) + self.first[1] + self.second[1]
