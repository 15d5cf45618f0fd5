"""nested-function-as-sort-key: a def written inside compiled code passed as a sort key. Per level: msgraphlint explain nested-function-as-sort-key."""

from mindspore import nn


class Largest(nn.Cell):
    def construct(self, x):
        def by_size(v):
            return -v

        sizes = sorted([3, 1, 2], key=by_size)  # expect: nested-function-as-sort-key
        return x * sizes[0]


class SortInPlace(nn.Cell):
    def construct(self, x):
        def descending(v):
            return -v

        sizes = [3, 1, 2]
        sizes.sort(key=descending)  # expect: nested-function-as-sort-key
        return x * sizes[0]
