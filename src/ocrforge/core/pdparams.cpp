// Reading .pdparams: the safe unpickler's value tree turned into named
// tensors, with the two extra entries paddle.save adds understood.
#include "ocrforge/core/pdparams.h"

#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "ocrforge/core/error.h"
#include "ocrforge/core/safe_unpickler.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "PdTensor data is little-endian as in the file; a big-endian host would need swaps");

namespace ocrforge {

namespace {

using Kind = PickleValue::Kind;

constexpr const char* kNameTable = "StructuredToParameterName@@";
constexpr const char* kUnpackInfo = "UnpackBigParamInfor@@";

struct DtypeCode {
  const char* code;
  PdDtype dtype;
};
constexpr DtypeCode kDtypeCodes[] = {
    {"f4", PdDtype::Float32}, {"f8", PdDtype::Float64}, {"f2", PdDtype::Float16},
    {"i8", PdDtype::Int64},   {"i4", PdDtype::Int32},   {"i2", PdDtype::Int16},
    {"i1", PdDtype::Int8},    {"u1", PdDtype::UInt8},   {"u2", PdDtype::UInt16},
    {"b1", PdDtype::Bool},
};

[[noreturn]] void refuse(const std::string& source, const std::string& what) {
  throw Error(source + ": " + what);
}

// Multiplies sizes, refusing overflow (a hostile shape must not wrap around).
bool checked_count(const std::vector<int64_t>& shape, int64_t* count) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return false;
  *count = n;
  return true;
}

std::string name_of(const PickleValue& key, const std::string& source) {
  // Python 2 pickles (SHORT_BINSTRING) arrive as bytes; Paddle loads them as latin1 text.
  if (key.kind == Kind::Str || key.kind == Kind::Bytes) return key.s;
  refuse(source, std::string("a state-dict key that is a ") + key.kind_name() + ", not a name");
}

// `last_use`: no other entry shares this array, so its bytes can be moved.
PdTensor to_tensor(PickleArray& arr, const std::string& name, const std::string& source,
                   bool last_use) {
  const std::string where = "entry '" + name + "'";
  if (!arr.built) refuse(source, where + " is a numpy array without its data (no BUILD)");
  PdTensor t;
  bool known = false;
  for (const auto& c : kDtypeCodes)
    if (arr.dtype == c.code) t.dtype = c.dtype, known = true;
  if (!known)
    refuse(source, where + " has numpy dtype '" + arr.dtype +
                       "'; read are float16/32/64, int8/16/32/64, uint8/16 and bool");
  if (arr.byte_order == '>' && pd_dtype_size(t.dtype) > 1)
    refuse(source, where + " is big-endian; save it little-endian (arr.astype('<" + arr.dtype + "'))");
  if (arr.fortran_order)
    refuse(source, where + " is Fortran-ordered (column-major); save np.ascontiguousarray(arr)");
  t.shape = arr.shape;
  int64_t count = 0;
  if (!checked_count(t.shape, &count) ||
      __builtin_mul_overflow(count, static_cast<int64_t>(pd_dtype_size(t.dtype)), &count) ||
      static_cast<uint64_t>(count) != arr.data.size())
    refuse(source, where + " has " + std::to_string(arr.data.size()) +
                       " data bytes, which do not match its shape and dtype");
  if (last_use)
    t.data = std::move(arr.data);
  else
    t.data = arr.data;
  return t;
}

// The array of a state-dict value: an ndarray, or Paddle 2.1's (name, ndarray).
PickleArray* array_of(const PickleValue& v) {
  if (v.kind == Kind::Array) return v.array.get();
  if (v.kind == Kind::Tuple && v.items.size() == 2 && v.items[0]->kind == Kind::Str &&
      v.items[1]->kind == Kind::Array)
    return v.items[1]->array.get();
  return nullptr;
}

const PickleValue* dict_get(const PickleValue& dict, const std::string& key) {
  for (const auto& [k, v] : dict.entries)
    if (k->kind == Kind::Str && k->s == key) return v.get();
  return nullptr;
}

// Joins the flat slices protocol 2/3 split big arrays into (Paddle's
// _unpack_saved_dict), removing the slices; the joined array goes last, as
// Paddle's loader appends it.
void join_slices(const PickleValue& info, PdParams& params, const std::string& source) {
  if (info.kind != Kind::Dict) refuse(source, std::string(kUnpackInfo) + " is not a dict");
  for (const auto& [key, value] : info.entries) {
    const std::string name = name_of(*key, source);
    const std::string where = std::string(kUnpackInfo) + " entry '" + name + "'";
    const PickleValue* shape = value->kind == Kind::Dict ? dict_get(*value, "OriginShape") : nullptr;
    const PickleValue* slices = value->kind == Kind::Dict ? dict_get(*value, "slices") : nullptr;
    if (!shape || !slices || (shape->kind != Kind::Tuple && shape->kind != Kind::List) ||
        (slices->kind != Kind::List && slices->kind != Kind::Tuple))
      refuse(source, where + " lacks its OriginShape tuple or slices list");
    PdTensor joined;
    for (const auto& d : shape->items) {
      if (d->kind != Kind::Int) refuse(source, where + " has a non-integer OriginShape");
      joined.shape.push_back(d->i);
    }
    bool first = true;
    for (const auto& s : slices->items) {
      const std::string part = name_of(*s, source);
      auto it = params.begin();
      while (it != params.end() && it->first != part) ++it;
      if (it == params.end()) refuse(source, where + " names slice '" + part + "', which is missing");
      if (!first && it->second.dtype != joined.dtype)
        refuse(source, where + " has slices of different dtypes");
      joined.dtype = it->second.dtype;
      first = false;
      joined.data += it->second.data;
      params.erase(it);
    }
    int64_t count = 0;
    if (first || !checked_count(joined.shape, &count) ||
        static_cast<uint64_t>(count) * pd_dtype_size(joined.dtype) != joined.data.size())
      refuse(source, where + ": the slices do not add up to OriginShape");
    params.emplace_back(name, std::move(joined));
  }
}

}  // namespace

