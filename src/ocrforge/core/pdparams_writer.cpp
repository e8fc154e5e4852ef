// Writing .pdparams: the pickle Python writes for paddle.save's state-dict
// layout (docs/pdparams.md). Python memoizes every object; this writer
// memoizes only what it refers to again (globals, dtypes, names), which
// unpicklers read the same way. Protocol 4 is written without FRAME opcodes:
// frames are optional and Python reads an unframed stream.
#include <limits>
#include <map>
#include <unordered_set>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/pdparams.h"

namespace ocrforge {

namespace {

constexpr const char* kNameTable = "StructuredToParameterName@@";
constexpr const char* kUnpackInfo = "UnpackBigParamInfor@@";

const char* numpy_code(PdDtype d) {
  switch (d) {
    case PdDtype::Float32: return "f4";
    case PdDtype::Float64: return "f8";
    case PdDtype::Float16: return "f2";
    case PdDtype::Int64: return "i8";
    case PdDtype::Int32: return "i4";
    case PdDtype::Int16: return "i2";
    case PdDtype::Int8: return "i1";
    case PdDtype::UInt8: return "u1";
    case PdDtype::UInt16: return "u2";
    case PdDtype::Bool: return "b1";
  }
  return "?";
}

class PickleWriter {
 public:
  explicit PickleWriter(int protocol) : proto_(protocol) {
    op(0x80);
    out_.push_back(static_cast<char>(protocol));
  }

  std::string take() { return std::move(out_); }
  void op(uint8_t code) { out_.push_back(static_cast<char>(code)); }
  void le(uint64_t v, int n) {
    for (int k = 0; k < n; ++k) out_.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
  }

  // Memoizes the value on top of the stack; returns its memo index.
  uint32_t put() {
    const uint32_t idx = next_memo_++;
    if (proto_ >= 4) {
      op(0x94);
    } else if (idx < 256) {
      op('q'), le(idx, 1);
    } else {
      op('r'), le(idx, 4);
    }
    return idx;
  }
  void get(uint32_t idx) {
    if (idx < 256)
      op('h'), le(idx, 1);
    else
      op('j'), le(idx, 4);
  }

  void str(const std::string& s) {
    if (proto_ >= 4 && s.size() < 256) {
      op(0x8c), le(s.size(), 1);
    } else if (s.size() <= std::numeric_limits<uint32_t>::max()) {
      op('X'), le(s.size(), 4);
    } else if (proto_ >= 4) {
      op(0x8d), le(s.size(), 8);
    } else {
      throw Error("a string over 4 GiB needs pickle protocol 4");
    }
    out_ += s;
  }
  // A string written once and referred to again (names, 'latin1').
  void memo_str(const std::string& s) {
    auto it = strings_.find(s);
    if (it != strings_.end()) return get(it->second);
    str(s);
    strings_[s] = put();
  }

  void integer(int64_t v) {
    if (v >= 0 && v < 256) {
      op('K'), le(v, 1);
    } else if (v >= 0 && v < 65536) {
      op('M'), le(v, 2);
    } else if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
      op('J'), le(static_cast<uint32_t>(static_cast<int32_t>(v)), 4);
    } else {  // LONG1: the fewest little-endian two's-complement bytes
      int n = 1;
      while (n < 8 && !(v >= -(int64_t{1} << (8 * n - 1)) && v < (int64_t{1} << (8 * n - 1)))) ++n;
      op(0x8a), le(n, 1), le(static_cast<uint64_t>(v), n);
    }
  }

  void global(const std::string& module, const std::string& name) {
    const std::string key = module + "." + name;
    auto it = globals_.find(key);
    if (it != globals_.end()) return get(it->second);
    if (proto_ >= 4) {
      memo_str(module), memo_str(name), op(0x93);
    } else {
      op('c');
      out_ += (module == "builtins" ? "__builtin__" : module) + "\n" + name + "\n";
    }
    globals_[key] = put();
  }

  void bytes(const std::string& b) {
    if (proto_ >= 3) {
      if (b.size() < 256) {
        op('C'), le(b.size(), 1);
      } else if (b.size() <= std::numeric_limits<uint32_t>::max()) {
        op('B'), le(b.size(), 4);
      } else if (proto_ >= 4) {
        op(0x8e), le(b.size(), 8);
      } else {
        throw Error("an array over 4 GiB needs pickle protocol 4");
      }
      out_ += b;
      return;
    }
    // Protocol 2 has no bytes opcode: Python writes bytes() for empty ones and
    // codecs.encode(text, 'latin1') with each byte as one character otherwise.
    if (b.empty()) {
      global("builtins", "bytes"), op(')'), op('R');
      return;
    }
    global("_codecs", "encode");
    std::string text;
    text.reserve(b.size() + b.size() / 4);
    for (unsigned char c : b) {
      if (c < 0x80) {
        text.push_back(static_cast<char>(c));
      } else {
        text.push_back(static_cast<char>(0xc0 | (c >> 6)));
        text.push_back(static_cast<char>(0x80 | (c & 0x3f)));
      }
    }
    str(text);
    memo_str("latin1");
    op(0x86), op('R');
  }

  void tuple_of_ints(const std::vector<int64_t>& v) {
    if (v.empty()) return op(')');
    if (v.size() > 3) op('(');
    for (int64_t x : v) integer(x);
    op(v.size() > 3 ? 't' : static_cast<uint8_t>(0x84 + v.size()));
  }

