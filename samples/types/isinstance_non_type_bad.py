"""isinstance-non-type: isinstance given a dtype, a list or a `|` union instead of a type.

Python 3.10+ accepts the union; the graph compiler has its own rules for isinstance.
What the compiler does at each level: msgraphlint explain isinstance-non-type.
"""

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.common import dtype as mstype
from mindspore.ops import constexpr


class DtypeCheck(nn.Cell):
    def construct(self, x):
        if isinstance(x.dtype, ms.float32):  # expect: isinstance-non-type
            return x + 1
        return x


class ListOfTypes(nn.Cell):
    def construct(self, x):
        if isinstance(x, [Tensor, int]):  # expect: isinstance-non-type
            return x + 1
        return x


class UnionOfTypes(nn.Cell):
    def construct(self, x):
        if isinstance(x, int | float):  # expect: isinstance-non-type
            return x
        return x * 2


class FunctionForClass(nn.Cell):
    """ops.add is a function (the API snapshot of the target release says so); ops.Add is the class."""

    def construct(self, x):
        if isinstance(x, ops.add):  # expect: isinstance-non-type
            return x + 1
        return x


@constexpr(check=False)
def _check_is_tensor(name, data):
    """Run by Python while compiling: mstype.tensor_type is an instance (of TensorType), so
    isinstance raises TypeError whenever data is not None, and the compile fails."""
    if data is not None and not isinstance(ops.typeof(data), mstype.tensor_type):  # expect: isinstance-non-type
        raise TypeError(f"{name} must be a tensor")
    return True


class ConstexprCheck(nn.Cell):
    def construct(self, x):
        batch = x.shape[0]
        _check_is_tensor("x", x)
        return x * batch
