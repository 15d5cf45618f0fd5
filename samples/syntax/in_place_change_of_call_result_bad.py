"""in-place-change-of-call-result: a list or dict changed in place through a call's result. Per level: msgraphlint explain in-place-change-of-call-result."""

from mindspore import nn


class GroupFeatures(nn.Cell):
    def construct(self, x):
        groups = {"features": [x]}
        groups.setdefault("features", []).append(x)  # expect: in-place-change-of-call-result
        return x * len(groups["features"])


class LastOfCopy(nn.Cell):
    def construct(self, x):
        sizes = {"a": [1, 2]}
        last = sizes.get("a").pop()  # expect: in-place-change-of-call-result
        return x * last


def merge(options):
    dict(options).update({"scale": 2})  # expect: in-place-change-of-call-result
    return options


class MergeOptions(nn.Cell):
    def construct(self, x):
        options = merge({"scale": 1})
        return x * options["scale"]
