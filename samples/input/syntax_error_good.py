"""syntax-error, fixed: the same script in Python 3."""
import mindspore as ms


def report(loss):
    print("loss", loss)
