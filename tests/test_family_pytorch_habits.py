"""pytorch-habits: which receivers count as tensors, which `to(...)` calls move devices, and when a
`forward` really lacks its `construct`."""

from __future__ import annotations

import textwrap

from .engine_helpers import check_source

HEADER = "import mindspore as ms\nfrom mindspore import nn, ops\n\n"


def findings(tmp_path, body: str, name: str = "net.py"):
    return check_source(tmp_path, HEADER + textwrap.dedent(body), name)


def symbols(found) -> list[str]:
    return sorted(f.rule.symbol for f in found)


def in_construct(tmp_path, expression: str, init: str = "pass"):
    return findings(
        tmp_path,
        f"""
        class Net(nn.Cell):
            def __init__(self, device="cuda"):
                super().__init__()
                self.device = device
                self.fc = nn.Dense(2, 2)
                {init}

            def construct(self, x, y):
                return {expression}
        """,
    )


# ----- tensor-size-call -------------------------------------------------------------------


def test_size_called_on_a_tensor_is_flagged_with_the_shape_spelling(tmp_path):
    found = in_construct(tmp_path, "x.reshape(x.size(0), -1)")
    assert symbols(found) == ["tensor-size-call"]
    assert "x.shape[0]" in found[0].message


def test_size_called_without_arguments_suggests_the_whole_shape(tmp_path):
    found = in_construct(tmp_path, "x.size()")
    assert symbols(found) == ["tensor-size-call"]
    assert "use x.shape" in found[0].message


def test_size_property_and_ops_size_are_not_flagged(tmp_path):
    assert in_construct(tmp_path, "x * x.size + ops.size(y) + x.numel()") == []


def test_size_on_something_not_known_as_a_tensor_is_not_flagged(tmp_path):
    # self.table is a constant attribute set in __init__: it may be any Python object.
    assert in_construct(tmp_path, "x * self.table.size(0)", init="self.table = []") == []


def test_size_outside_compiled_code_is_not_flagged(tmp_path):
    found = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def __init__(self, x):
                super().__init__()
                self.rows = x.size(0)

            def construct(self, x):
                return x * self.rows
        """,
    )
    assert found == []


# ----- device-move-call -------------------------------------------------------------------


def test_cuda_and_cpu_calls_are_flagged(tmp_path):
    assert symbols(in_construct(tmp_path, "x.cuda() + y.cpu()")) == ["device-move-call"] * 2


def test_to_with_a_device_string_attribute_or_keyword_is_flagged(tmp_path):
    expression = 'x.to("cuda:0") + x.to(self.device) + x.to(device=self.device)'
    assert symbols(in_construct(tmp_path, expression)) == ["device-move-call"] * 3


def test_to_with_a_device_and_a_dtype_suggests_keeping_the_cast(tmp_path):
    found = in_construct(tmp_path, 'x.to("cuda", ms.float16)')
    assert symbols(found) == ["device-move-call"]
    assert "x.astype(ms.float16)" in found[0].message


def test_to_with_a_dtype_or_a_tensor_is_a_cast_and_not_flagged(tmp_path):
    assert in_construct(tmp_path, "x.to(ms.float16) + x.to(y) + x.to(dtype=ms.float32)") == []


def test_device_call_on_a_constant_receiver_is_not_flagged(tmp_path):
    assert in_construct(tmp_path, "x + self.table.cpu()", init="self.table = None") == []


# ----- detach-call ------------------------------------------------------------------------


def test_detach_on_an_input_and_on_a_layer_weight_is_flagged(tmp_path):
    found = in_construct(tmp_path, "x.detach() + x @ self.fc.weight.detach()")
    assert symbols(found) == ["detach-call"] * 2
    assert any("ops.stop_gradient(self.fc.weight)" in f.message for f in found)


def test_stop_gradient_and_detach_on_unknown_objects_are_not_flagged(tmp_path):
    assert in_construct(tmp_path, "ops.stop_gradient(x) + self.fc.detach()") == []


def test_detach_in_a_helper_reached_from_construct_is_flagged(tmp_path):
    found = findings(
        tmp_path,
        """
        class Net(nn.Cell):
            def construct(self, x):
                return self.target(x)

            def target(self, t):
                return t.detach()
        """,
    )
    assert symbols(found) == ["detach-call"]
    assert found[0].reached_from is not None


# ----- forward-without-construct ----------------------------------------------------------


def test_forward_only_cell_is_flagged_on_its_forward(tmp_path):
    found = findings(
        tmp_path,
        """
        class Block(nn.Cell):
            def forward(self, x):
                return x * 2
        """,
    )
    assert symbols(found) == ["forward-without-construct"]
    assert found[0].line == 6
    assert "'Block'" in found[0].message


def test_forward_with_construct_inherited_from_a_project_base_is_not_flagged(tmp_path):
    found = findings(
        tmp_path,
        """
        class Base(nn.Cell):
            def construct(self, x):
                return self.forward(x)

        class Block(Base):
            def forward(self, x):
                return x * 2
        """,
    )
    assert found == []


def test_forward_on_a_mindspore_layer_subclass_is_not_flagged(tmp_path):
    # nn.Dense has its own construct; a forward() beside it is just a helper.
    found = findings(
        tmp_path,
        """
        class MyDense(nn.Dense):
            def forward(self, x):
                return self(x)
        """,
    )
    assert found == []


def test_forward_with_a_base_from_another_library_is_not_flagged(tmp_path):
    found = findings(
        tmp_path,
        """
        from somelib import LibraryCell

        class Block(LibraryCell, nn.Cell):
            def forward(self, x):
                return x
        """,
    )
    assert found == []


def test_forward_on_a_plain_class_or_with_own_call_is_not_flagged(tmp_path):
    found = findings(
        tmp_path,
        """
        class Helper:
            def forward(self, x):
                return x

        class Routed(nn.Cell):
            def __call__(self, x):
                return self.forward(x)

            def forward(self, x):
                return x
        """,
    )
    assert found == []


def test_subclass_of_a_forward_only_cell_is_reported_once_where_forward_is(tmp_path):
    found = findings(
        tmp_path,
        """
        class Block(nn.Cell):
            def forward(self, x):
                return x

        class Bigger(Block):
            pass
        """,
    )
    assert symbols(found) == ["forward-without-construct"]


def test_a_static_forward_of_an_autograd_function_port_is_not_a_missing_construct(tmp_path):
    """`@staticmethod forward(ctx, x)`, used as `Port.apply(x)`: renaming it would not fix it."""
    from .engine_helpers import check_source

    source = (
        "from mindspore import nn\n"
        "class Port(nn.Cell):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x * 2\n"
    )
    assert [f.rule.symbol for f in check_source(tmp_path, source)] == []


def test_a_tensor_moved_into_a_mindspore_layer_or_loss_says_it_may_be_rejected(tmp_path):
    """2.10 at LAX: into nn.MSELoss, nn.Dense or ops.mse_loss the graph was rejected; into
    arithmetic, ops.abs or a project Cell it compiled with a zero gradient (the default clause)."""
    loss = "self.loss = nn.MSELoss()"
    cases = {
        "self.loss(x, y.to(x.device))": "into-layer",
        "self.fc(y.to(x.device))": "into-layer",
        "ops.mse_loss(x, y.to(x.device))": "into-layer",
        "ops.cross_entropy(x, target=y.to(x.device))": "into-layer",
        "(x * y.to(x.device)).sum()": "",
        "ops.abs(y.to(x.device))": "",
    }
    for expression, case in cases.items():
        found = [f for f in in_construct(tmp_path, expression, loss)
                 if f.rule.symbol == "move-to-tensor-device"]
        assert [f.case for f in found] == [case], expression
        assert ("rejects the graph" in found[0].message) == bool(case), expression
    through_a_name = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.criterion = nn.CrossEntropyLoss()

            def construct(self, logits, labels):
                labels = labels.to(logits.device)
                return self.criterion(logits, labels)
        """)
    assert [f.case for f in through_a_name] == ["into-layer"]
    # A loss built in construct, in each branch, given the moved tensor through a method of it.
    local_loss = findings(tmp_path, """
        from mindspore.mint.nn import CrossEntropyLoss, MSELoss

        class Net(nn.Cell):
            def construct(self, logits, labels, regression=False):
                labels = labels.to(logits.device)
                if regression:
                    loss_fct = MSELoss()
                else:
                    loss_fct = CrossEntropyLoss()
                return loss_fct(logits, labels.view(-1))
        """)
    assert [f.case for f in local_loss if f.rule.symbol == "move-to-tensor-device"] == ["into-layer"]


