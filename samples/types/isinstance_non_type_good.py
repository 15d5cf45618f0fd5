"""isinstance-non-type, fixed: dtypes compared with ==, types passed as a tuple. Per level: msgraphlint explain isinstance-non-type."""

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.common import dtype as mstype
from mindspore.ops import constexpr


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


@constexpr(check=False)
def _check_is_tensor(name, data):
    """Python runs it while compiling, so a `|` union is fine here, and the class of the
    tensor_type instance is what isinstance takes."""
    if data is not None and not isinstance(ops.typeof(data), type(mstype.tensor_type) | int):
        raise TypeError(f"{name} must be a tensor")
    return True


@constexpr(check=False)
def _check_optional(name, data):
    """The isinstance never runs when data is None, which is all the Cell below passes."""
    if data is not None and not isinstance(ops.typeof(data), mstype.tensor_type):
        raise TypeError(f"{name} must be a tensor")
    return True


class ConstexprCheck(nn.Cell):
    def construct(self, x, h=None):
        batch = x.shape[0]
        _check_is_tensor("x", x)
        _check_optional("h", h)
        return x * batch
