"""missing-attribute: self.<name> read in compiled code that no class of the Cell ever sets.
What the compiler does at each level: msgraphlint explain missing-attribute."""

from mindspore import nn


class Typo(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def construct(self, x):
        return x * self.scael  # expect: missing-attribute


class MissingLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        return self.act(self.dense(x))  # expect: missing-attribute


class ScaledLoss(nn.WithLossCell):
    """A subclass of a MindSpore Cell class has what that class's __init__ creates
    (nn.WithLossCell: _backbone, _loss_fn; knowledge/data/cells/), and nothing else."""

    def __init__(self):
        super().__init__(nn.Dense(2, 2, weight_init="ones", bias_init="zeros"), nn.MSELoss())

    def construct(self, x, label):
        return self._loss_fn(self._backbone(x), label) * self.loss_scale  # expect: missing-attribute
