"""nested-stream-context, fixed: the contexts entered one after the other. Per level: msgraphlint
explain nested-stream-context."""

import mindspore as ms
from mindspore import nn
from mindspore.runtime import StreamCtx

first = ms.runtime.Stream()
second = ms.runtime.Stream()


class Nested(nn.Cell):
    def construct(self, x):
        with StreamCtx(first):
            x = x * 2
        with StreamCtx(second):
            x = x * 2
        return x
