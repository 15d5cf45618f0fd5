"""jit-typing-comment: a `# @jit.typing:` comment MindSpore cannot read, on host code that runs
through the interpreter (JIT Fallback).

What the compiler does at each level: msgraphlint explain jit-typing-comment.
"""

import numpy as np
from mindspore import jit


@jit
def exp_on_host(x):
    # @jit.typing: () -> tensor_type[Float32]
    y = np.exp(x)  # expect: host-call-on-tensor, jit-typing-comment
    return y
