"""dict-return-at-strict: a dict returned from construct. Per level: msgraphlint explain dict-return-at-strict."""

import mindspore as ms
from mindspore import nn


class TwoHeads(nn.Cell):
    def construct(self, x):
        return {"logits": x * 2, "features": x}  # expect: dict-return-at-strict


class Outputs(nn.Cell):
    def construct(self, x):
        out = {}
        out["loss"] = x.sum()
        return out  # expect: dict-return-at-strict


@ms.jit(fullgraph=True)
def predict(x):
    return {"scores": x + 1}  # expect: dict-return-at-strict
