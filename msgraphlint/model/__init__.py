"""The program model: which functions MindSpore compiles and how each is reached (roots, the call
graph, drivers and holders, constructions), constants against variables in each of them, and what
``self.<attr>`` holds."""
