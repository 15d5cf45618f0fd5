"""utf8-bom, fixed: saved as UTF-8 without the mark."""
import mindspore as ms
