"""syntax-error: a Python 2 training script; MindSpore can never import it."""
import mindspore as ms


def report(loss):
    print "loss", loss  # expect: syntax-error
