"""isinstance-non-type, fixed: dtypes compared with ==, types passed as a tuple. Per level: msgraphlint explain isinstance-non-type."""

import mindspore as ms
from mindspore import Tensor, nn


class DtypeCheck(nn.Cell):
    def construct(self, x):
        if x.dtype == ms.float32:
            return x + 1
        return x


class TupleOfTypes(nn.Cell):
    def __init__(self):
        super().__init__()
        self.kinds = (Tensor, int)

    def construct(self, x):
        if isinstance(x, (Tensor, (int, float))) and isinstance(x, self.kinds):
            return x + 1
        return x


class NoneCheck(nn.Cell):
    def construct(self, x):
        if isinstance(x, type(None)):
            return x
        return x * 2
