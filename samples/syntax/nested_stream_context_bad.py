"""nested-stream-context: a MindSpore stream context entered inside another of the same kind in
compiled code.

What the compiler does at each level: msgraphlint explain nested-stream-context.
"""

import mindspore as ms
from mindspore import nn
from mindspore.runtime import StreamCtx

first = ms.runtime.Stream()
second = ms.runtime.Stream()


class Nested(nn.Cell):
    def construct(self, x):
        with StreamCtx(first):
            with StreamCtx(second):  # expect: nested-stream-context
                x = x * 2
        return x
