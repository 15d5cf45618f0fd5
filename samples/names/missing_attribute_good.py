"""missing-attribute: attributes set in __init__, in the class body, by a project base class,
nn.Cell's own (training), an optional layer tested against None. Per level: msgraphlint explain missing-attribute."""

from mindspore import nn


class Base(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 2.0


class Net(Base):
    OFFSET = 1.0

    def __init__(self, use_act=False):
        super().__init__()
        self.dense = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        self.act = nn.ReLU() if use_act else None

    def construct(self, x):
        y = self.dense(x) * self.scale + self.OFFSET
        if self.act is not None:
            y = self.act(y)
        if self.training:
            return y
        return y * 2


class Stage(nn.Cell):
    """A flag set by add_flags (reduced from megafold, whose trainer also turns it on for every
    sub-Cell with add_flags_recursive(train_backward=True))."""

    def __init__(self):
        super().__init__()
        self.add_flags(train_backward=False)

    def construct(self, x):
        if self.train_backward:
            return x * 2
        return x


class ScaledLoss(nn.WithLossCell):
    """Attributes a MindSpore base class creates (nn.WithLossCell's _backbone and _loss_fn,
    read per release from MindSpore: knowledge/data/cells/)."""

    def __init__(self):
        super().__init__(nn.Dense(2, 2, weight_init="ones", bias_init="zeros"), nn.MSELoss())

    def construct(self, x, label):
        return self._loss_fn(self._backbone(x), label) * 2.0
