"""A classifier ported from PyTorch the way a first port looks (see model.py)."""
