"""undecodable-file: saved as GBK without a coding cookie."""
import mindspore as ms

MODEL_NAME = "Ä£ÐÍ"  # expect: undecodable-file
