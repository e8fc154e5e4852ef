// The opcodes and globals accepted here are those Python's pickle writes for
// paddle.save's state-dict layout with protocols 2-4 (docs/pdparams.md lists
// them). Every length is checked against the bytes that remain before
// anything is allocated, and every value is plain data: REDUCE and BUILD are
// interpreted for the allow-listed globals only, never dispatched.
#include "ocrforge/core/safe_unpickler.h"

#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "ocrforge/core/error.h"
#include "ocrforge/core/pickle_opcodes.h"

namespace ocrforge {

const char* PickleValue::kind_name() const {
  switch (kind) {
    case Kind::None: return "None";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Str: return "str";
    case Kind::Bytes: return "bytes";
    case Kind::Tuple: return "tuple";
    case Kind::List: return "list";
    case Kind::Dict: return "dict";
    case Kind::Global: return "global";
    case Kind::Dtype: return "numpy.dtype";
    case Kind::Array: return "numpy.ndarray";
  }
  return "?";
}

namespace {

using Kind = PickleValue::Kind;

// The globals the layout names; nothing else may appear in a GLOBAL.
bool allowed_global(const std::string& name) {
  static const char* const kAllowed[] = {
      "numpy.core.multiarray._reconstruct",  // numpy 1.x
      "numpy._core.multiarray._reconstruct",  // numpy 2.x
      "numpy.ndarray",
      "numpy.dtype",
      "builtins.tuple", "__builtin__.tuple",  // paddle 2.1's (name, array) tensors
      "builtins.bytes", "__builtin__.bytes",  // protocol 2's empty bytes
      "_codecs.encode",                       // protocol 2's bytes
      "collections.OrderedDict",
  };
  for (const char* a : kAllowed)
    if (name == a) return true;
  return false;
}

bool is_reconstruct(const std::string& name) {
  return name == "numpy.core.multiarray._reconstruct" ||
         name == "numpy._core.multiarray._reconstruct";
}

// Decodes UTF-8, handing each code point to `sink` (which returns false to
// stop); false on a malformed or cut sequence or when the sink stops.
template <typename Sink>
bool utf8_each(const std::string& s, Sink&& sink) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {  // the common case, without the multi-byte logic
      if (!sink(c)) return false;
      ++i;
      continue;
    }
    size_t n = 0;
    uint32_t cp = c;
    if (c >= 0x80) {
      if ((c >> 5) == 6) {
        n = 1, cp = c & 0x1f;
      } else if ((c >> 4) == 14) {
        n = 2, cp = c & 0x0f;
      } else if ((c >> 3) == 30) {
        n = 3, cp = c & 0x07;
      } else {
        return false;
      }
    }
    if (s.size() - i - 1 < n) return false;
    for (size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 2) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (!sink(cp)) return false;
    i += n + 1;
  }
  return true;
}

// Python 2 protocol's bytes: text whose characters are all below 256, one
// byte each (Python writes bytes b as codecs.encode(b.decode('latin1'), 'latin1')).
bool latin1_bytes(const std::string& utf8, std::string* out) {
  out->resize(utf8.size());
  size_t j = 0;
  for (size_t i = 0; i < utf8.size(); ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      (*out)[j++] = static_cast<char>(c);
    } else if ((c == 0xc2 || c == 0xc3) && i + 1 < utf8.size() &&
               (static_cast<unsigned char>(utf8[i + 1]) >> 6) == 2) {
      (*out)[j++] = static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(utf8[++i]) & 0x3f));
    } else {
      return false;
    }
  }
  out->resize(j);
  return true;
}

class Unpickler {
 public:
  Unpickler(const std::string& bytes, const std::string& source, const PickleLimits& limits)
      : buf_(bytes), source_(source), limits_(limits) {}

