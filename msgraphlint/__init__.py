"""msgraphlint: find Python that MindSpore's GRAPH_MODE compiler rejects or silently gets wrong."""

__version__ = "0.1.0"


def register(linter) -> None:
    """pylint entry point for ``--load-plugins=msgraphlint``; pylint is imported only here."""
    from .plugin import register as register_checkers

    register_checkers(linter)
