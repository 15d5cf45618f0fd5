"""cell-created-with-tensor-args: a Cell built inside construct from a tensor value. Per level: msgraphlint explain cell-created-with-tensor-args."""

from mindspore import nn


class AdaptiveLeakyReLU(nn.Cell):
    def construct(self, x):
        slope = x.mean()
        return nn.LeakyReLU(alpha=slope)(x)  # expect: cell-created-with-tensor-args


class AdaptiveDropout(nn.Cell):
    def construct(self, x):
        return nn.Dropout(p=x.std() / 10)(x)  # expect: cell-created-with-tensor-args
