"""removed-ms-function: MindSpore 1.x code that imports ms_function, gone since 2.6. Per level: msgraphlint explain removed-ms-function."""

import mindspore as ms
from mindspore import jit  # expect: removed-ms-function


@jit
def train_step(x):
    return x * 2


@ms.jit  # expect: removed-ms-function
def eval_step(x):
    return x + 1
