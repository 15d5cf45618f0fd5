"""in-place-change-of-call-result, good: the container is bound to a name, changed, and stored back."""

from mindspore import nn


class GroupFeatures(nn.Cell):
    def construct(self, x):
        groups = {"features": [x]}
        features = groups["features"]
        features.append(x)
        groups["features"] = features
        return x * len(groups["features"])


class LastOfCopy(nn.Cell):
    def construct(self, x):
        sizes = {"a": [1, 2]}
        values = sizes["a"]
        last = values.pop()
        return x * last


class Count(nn.Cell):
    def construct(self, x):
        sizes = {"a": [1, 2]}
        return x * sizes.get("a").index(2)  # not a change: compiles at every level
