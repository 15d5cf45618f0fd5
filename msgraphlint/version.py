"""The version, in a module of its own: the package's __init__ loads the pylint plugin, and
modules that only need the version should not depend on that."""

__version__ = "0.1.0"
