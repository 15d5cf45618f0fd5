"""A correct MindSpore port of a small MLP classifier: msgraphlint must report nothing here."""

from .model import TinyClassifier
from .training import evaluate, standardise, train

__all__ = ["TinyClassifier", "evaluate", "standardise", "train"]
