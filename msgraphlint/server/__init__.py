"""``msgraphlint server``: a language server over stdio (docs/editors.md).

``session`` holds what the server knows (settings, buffers, one engine per project) and needs only
the standard library and the engine; ``lsp`` speaks the protocol through pygls and lsprotocol,
which the ``server`` extra installs.
"""
