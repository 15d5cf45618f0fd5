"""Inline suppressions read as pylint reads them."""

from __future__ import annotations

import pytest

from .engine_helpers import check_source

HEAD = "import math\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
CALL = "math.sqrt(x.sum())"


def suppressed(tmp_path, body: str) -> list[bool]:
    return [f.suppressed for f in check_source(tmp_path, HEAD + body)]


@pytest.mark.parametrize(
    "comment",
    [
        "# pylint: disable=host-call-on-tensor",
        "# pylint: disable=W8720 W8721",
        "# pylint: disable=host-call-on-tensor because numpy is needed here",
        "# pylint:disable=all",
        "# msgraphlint: disable=host-call-on-tensor",
    ],
)
def test_trailing_disable(tmp_path, comment):
    assert suppressed(tmp_path, f"        return {CALL}  {comment}\n") == [True]


def test_disable_next_and_unrelated_rules(tmp_path):
    body = f"        # pylint: disable-next=W8720\n        y = {CALL}\n        return {CALL}\n"
    assert suppressed(tmp_path, body) == [True, False]
    assert suppressed(tmp_path, f"        return {CALL}  # pylint: disable=syntax-error\n") == [False]


def test_block_disable_ends_at_dedent_and_only_for_the_rules_enabled_again(tmp_path):
    body = (
        "        # pylint: disable=host-call-on-tensor,unsupported-statement\n"
        f"        a = {CALL}\n"
        "        # pylint: enable=unsupported-statement\n"
        f"        b = {CALL}\n"
        "        # pylint: enable=host-call-on-tensor\n"
        f"        return a + b + {CALL}\n"
    )
    assert suppressed(tmp_path, body) == [True, True, False]


def test_enable_inside_disable_all(tmp_path):
    body = (
        "        # pylint: disable=all\n"
        f"        a = {CALL}\n"
        "        # pylint: enable=host-call-on-tensor\n"
        f"        return a + {CALL}\n"
    )
    assert suppressed(tmp_path, body) == [True, False]


def test_line_numbers_survive_form_feeds_and_unicode_line_separators(tmp_path):
    """str.splitlines() breaks at \\x0c and \\u2028; ast does not: lines must be counted as ast does."""
    block = "        s = '\u2028'\n        # pylint: disable=host-call-on-tensor\n"
    (finding,) = check_source(tmp_path, "\x0c\n" + HEAD + block + f"        return s, {CALL}\n")
    assert finding.suppressed
    (finding,) = check_source(tmp_path, "\x0c\n" + HEAD + f"        return '\u2028', {CALL}\n")
    assert finding.column == len("        return '\u2028', ") + 1
