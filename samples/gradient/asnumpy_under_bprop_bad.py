"""asnumpy-under-bprop: a host copy in construct of a Cell with a custom bprop. Per level: msgraphlint explain asnumpy-under-bprop."""

from mindspore import Tensor, nn


class HostScale(nn.Cell):
    def construct(self, x):
        return Tensor(x.asnumpy() * 2)  # expect: asnumpy-under-bprop

    def bprop(self, x, out, dout):
        return (dout * 2,)


class StraightThrough(nn.Cell):
    """The gradient passes straight through, whatever the forward does."""

    def bprop(self, x, out, dout):
        return (dout,)


class HostRound(StraightThrough):
    def construct(self, x):
        return Tensor(x.asnumpy().round())  # expect: asnumpy-under-bprop
