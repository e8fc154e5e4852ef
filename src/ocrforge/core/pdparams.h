// PaddlePaddle's .pdparams files (what `paddle.save(layer.state_dict(), p)`
// writes): read into named tensors and written back in the same layout, so
// weights move between PaddleOCR and ocrforge. Torch-free: the reading binary
// can use it. The layout and the safety rules are in docs/pdparams.md.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ocrforge {

enum class PdDtype { Float32, Float64, Float16, Int64, Int32, Int16, Int8, UInt8, UInt16, Bool };

// numpy's name of the dtype ("float32", "uint16" - Paddle's bfloat16 arrives as uint16).
const char* pd_dtype_name(PdDtype dtype);
int pd_dtype_size(PdDtype dtype);

// One array: little-endian elements in C (row-major) order.
struct PdTensor {
  PdDtype dtype = PdDtype::Float32;
  std::vector<int64_t> shape;
  std::string data;  // element_count() * pd_dtype_size(dtype) bytes

  int64_t element_count() const;
};

// Name -> tensor in the file's order (a state dict's order is the network's).
using PdParams = std::vector<std::pair<std::string, PdTensor>>;

// The tensor named `name`, or nullptr.
const PdTensor* find_pd_tensor(const PdParams& params, const std::string& name);

// Reads a .pdparams file: a pickled dict of name -> numpy array, or of
// name -> (tensor name, array) as Paddle 2.1 wrote tensors. The entry
// "StructuredToParameterName@@" (Paddle's internal names) is skipped, and
// arrays that protocol 2 split into "<name>@@.<i>" slices under
// "UnpackBigParamInfor@@" are joined again. Throws Error naming the file for
// anything else: not a pickle, a refused opcode or global (nothing in the
// file is ever executed), a non-tensor entry, an unsupported dtype,
// big-endian or Fortran-ordered arrays, sizes that do not match the data.
PdParams read_pdparams(const std::string& path);

// The same, from bytes already in memory; `source` names them in errors.
PdParams parse_pdparams(const std::string& bytes, const std::string& source);

struct PdParamsWriteOptions {
  int protocol = 4;  // paddle.save's default; 2 and 3 also load in Paddle
  // Protocols 2 and 3: arrays of more bytes than this are written as slices,
  // as Paddle does at its limit (2^30 - 1); tests lower it to stay small.
  int64_t max_slice_bytes = (int64_t{1} << 30) - 1;
};

// Writes `params` as paddle.save writes a state dict (numpy arrays, the
// "StructuredToParameterName@@" table, protocol 2/3's split of arrays over
// 1 GiB), atomically (a temp file renamed over `path`). Throws Error on a
// protocol outside 2-4, a duplicate or empty name, a tensor whose data size
// does not match its shape, or a failed write.
void write_pdparams(const std::string& path, const PdParams& params,
                    const PdParamsWriteOptions& options = PdParamsWriteOptions{});

// The bytes write_pdparams would write.
std::string serialize_pdparams(const PdParams& params,
                               const PdParamsWriteOptions& options = PdParamsWriteOptions{});

}  // namespace ocrforge