# ----- transpose-pair-as-permutation ------------------------------------------------------

TRANSPOSE = """
import numpy as np
from mindspore import Tensor

K = 0


class Net(nn.Cell):
    def construct(self, x):
        return {call}


def main():
    Net()(Tensor(np.ones({shape}, np.float32)))
"""


def transpose_cases(tmp_path, call: str, shape: str = "(2, 3)") -> list[str]:
    found = check_source(tmp_path, HEADER + TRANSPOSE.format(call=call, shape=shape))
    return [f.case or "identity" for f in found if f.rule.symbol == "transpose-pair-as-permutation"]


def test_a_pair_that_is_the_identity_on_two_dims_is_silently_wrong(tmp_path):
    # MindSpore 2.7, 2.8 and 2.10: shape (2, 3) in a graph, (3, 2) in PyNative, at every level.
    assert transpose_cases(tmp_path, "x.transpose(0, 1)") == ["identity"]
    assert transpose_cases(tmp_path, "x.transpose(-2, -1)") == ["identity"]
    assert transpose_cases(tmp_path, "x.transpose(K, 1)") == ["identity"]  # a module constant


def test_a_pair_no_two_dim_permutation_takes_or_another_rank_is_rejected(tmp_path):
    assert transpose_cases(tmp_path, "x.transpose(1, 2)") == ["rejected"]
    assert transpose_cases(tmp_path, "x.transpose(0, 1)", "(2, 3, 4)") == ["rejected"]
    assert transpose_cases(tmp_path, "x.transpose(1, 0)", "(2, 3, 4)") == ["rejected"]


def test_a_swap_both_readings_agree_on_and_other_spellings_are_not_reported(tmp_path):
    assert transpose_cases(tmp_path, "x.transpose(1, 0)") == []  # the same swap on 2-D
    assert transpose_cases(tmp_path, "x.transpose(1, 0, 2)", "(2, 3, 4)") == []  # a permutation
    assert transpose_cases(tmp_path, "x.swapaxes(0, 1)") == []
    assert transpose_cases(tmp_path, "np.ones((2, 3)).transpose(0, 1)") == []  # numpy's own
