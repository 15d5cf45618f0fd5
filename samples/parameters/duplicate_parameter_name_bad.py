"""duplicate-parameter-name: an init hook of the outermost Cell gives its layers new Parameters,
which keep one bare name ('weight') until the net's first call renames them after their paths.

What the compiler does at each level: msgraphlint explain duplicate-parameter-name.
"""

from mindspore import Parameter, nn
from mindspore.common.initializer import TruncatedNormal, initializer

SAMPLE_INPUTS = ("float32[2,4]",)


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 4)
        self.fc2 = nn.Dense(4, 4)

    def construct(self, x):
        return self.fc2(self.fc1(x))


class Encoder(nn.Cell):
    """Reduced from a PyTorch port: trunc_normal_(m.weight) became a new Parameter."""

    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Dense(4, 2)
        self.apply(self._init_weights)

    def _init_weights(self, cell):
        if isinstance(cell, nn.Dense):
            cell.weight = Parameter(initializer(TruncatedNormal(0.02), cell.weight.shape))  # expect: duplicate-parameter-name

    def construct(self, x):
        return self.head(self.block(x))


def zero_bias(cell):
    if isinstance(cell, (nn.Dense, nn.Conv2d)):
        cell.bias = Parameter(initializer("zeros", cell.bias.shape), name="bias")


class Stack(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.SequentialCell([nn.Dense(4, 4) for _ in range(3)])
        self.apply(zero_bias)  # expect: duplicate-parameter-name

    def construct(self, x):
        return self.layers(x)


class TwoHeads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.left = nn.Dense(4, 2)
        self.right = nn.Dense(4, 2)
        self.reset()

    def reset(self):
        for _, cell in self.cells_and_names():
            if isinstance(cell, nn.Dense):
                cell.weight = Parameter(initializer("ones", cell.weight.shape), name="w")  # expect: duplicate-parameter-name

    def construct(self, x):
        return self.left(x) + self.right(x)


class QKVBias(nn.Cell):
    """Reduced from an attention port: the query and value biases were both named 'bias'."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)
        self.q_bias = Parameter(initializer("zeros", (4,)), name="bias")
        self.v_bias = Parameter(initializer("zeros", (4,)), name="bias")  # expect: duplicate-parameter-name

    def construct(self, x):
        return self.proj(x) + self.q_bias + self.v_bias


class PortedViT(nn.Cell):
    """Reduced from a timm port: the hook runs under weight_init, which defaults to True."""

    def __init__(self, weight_init=True):
        super().__init__()
        self.blocks = nn.SequentialCell([nn.Dense(4, 4), nn.Dense(4, 4)])
        self.head = nn.Dense(4, 2)
        if weight_init:
            self._init_weights()

    def _init_weights(self):
        for _, cell in self.cells_and_names():
            if isinstance(cell, nn.Dense):
                cell.weight = Parameter(initializer(TruncatedNormal(0.02), cell.weight.shape))  # expect: duplicate-parameter-name

    def construct(self, x):
        return self.head(self.blocks(x))