  // numpy.dtype(code, False, True) with its state, memoized per dtype.
  void dtype(PdDtype d) {
    auto it = dtypes_.find(d);
    if (it != dtypes_.end()) return get(it->second);
    global("numpy", "dtype");
    str(numpy_code(d));
    op(0x89), op(0x88), op(0x87), op('R');
    dtypes_[d] = put();
    op('(');
    integer(3);
    memo_str(pd_dtype_size(d) == 1 ? "|" : "<");
    op('N'), op('N'), op('N');
    integer(-1), integer(-1), integer(0);
    op('t'), op('b');
  }

  // numpy.core.multiarray._reconstruct(ndarray, (0,), b'b') + BUILD state.
  void array(PdDtype d, const std::vector<int64_t>& shape, const std::string& data) {
    global("numpy.core.multiarray", "_reconstruct");
    global("numpy", "ndarray");
    integer(0), op(0x85);
    bytes("b");
    op(0x87), op('R');
    op('(');
    integer(1);
    tuple_of_ints(shape);
    dtype(d);
    op(0x89);
    bytes(data);
    op('t'), op('b');
  }

 private:
  int proto_;
  std::string out_;
  uint32_t next_memo_ = 0;
  std::map<std::string, uint32_t> strings_, globals_;
  std::map<PdDtype, uint32_t> dtypes_;
};

// A dict's entries, batched as Python does (SETITEMS every 1000 pairs).
class DictItems {
 public:
  explicit DictItems(PickleWriter& w) : w_(w) { w_.op('}'); }
  // Call before writing each key.
  void next() {
    if (count_ % 1000 == 0) {
      if (count_ > 0) w_.op('u');
      w_.op('(');
    }
    ++count_;
  }
  void close() {
    if (count_ > 0) w_.op('u');
  }

 private:
  PickleWriter& w_;
  size_t count_ = 0;
};

}  // namespace

std::string serialize_pdparams(const PdParams& params, const PdParamsWriteOptions& options) {
  const int proto = options.protocol;
  if (proto < 2 || proto > 4)
    throw Error("pickle protocol " + std::to_string(proto) + ": paddle.save writes protocols 2 to 4");
  std::unordered_set<std::string> seen;
  for (const auto& [name, t] : params) {
    if (name.empty() || name == kNameTable || name == kUnpackInfo || !seen.insert(name).second)
      throw Error("cannot write .pdparams: the tensor name '" + name +
                  "' is empty, repeated or reserved by Paddle");
    const int64_t count = t.element_count();
    if (count < 0 || static_cast<uint64_t>(count) * pd_dtype_size(t.dtype) != t.data.size())
      throw Error("cannot write .pdparams: tensor '" + name + "' has " +
                  std::to_string(t.data.size()) + " bytes, which do not match its shape and dtype");
  }

  PickleWriter w(proto);
  DictItems root(w);
  // Protocols 2 and 3 cannot hold objects over 4 GiB, so Paddle writes an
  // array of more than (2^30 - 1) / itemsize elements as flat slices
  // "<name>@@.<i>" after the other entries, listed in UnpackBigParamInfor@@.
  std::vector<const std::pair<std::string, PdTensor>*> split;
  if (options.max_slice_bytes < 8) throw Error("max_slice_bytes below one element");
  auto slice_limit = [&](const PdTensor& t) { return options.max_slice_bytes / pd_dtype_size(t.dtype); };
  for (const auto& entry : params) {
    const PdTensor& t = entry.second;
    if (proto < 4 && t.element_count() > slice_limit(t)) {
      split.push_back(&entry);
      continue;
    }
    root.next();
    w.memo_str(entry.first);
    w.array(t.dtype, t.shape, t.data);
  }
  // Paddle's table of internal tensor names; ocrforge's tensors have none, so
  // each is named by its key (Paddle's loader only uses them as labels).
  root.next();
  w.str(kNameTable);
  DictItems table(w);
  for (const auto& entry : params) {
    table.next();
    w.memo_str(entry.first), w.memo_str(entry.first);
  }
  table.close();
  if (!split.empty()) {
    for (const auto* entry : split) {
      const PdTensor& t = entry->second;
      const int64_t limit = slice_limit(t), count = t.element_count();
      const size_t item = pd_dtype_size(t.dtype);
      for (int64_t i = 0; i * limit < count; ++i) {
        const int64_t n = std::min(limit, count - i * limit);
        root.next();
        w.memo_str(entry->first + "@@." + std::to_string(i));
        w.array(t.dtype, {n}, t.data.substr(i * limit * item, n * item));
      }
    }
    root.next();
    w.str(kUnpackInfo);
    DictItems info(w);
    for (const auto* entry : split) {
      const PdTensor& t = entry->second;
      info.next();
      w.memo_str(entry->first);
      DictItems parts(w);
      parts.next();
      w.str("OriginShape");
      w.tuple_of_ints(t.shape);
      parts.next();
      w.str("slices");
      w.op(']'), w.op('(');
      for (int64_t i = 0; i * slice_limit(t) < t.element_count(); ++i)
        w.memo_str(entry->first + "@@." + std::to_string(i));
      w.op('e');
      parts.close();
    }
    info.close();
  }
  root.close();
  w.op('.');
  return w.take();
}

void write_pdparams(const std::string& path, const PdParams& params,
                    const PdParamsWriteOptions& options) {
  std::string bytes;
  try {
    bytes = serialize_pdparams(params, options);
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  write_file_atomic(path, bytes);
}

}  // namespace ocrforge
