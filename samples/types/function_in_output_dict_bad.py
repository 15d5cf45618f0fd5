"""function-in-output-dict: construct returns a dict that holds a function.

STRICT: RuntimeError "Function in output is not supported". COMPATIBLE and LAX: compiles, and the
dict comes back with 0 where the function was.
"""

from mindspore import nn


def postprocess(x):
    return x * 2


class Net(nn.Cell):
    def construct(self, x):
        return {"logits": x * 2, "post": postprocess}  # expect: function-in-output-dict, dict-return-at-strict
