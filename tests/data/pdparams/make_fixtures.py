"""Writes the .pdparams fixtures of tests/core/pdparams_test.cpp with Python's
own pickle and numpy, in the layout paddle.save writes for a state dict
(Paddle's python/paddle/framework/io.py and io_utils.py). Run once, from this
folder, with Debian's python3 and python3-numpy:  /usr/bin/python3 make_fixtures.py
The tests read the files; they do not need Python."""
import collections
import os
import pickle
import sys
import types

import numpy as np


def tensors():
    # The same values are rebuilt in pdparams_test.cpp (expected_tensors()).
    return {
        "backbone.conv1._conv.weight": (np.arange(24, dtype=np.float32) * 0.25 - 3).reshape(2, 3, 2, 2),
        "backbone.conv1._batch_norm._mean": np.arange(2, dtype=np.float64) + 0.5,
        "head.fc.weight": (np.arange(6, dtype=np.float16) / 4).reshape(3, 2),
        "head.steps": np.array([7, -8, 2**40], dtype=np.int64),
        "head.ids": np.array([[1, -2], [3, -4]], dtype=np.int32),
        "head.lut": np.arange(5, dtype=np.uint8) * 50,
        "head.mask": np.array([True, False, True]),
        "head.bf16_bits": np.array([0x3F80, 0xC000], dtype=np.uint16),
        "scalar": np.array(3.5, dtype=np.float32),
        "empty": np.zeros((0, 4), dtype=np.float32),
    }


def state_dict_layout(arrays):
    # _build_saved_state_dict: name -> ndarray, plus Paddle's name table.
    saved = dict(arrays)
    saved["StructuredToParameterName@@"] = {k: "tensor_%d.w_0" % i for i, k in enumerate(arrays)}
    return saved


def dump(name, obj, protocol, pickler=pickle.Pickler):
    with open(name, "wb") as f:
        pickler(f, protocol).dump(obj)


for proto in (2, 3, 4):
    dump("state_dict_p%d.pdparams" % proto, state_dict_layout(tensors()), proto)


# Paddle 2.1 pickled each Tensor through a dispatch table as
# (tuple, ((tensor.name, ndarray),)).
class FakeTensor:
    def __init__(self, name, data):
        self.name, self.data = name, data


def reduce_tensor(t):
    return (tuple, ((t.name, t.data),))


class TensorPickler(pickle.Pickler):
    dispatch_table = {FakeTensor: reduce_tensor}


dump("tensor_tuples_p4.pdparams",
     {k: FakeTensor("t_%d" % i, v) for i, (k, v) in enumerate(tensors().items())}, 4, TensorPickler)
dump("ordered_dict_p2.pdparams", collections.OrderedDict(tensors()), 2)

# _unpack_saved_dict with protocol 2/3 splits arrays over (2**30 - 1) / itemsize
# elements into flat slices; the same structure at a small scale.
big = np.arange(10, dtype=np.float32).reshape(2, 5)
split = {"small": np.array([1, 2], dtype=np.int64),
         "big@@.0": big.flatten()[0:4], "big@@.1": big.flatten()[4:8], "big@@.2": big.flatten()[8:10]}
split["StructuredToParameterName@@"] = {"small": "s_0", "big": "b_0"}
split["UnpackBigParamInfor@@"] = {"big": {"OriginShape": big.shape, "slices": ["big@@.0", "big@@.1", "big@@.2"]}}
dump("unpack_big_p2.pdparams", split, 2)

# numpy 2 names its rebuild function numpy._core.multiarray._reconstruct.
core = types.ModuleType("numpy._core")
multiarray = types.ModuleType("numpy._core.multiarray")


def _reconstruct(*args):
    return np.core.multiarray._reconstruct(*args)


_reconstruct.__module__, _reconstruct.__qualname__ = "numpy._core.multiarray", "_reconstruct"
multiarray._reconstruct = _reconstruct
core.multiarray = multiarray
sys.modules["numpy._core"], sys.modules["numpy._core.multiarray"] = core, multiarray


class Numpy2Pickler(pickle.Pickler):
    def reducer_override(self, obj):
        if isinstance(obj, np.ndarray):
            _, args, state = obj.__reduce__()
            return (_reconstruct, args, state)
        return NotImplemented


dump("numpy2_names_p4.pdparams", state_dict_layout(tensors()), 4, Numpy2Pickler)


# Hostile: the classic code-execution pickle (GLOBAL os.system + REDUCE). A
# reader that called it would create the marker file the test checks for.
class Payload:
    def __reduce__(self):
        return (os.system, ("touch /tmp/ocrforge_pdparams_payload_ran",))


dump("hostile_os_system_p2.pdparams", {"w": Payload()}, 2)
dump("hostile_os_system_p4.pdparams", {"w": Payload()}, 4)