const char* pd_dtype_name(PdDtype dtype) {
  switch (dtype) {
    case PdDtype::Float32: return "float32";
    case PdDtype::Float64: return "float64";
    case PdDtype::Float16: return "float16";
    case PdDtype::Int64: return "int64";
    case PdDtype::Int32: return "int32";
    case PdDtype::Int16: return "int16";
    case PdDtype::Int8: return "int8";
    case PdDtype::UInt8: return "uint8";
    case PdDtype::UInt16: return "uint16";
    case PdDtype::Bool: return "bool";
  }
  return "?";
}

int pd_dtype_size(PdDtype dtype) {
  switch (dtype) {
    case PdDtype::Float64: case PdDtype::Int64: return 8;
    case PdDtype::Float32: case PdDtype::Int32: return 4;
    case PdDtype::Float16: case PdDtype::Int16: case PdDtype::UInt16: return 2;
    case PdDtype::Int8: case PdDtype::UInt8: case PdDtype::Bool: return 1;
  }
  return 1;
}

int64_t PdTensor::element_count() const {
  int64_t n = 0;
  return checked_count(shape, &n) ? n : -1;
}

const PdTensor* find_pd_tensor(const PdParams& params, const std::string& name) {
  for (const auto& [n, t] : params)
    if (n == name) return &t;
  return nullptr;
}

namespace {

PdParams tensors_of(const PickleValue& root, const std::string& source, size_t file_bytes) {
  if (root.kind != Kind::Dict)
    refuse(source, std::string("holds a pickled ") + root.kind_name() +
                       ", not a state dict (a dict of named arrays)");
  // How many entries share each array (pickle memo references), so that the
  // last one takes its bytes instead of copying them.
  std::unordered_map<const PickleArray*, int> uses;
  size_t total = 0;
  for (const auto& entry : root.entries)
    if (const PickleArray* arr = array_of(*entry.second)) {
      ++uses[arr];
      total += arr->data.size();
    }
  // A pickle stores each array's bytes once; memo references can name one
  // array under many keys, each of which becomes a tensor of its own. More
  // tensor bytes than the file holds is such a file (paddle.save never
  // writes one): refused before anything is copied.
  if (total > file_bytes)
    refuse(source, "its entries would take " + std::to_string(total) + " bytes as tensors, more than the " +
                       std::to_string(file_bytes) +
                       " bytes of the file: one array is the value of many entries (memo references), which "
                       "paddle.save never writes");
  PdParams params;
  std::unordered_map<std::string, size_t> index;
  const PickleValue* unpack_info = nullptr;
  for (const auto& [key, value] : root.entries) {
    const std::string name = name_of(*key, source);
    if (name == kNameTable) continue;  // Paddle's internal tensor names; loaders drop it too
    if (name == kUnpackInfo) {
      unpack_info = value.get();
      continue;
    }
    PickleArray* arr = array_of(*value);
    if (!arr)
      refuse(source, "entry '" + name + "' is of type " + value->kind_name() +
                         ", not a tensor: a .pdparams holds a model's state dict (is this an "
                         "optimizer's .pdopt or a checkpoint nesting several dicts?)");
    PdTensor t = to_tensor(*arr, name, source, --uses[arr] == 0);
    auto [it, fresh] = index.emplace(name, params.size());
    if (fresh)
      params.emplace_back(name, std::move(t));
    else
      params[it->second].second = std::move(t);  // a repeated key: the last one wins, as in Python
  }
  if (unpack_info) join_slices(*unpack_info, params, source);
  return params;
}

}  // namespace

PdParams parse_pdparams(const std::string& bytes, const std::string& source) {
  return tensors_of(*read_pickle(bytes, source), source, bytes.size());
}

PdParams read_pdparams(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(path + ": is a folder; name the .pdparams file in it");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw Error(path + ": cannot open the .pdparams file (does it exist and is it readable?)");
  const std::streamoff size = in.tellg();
  std::string bytes(size > 0 ? static_cast<size_t>(size) : 0, '\0');
  in.seekg(0);
  if (size < 0 || !in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    throw Error(path + ": cannot read the .pdparams file");
  PickleRef root = read_pickle(bytes, path);
  const size_t file_bytes = bytes.size();
  std::string().swap(bytes);  // the tree holds copies: free the file before converting
  return tensors_of(*root, path, file_bytes);
}

}  // namespace ocrforge
