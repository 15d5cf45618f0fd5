"""removed-ms-function, fixed: mindspore.jit, with and without fullgraph=True. Per level: msgraphlint explain removed-ms-function."""

import mindspore as ms
from mindspore import jit


@jit
def train_step(x):
    return x * 2


@ms.jit(fullgraph=True)
def eval_step(x):
    return x + 1
