"""msgraphlint: find Python that MindSpore's GRAPH_MODE compiler rejects or silently gets wrong."""

from .version import __version__

__all__ = ["__version__", "register"]


def register(linter) -> None:
    """pylint entry point for ``--load-plugins=msgraphlint``; pylint is imported only here."""
    from .plugin import register as register_checkers

    register_checkers(linter)
