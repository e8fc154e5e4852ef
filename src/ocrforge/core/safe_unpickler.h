// A strict, safe reader of Python pickles of numpy arrays in containers:
// the layout `paddle.save` writes for a state dict (see docs/pdparams.md).
// It is a parser that builds a value tree: it never calls anything. It knows
// only the opcodes of pickle protocols 2-4 that this layout uses and a short
// allow-list of globals (numpy's array rebuild and dtype, tuple, bytes,
// OrderedDict, codecs.encode for protocol 2's bytes); anything else - another
// global such as os.system, an unknown opcode, a truncated file, a length past
// the end of the file, nesting past the limit - is an Error naming the
// source, the byte offset and what was found.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ocrforge {

struct PickleValue;
using PickleRef = std::shared_ptr<PickleValue>;

// A numpy array as its pickle describes it (after REDUCE + BUILD).
struct PickleArray {
  std::string dtype;             // numpy's short code: "f4", "i8", "b1", ...
  char byte_order = '|';         // '<', '>', '|' (not applicable) or '='
  std::vector<int64_t> shape;
  bool fortran_order = false;
  std::string data;              // the raw element bytes
  bool built = false;            // BUILD has set the fields above
};

struct PickleValue {
  enum class Kind { None, Bool, Int, Float, Str, Bytes, Tuple, List, Dict, Global, Dtype, Array };
  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;                          // Str (UTF-8), Bytes, Global "module.name", Dtype code
  std::vector<PickleRef> items;           // Tuple, List
  std::vector<std::pair<PickleRef, PickleRef>> entries;  // Dict, in insertion order
  char dtype_byte_order = '|';            // Dtype after BUILD
  bool dtype_built = false;
  std::shared_ptr<PickleArray> array;     // Array
  int depth = 0;                          // container nesting below this value
  bool taken = false;                     // Bytes moved into an array (not copied)

  const char* kind_name() const;
};

struct PickleLimits {
  int max_depth = 64;  // containers (and MARKs) nested deeper are refused
};

// Parses `bytes` (a whole pickle) into a value tree. `source` names the file
// in error messages. Throws Error on anything outside the layout.
PickleRef read_pickle(const std::string& bytes, const std::string& source,
                      const PickleLimits& limits = PickleLimits{});

}  // namespace ocrforge