  PickleRef run() {
    // Protocols 2-4 open with PROTO; anything else (text, a zip, an
    // .onnx) is told as "not a pickle" rather than by its first opcode.
    if (buf_.empty() || static_cast<uint8_t>(buf_[0]) != 0x80) {
      op_at_ = 0;
      op_name_ = "start of file";
      fail("not a pickle of protocol 2 or later (as paddle.save writes): it starts with " + describe_start());
    }
    while (true) {
      if (pos_ >= buf_.size()) {
        op_at_ = pos_;
        op_name_ = "end of file";
        fail("the pickle ends without STOP: the file is truncated (copy or download it again)");
      }
      op_at_ = pos_;
      const uint8_t op = static_cast<uint8_t>(buf_[pos_++]);
      const char* name = opcode_name(op);
      op_name_ = name ? name : "?";
      if (op == '.') return stop();
      step(op, name);
    }
  }

 private:
  // The first bytes, printable ones as text, for "it starts with ...".
  std::string describe_start() const {
    if (buf_.empty()) return "nothing (an empty file)";
    std::string shown;
    for (size_t i = 0; i < buf_.size() && i < 16; ++i) {
      const unsigned char c = static_cast<unsigned char>(buf_[i]);
      if (c >= 0x20 && c < 0x7f) {
        shown += static_cast<char>(c);
      } else {
        char hex[8];
        std::snprintf(hex, sizeof(hex), "\\x%02x", c);
        shown += hex;
      }
    }
    return "\"" + shown + "\"";
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(source_ + ": refused at byte " + std::to_string(op_at_) + " (" + op_name_ +
                "): " + what);
  }

