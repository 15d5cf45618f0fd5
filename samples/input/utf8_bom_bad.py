"""utf8-bom: saved by an editor that adds a byte-order mark."""  # expect: utf8-bom
import mindspore as ms
