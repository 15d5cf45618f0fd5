"""function-in-output-dict: construct returns a dict that holds a function.

The function is a value of the dict, next to a tensor.
What the compiler does at each level: msgraphlint explain function-in-output-dict.
"""

from mindspore import nn


def postprocess(x):
    return x * 2


class Net(nn.Cell):
    def construct(self, x):
        return {"logits": x * 2, "post": postprocess}  # expect: function-in-output-dict, dict-return-at-strict
