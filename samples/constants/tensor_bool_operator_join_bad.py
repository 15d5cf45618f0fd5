"""tensor-bool-operator-join: `and`/`or` on a tensor input whose two outcomes cannot be joined.

What the compiler does at each level: msgraphlint explain tensor-bool-operator-join.
"""

from mindspore import Tensor, nn


class GateWithNumber(nn.Cell):
    def construct(self, x):
        return x and 2  # expect: tensor-bool-operator-join


def main():
    gate = GateWithNumber()
    return gate(Tensor([1.0]))
