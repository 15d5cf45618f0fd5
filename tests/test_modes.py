"""Code the project runs only in PyNative mode (model/modes.py): a Cell built only there is never
compiled, so nothing in its construct is reported. Every doubt keeps it compiled."""

from __future__ import annotations

import pytest

from .test_reach import HOST_CALL, flagged, write

CATCHER = f"""
    import math
    import mindspore as ms
    from mindspore import context, get_context, nn, PYNATIVE_MODE, GRAPH_MODE


    class Catcher(nn.Cell):
        def construct(self, x):
            return {HOST_CALL}

"""
CATCHER_LINE = 8


def _reported(tmp_path, driver: str, extra: dict[str, str] | None = None) -> bool:
    write(tmp_path, {"m.py": CATCHER + driver, **(extra or {})})
    return (CATCHER_LINE, None) in flagged(tmp_path, "m.py")


@pytest.mark.parametrize("driver", [
    # the check in the building function, in each spelling of the mode
    """
    def calibrate(x):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return Catcher()(x)
    """,
    """
    def calibrate(x):
        if ms.get_context("mode") == ms.GRAPH_MODE:
            raise RuntimeError("PyNative only")
        return Catcher()(x)
    """,
    """
    def calibrate(x):
        if context.get_context("mode") != 1:
            raise ValueError("PyNative only")
        return Catcher()(x)
    """,
    # in a helper called first, in a method of the same class
    """
    class Quantizer:
        def _check(self):
            print("checking")
            if not get_context("mode") == PYNATIVE_MODE:
                raise ValueError("PyNative only")

        def apply(self, x):
            self._check()
            return Catcher()(x)
    """,
    # under a branch that tests for PyNative
    """
    def calibrate(x):
        if get_context("mode") == PYNATIVE_MODE:
            return Catcher()(x)
        return x
    """,
    # in a helper whose only caller is past the check
    """
    class Quantizer:
        def _first_inputs(self, x):
            catcher = Catcher()
            return catcher(x)

        def apply(self, x, deploy=False):
            if deploy:
                return x
            if get_context("mode") != PYNATIVE_MODE:
                raise ValueError("PyNative only")
            return self._first_inputs(x)
    """,
])
def test_a_cell_built_only_in_pynative_is_not_compiled(tmp_path, driver):
    assert not _reported(tmp_path, driver)


@pytest.mark.parametrize("driver", [
    # no mode check at all
    """
    def calibrate(x):
        return Catcher()(x)
    """,
    # the check comes after the construction
    """
    def calibrate(x):
        out = Catcher()(x)
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return out
    """,
    # the helper may return before its check
    """
    class Quantizer:
        def _check(self, deploy):
            if deploy:
                return
            if get_context("mode") != PYNATIVE_MODE:
                raise ValueError("PyNative only")

        def apply(self, x, deploy):
            self._check(deploy)
            return Catcher()(x)
    """,
    # the branch tests for graph mode
    """
    def calibrate(x):
        if get_context("mode") == GRAPH_MODE:
            return Catcher()(x)
        return x
    """,
    # built past the check, and also somewhere else
    """
    def calibrate(x):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return Catcher()(x)

    def serve(x):
        return Catcher()(x)
    """,
    # handed on as a class: built who knows where
    """
    def calibrate(x, make=Catcher):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return make()(x)
    """,
    # a helper with a caller that is not past the check
    """
    class Quantizer:
        def _first_inputs(self, x):
            return Catcher()(x)

        def apply(self, x):
            if get_context("mode") != PYNATIVE_MODE:
                raise ValueError("PyNative only")
            return self._first_inputs(x)

        def serve(self, x):
            return self._first_inputs(x)
    """,
])
def test_a_cell_that_graph_mode_may_build_stays_compiled(tmp_path, driver):
    assert _reported(tmp_path, driver)


def test_a_cell_the_package_exports_stays_compiled(tmp_path):
    """Users of the package may build it in graph mode."""
    driver = """
    __all__ = ["Catcher"]

    def calibrate(x):
        if get_context("mode") != PYNATIVE_MODE:
            raise ValueError("PyNative only")
        return Catcher()(x)
    """
    assert _reported(tmp_path, driver)


def test_a_cell_built_in_another_module_past_the_check_is_not_compiled(tmp_path):
    driver = """
    def unrelated():
        return 1
    """
    other = {"calibrate.py": """
        from mindspore import get_context, PYNATIVE_MODE
        from m import Catcher

        def calibrate(x):
            if get_context("mode") != PYNATIVE_MODE:
                raise ValueError("PyNative only")
            return Catcher()(x)
        """}
    assert not _reported(tmp_path / "one_builder", driver, other)
    other["serve.py"] = """
        from m import Catcher

        def serve(x):
            return Catcher()(x)
        """
    assert _reported(tmp_path / "two_builders", driver, other)


def test_classes_defined_in_a_function_are_judged_the_same_way(tmp_path):
    """A test body or a factory that defines the catcher and the code that builds it."""
    nested = """
    import math
    from mindspore import get_context, nn, PYNATIVE_MODE


    def run(x):
        class Catcher(nn.Cell):
            def construct(self, x):
                return math.sqrt(x.sum())

        class Calibrator:
            def _check(self):
                if get_context("mode") != PYNATIVE_MODE:
                    raise ValueError("PyNative only")

            def first_inputs(self, x):
                self._check()
                return Catcher()(x)

        return Calibrator().first_inputs(x)
    """
    write(tmp_path / "past_the_check", {"m.py": nested})
    assert flagged(tmp_path / "past_the_check", "m.py") == []
    unchecked = nested.replace("                self._check()\n", "")
    write(tmp_path / "no_check", {"m.py": unchecked})
    assert [line for line, _ in flagged(tmp_path / "no_check", "m.py")] == [8]

