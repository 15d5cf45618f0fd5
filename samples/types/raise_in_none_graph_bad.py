"""raise-in-none-graph: a check Cell that gives back nothing and raises on a tensor test.

What the compiler does at each level: msgraphlint explain raise-in-none-graph.
"""

from mindspore import nn


class CheckRange(nn.Cell):
    def construct(self, x):
        if x.max() > 10:
            raise ValueError("out of range")  # expect: raise-in-none-graph
