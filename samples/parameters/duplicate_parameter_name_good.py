"""duplicate-parameter-name, fixed: the init hook gives the existing Parameters new data, or names
a new one after the Parameter it replaces; a Cell another Cell holds is renamed when attached.

What the compiler does at each level: msgraphlint explain duplicate-parameter-name.
"""

from mindspore import Parameter, nn
from mindspore.common.initializer import initializer

SAMPLE_INPUTS = ("float32[2,4]",)


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 4, bias_init="zeros")
        self.fc2 = nn.Dense(4, 4, bias_init="zeros")
        # Block is held by Wrapped: attaching it renames these after their paths (block.fc1.weight).
        self.apply(self._init_weights)

    def _init_weights(self, cell):
        if isinstance(cell, nn.Dense):
            cell.weight = Parameter(initializer("ones", cell.weight.shape))

    def construct(self, x):
        return self.fc2(self.fc1(x))


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = nn.SequentialCell([nn.Dense(4, 4, bias_init="zeros"), nn.Dense(4, 4, bias_init="zeros")])
        self.head = nn.Dense(4, 2, bias_init="zeros")
        self.apply(self._init_weights)

    def _init_weights(self, cell):
        if isinstance(cell, nn.Dense):
            cell.weight.set_data(initializer("ones", cell.weight.shape))

    def construct(self, x):
        return self.head(self.block(x))


class TwoHeads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.left = nn.Dense(4, 2, bias_init="zeros")
        self.right = nn.Dense(4, 2, bias_init="zeros")
        for _, cell in self.cells_and_names():
            if isinstance(cell, nn.Dense):
                cell.weight = Parameter(initializer("ones", cell.weight.shape), name=cell.weight.name)

    def construct(self, x):
        return self.left(x) + self.right(x)


class Wrapped(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return self.block(x) * 2


class QKVBias(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.q_bias = Parameter(initializer("zeros", (4,)))
        self.v_bias = Parameter(initializer("zeros", (4,)), name="v_bias")

    def construct(self, x):
        return self.proj(x) + self.q_bias + self.v_bias


class PortedViT(nn.Cell):
    """The hook under weight_init (True by default) gives the existing Parameters new data."""

    def __init__(self, weight_init=True):
        super().__init__()
        self.blocks = nn.SequentialCell([nn.Dense(4, 4, bias_init="zeros"), nn.Dense(4, 4, bias_init="zeros")])
        self.head = nn.Dense(4, 2, bias_init="zeros")
        if weight_init:
            self._init_weights()

    def _init_weights(self):
        for _, cell in self.cells_and_names():
            if isinstance(cell, nn.Dense):
                cell.weight.set_data(initializer("ones", cell.weight.shape))

    def construct(self, x):
        return self.head(self.blocks(x))
