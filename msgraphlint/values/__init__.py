"""What each value is: the interpreter of compile-time values (constants, tensors with their
dtype and shape, objects whose attributes are known) and the kinds every family asks about
(``kinds``: is this a tensor, a literal, None, an input)."""
