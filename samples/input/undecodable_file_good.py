# -*- coding: gbk -*-
"""undecodable-file, fixed: the GBK file declares its encoding."""
import mindspore as ms

# 注释
MODEL_NAME = "模型"