  // Fails unless `n` more bytes remain, before anything of size n is allocated.
  void need(uint64_t n) const {
    const uint64_t left = buf_.size() - pos_;
    if (n > left)
      fail("needs " + std::to_string(n) + " bytes but only " + std::to_string(left) +
           " remain: the file is truncated or a length in it is corrupt");
  }
  uint64_t le(int n) {
    need(n);
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(buf_[pos_ + k]);
    pos_ += n;
    return v;
  }
  std::string take(uint64_t n) {
    need(n);
    std::string s = buf_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::string line() {
    const size_t end = buf_.find('\n', pos_);
    if (end == std::string::npos || end - pos_ > 256)
      fail("a GLOBAL name without its newline within 256 bytes: the file is truncated or damaged");
    std::string s = buf_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return s;
  }

  static PickleRef make(Kind k) {
    auto v = std::make_shared<PickleValue>();
    v->kind = k;
    return v;
  }
  PickleRef make_str(Kind k, std::string s) {
    auto v = make(k);
    if (k == Kind::Str) {
      if (!utf8_each(s, [](uint32_t) { return true; })) fail("a string that is not valid UTF-8");
    }
    v->s = std::move(s);
    return v;
  }
  PickleRef make_int(int64_t i) {
    auto v = make(Kind::Int);
    v->i = i;
    return v;
  }

  void push(PickleRef v) { stack_.push_back(std::move(v)); }
  PickleRef pop() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("the stack is empty");
    PickleRef v = std::move(stack_.back());
    stack_.pop_back();
    return v;
  }
  PickleRef& top() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("the stack is empty");
    return stack_.back();
  }
  std::vector<PickleRef> pop_mark() {
    if (marks_.empty()) fail("no MARK to close");
    const size_t m = marks_.back();
    marks_.pop_back();
    std::vector<PickleRef> items(std::make_move_iterator(stack_.begin() + m),
                                 std::make_move_iterator(stack_.end()));
    stack_.resize(m);
    return items;
  }

  // Records that `child` now sits inside `parent`; refuses trees too deep.
  void nest(PickleValue& parent, const PickleValue& child) {
    if (child.depth + 1 > parent.depth) parent.depth = child.depth + 1;
    if (parent.depth > limits_.max_depth)
      fail("containers nested deeper than " + std::to_string(limits_.max_depth) +
           " levels (a state dict needs a handful)");
  }
  PickleRef make_tuple(std::vector<PickleRef> items) {
    auto t = make(Kind::Tuple);
    for (const auto& it : items) nest(*t, *it);
    t->items = std::move(items);
    return t;
  }
  void set_items(PickleValue& dict, std::vector<PickleRef>& kv) {
    if (dict.kind != Kind::Dict)
      fail(std::string("SETITEM(S) on a ") + dict.kind_name() + ", not a dict");
    if (kv.size() % 2 != 0) fail("an odd number of keys and values");
    for (size_t k = 0; k < kv.size(); k += 2) {
      nest(dict, *kv[k]);
      nest(dict, *kv[k + 1]);
      dict.entries.emplace_back(std::move(kv[k]), std::move(kv[k + 1]));
    }
  }
  void append_items(PickleValue& list, std::vector<PickleRef>& items) {
    if (list.kind != Kind::List)
      fail(std::string("APPEND(S) on a ") + list.kind_name() + ", not a list");
    for (auto& it : items) {
      nest(list, *it);
      list.items.push_back(std::move(it));
    }
  }

  void memo_put(uint64_t key) { memo_[key] = top(); }
  void memo_get(uint64_t key) {
    auto it = memo_.find(key);
    if (it == memo_.end()) fail("memo entry " + std::to_string(key) + " was never stored");
    // Lists and dicts are mutable: a second reference could make a cycle or
    // grow a finished subtree, and the layout never shares them.
    if (it->second->kind == Kind::List || it->second->kind == Kind::Dict)
      fail("a second reference to a list or dict, which a .pdparams never holds");
    push(it->second);
  }

  void push_global(const std::string& module, const std::string& name) {
    const std::string full = module + "." + name;
    if (!allowed_global(full))
      fail("global '" + full +
           "' is not allowed: a .pdparams file holds numpy arrays in dicts and tuples only, "
           "and nothing in a file is ever called (is it a .pdparams from paddle.save?)");
    auto g = make(Kind::Global);
    g->s = full;
    push(g);
  }

  void step(uint8_t op, const char* name) {
    switch (op) {
      case 0x80: {
        const uint64_t v = le(1);
        if (v < 2 || v > 4)
          fail("pickle protocol " + std::to_string(v) + "; paddle.save writes protocols 2 to 4");
        return;
      }
      case 0x95: need(le(8)); return;  // frames only group opcodes; lengths are checked per opcode
      case '(':
        if (static_cast<int>(marks_.size()) >= limits_.max_depth)
          fail("MARKs nested deeper than " + std::to_string(limits_.max_depth) + " levels");
        marks_.push_back(stack_.size());
        return;
      case '}': push(make(Kind::Dict)); return;
      case ']': push(make(Kind::List)); return;
      case ')': push(make(Kind::Tuple)); return;
      case 't': push(make_tuple(pop_mark())); return;
      case 0x85: case 0x86: case 0x87: {
        const int n = op - 0x84;
        std::vector<PickleRef> items(n);
        for (int k = n - 1; k >= 0; --k) items[k] = pop();
        push(make_tuple(std::move(items)));
        return;
      }
      case 'd': {
        auto kv = pop_mark();
        auto d = make(Kind::Dict);
        set_items(*d, kv);
        push(d);
        return;
      }
      case 'l': {
        auto items = pop_mark();
        auto l = make(Kind::List);
        append_items(*l, items);
        push(l);
        return;
      }
      case 's': {
        std::vector<PickleRef> kv(2);
        kv[1] = pop();
        kv[0] = pop();
        set_items(*top(), kv);
        return;
      }
      case 'u': {
        auto kv = pop_mark();
        set_items(*top(), kv);
        return;
      }
      case 'a': {
        std::vector<PickleRef> items{pop()};
        append_items(*top(), items);
        return;
      }
      case 'e': {
        auto items = pop_mark();
        append_items(*top(), items);
        return;
      }
      case 'q': memo_put(le(1)); return;
      case 'r': memo_put(le(4)); return;
      case 0x94: memo_put(memo_.size()); return;
      case 'h': memo_get(le(1)); return;
      case 'j': memo_get(le(4)); return;
      case 'X': push(make_str(Kind::Str, take(le(4)))); return;
      case 0x8c: push(make_str(Kind::Str, take(le(1)))); return;
      case 0x8d: push(make_str(Kind::Str, take(le(8)))); return;
      case 'B': push(make_str(Kind::Bytes, take(le(4)))); return;
      case 'C': push(make_str(Kind::Bytes, take(le(1)))); return;
      case 0x8e: push(make_str(Kind::Bytes, take(le(8)))); return;
      case 'U': push(make_str(Kind::Bytes, take(le(1)))); return;  // Python 2's str
      case 'T': {
        const uint64_t n = le(4);
        if (n & 0x80000000u) fail("a negative BINSTRING length");
        push(make_str(Kind::Bytes, take(n)));
        return;
      }
      case 'J': push(make_int(static_cast<int32_t>(static_cast<uint32_t>(le(4))))); return;
      case 'K': push(make_int(static_cast<int64_t>(le(1)))); return;
      case 'M': push(make_int(static_cast<int64_t>(le(2)))); return;
      case 0x8a: {
        const uint64_t n = le(1);
        if (n > 8) fail("an integer of " + std::to_string(n) + " bytes (at most 8 are read)");
        uint64_t v = n == 0 ? 0 : le(static_cast<int>(n));
        if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);  // sign
        push(make_int(static_cast<int64_t>(v)));
        return;
      }
      case 'G': {
        need(8);
        uint64_t bits = 0;
        for (int k = 0; k < 8; ++k) bits = (bits << 8) | static_cast<unsigned char>(buf_[pos_ + k]);
        pos_ += 8;
        auto v = make(Kind::Float);
        std::memcpy(&v->f, &bits, sizeof bits);
        push(v);
        return;
      }
      case 'N': push(make(Kind::None)); return;
      case 0x88: case 0x89: {
        auto v = make(Kind::Bool);
        v->b = op == 0x88;
        push(v);
        return;
      }
      case 'c': {
        const std::string module = line();
        const std::string global = line();
        push_global(module, global);
        return;
      }
      case 0x93: {
        const PickleRef global = pop();
        const PickleRef module = pop();
        if (module->kind != Kind::Str || global->kind != Kind::Str)
          fail("STACK_GLOBAL on a non-string module or name");
        push_global(module->s, global->s);
        return;
      }
      case 'R': {
        const PickleRef args = pop();
        const PickleRef callable = pop();
        push(reduce(*callable, *args));
        return;
      }
      case 'b': {
        const PickleRef state = pop();
        build(*top(), *state);
        return;
      }
      default:
        if (name)
          fail(std::string("opcode ") + name + " is outside the .pdparams layout");
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        fail(std::string("unknown opcode ") + hex + ": not a pickle, or a damaged one");
    }
  }

  // The allow-listed callables, interpreted (never called).
  PickleRef reduce(const PickleValue& callable, const PickleValue& args) {
    if (callable.kind != Kind::Global)
      fail(std::string("REDUCE on a ") + callable.kind_name() + ", not an allowed global");
    if (args.kind != Kind::Tuple) fail("REDUCE arguments that are not a tuple");
    const std::string& g = callable.s;
    const auto& a = args.items;
    if (is_reconstruct(g)) {
      if (a.size() != 3 || a[0]->kind != Kind::Global || a[0]->s != "numpy.ndarray")
        fail("numpy _reconstruct of something other than numpy.ndarray");
      auto v = make(Kind::Array);
      v->array = std::make_shared<PickleArray>();
      return v;
    }
    if (g == "numpy.dtype") {
      if (a.empty() || a[0]->kind != Kind::Str || a[0]->s.empty() || a[0]->s.size() > 8)
        fail("numpy.dtype without a short type code");
      auto v = make(Kind::Dtype);
      v->s = a[0]->s;
      return v;
    }
    if (g == "builtins.tuple" || g == "__builtin__.tuple") {
      if (a.size() != 1 || (a[0]->kind != Kind::Tuple && a[0]->kind != Kind::List))
        fail("tuple() of something other than one tuple or list");
      return make_tuple(a[0]->items);
    }
    if (g == "builtins.bytes" || g == "__builtin__.bytes") {
      if (!a.empty()) fail("bytes() with arguments");
      return make(Kind::Bytes);
    }
    if (g == "_codecs.encode") {
      if (a.size() != 2 || a[0]->kind != Kind::Str || a[1]->kind != Kind::Str ||
          (a[1]->s != "latin1" && a[1]->s != "latin-1"))
        fail("codecs.encode other than (text, 'latin1')");
      auto v = make(Kind::Bytes);
      if (!latin1_bytes(a[0]->s, &v->s)) fail("codecs.encode text with a character outside latin1");
      return v;
    }
    if (g == "collections.OrderedDict") {
      if (!a.empty()) fail("OrderedDict() with arguments");
      return make(Kind::Dict);
    }
    fail("REDUCE on '" + g + "', which is not callable in this layout");
  }

  void build(PickleValue& target, const PickleValue& state) {
    if (target.kind == Kind::Dtype) return build_dtype(target, state);
    if (target.kind == Kind::Array) return build_array(*target.array, state);
    fail(std::string("BUILD on a ") + target.kind_name() + " (only numpy arrays and dtypes)");
  }

  void build_dtype(PickleValue& dt, const PickleValue& state) {
    if (dt.dtype_built) fail("a second BUILD of the same dtype");
    const auto& s = state.items;
    if (state.kind != Kind::Tuple || s.size() < 8 || s[0]->kind != Kind::Int || s[0]->i < 3 ||
        s[1]->kind != Kind::Str || s[1]->s.size() != 1)
      fail("a numpy dtype state other than (version >= 3, byte order, ...)");
    for (int k = 2; k <= 4; ++k)
      if (s[k]->kind != Kind::None)
        fail("a structured or sub-array numpy dtype (only plain numeric dtypes are read)");
    const char order = s[1]->s[0];
    if (std::strchr("<>|=", order) == nullptr) fail("an unknown byte order in a numpy dtype");
    dt.dtype_byte_order = order;
    dt.dtype_built = true;
  }

  void build_array(PickleArray& arr, const PickleValue& state) {
    if (arr.built) fail("a second BUILD of the same numpy array");
    // numpy writes (version, shape, dtype, is_fortran, raw bytes); older ones omit the version.
    auto s = state.items;
    if (state.kind == Kind::Tuple && s.size() == 5 && s[0]->kind == Kind::Int) s.erase(s.begin());
    if (state.kind != Kind::Tuple || s.size() != 4 || s[0]->kind != Kind::Tuple ||
        s[1]->kind != Kind::Dtype || s[2]->kind != Kind::Bool)
      fail("a numpy array state other than (version, shape, dtype, fortran flag, bytes)");
    if (!s[1]->dtype_built) fail("a numpy array whose dtype has no state");
    if (s[3]->kind != Kind::Bytes)
      fail(std::string("a numpy array whose data is a ") + s[3]->kind_name() +
           " (object arrays are not read; only raw numeric data)");
    for (const auto& d : s[0]->items) {
      if (d->kind != Kind::Int || d->i < 0) fail("a numpy array shape with a non-integer or negative size");
      arr.shape.push_back(d->i);
    }
    arr.dtype = s[1]->s;
    arr.byte_order = s[1]->dtype_byte_order;
    arr.fortran_order = s[2]->b;
    // The bytes move into the array rather than being copied (arrays can be
    // most of the file); Python never shares one bytes object between arrays.
    if (s[3]->taken) fail("the same bytes object is the data of two numpy arrays");
    arr.data = std::move(s[3]->s);
    s[3]->taken = true;
    arr.built = true;
  }

  PickleRef stop() {
    if (!marks_.empty()) fail("STOP with a MARK still open");
    if (stack_.size() != 1)
      fail("STOP with " + std::to_string(stack_.size()) + " values on the stack (expected one)");
    return stack_.back();
  }

  const std::string& buf_;
  const std::string source_;
  const PickleLimits limits_;
  size_t pos_ = 0;
  size_t op_at_ = 0;
  const char* op_name_ = "";
  std::vector<PickleRef> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, PickleRef> memo_;
};

}  // namespace

PickleRef read_pickle(const std::string& bytes, const std::string& source,
                      const PickleLimits& limits) {
  return Unpickler(bytes, source, limits).run();
}

}  // namespace ocrforge
