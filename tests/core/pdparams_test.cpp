// Tests for .pdparams reading and writing (ocrforge/core/pdparams.h): files
// Python's pickle wrote in paddle.save's layout (tests/data/pdparams, made by
// make_fixtures.py there) read to the right tensors; what ocrforge writes
// reads back equal with protocols 2, 3 and 4, and loads in Python when
// python3 with numpy is installed; a tensor over 100 MB round-trips.
#include "ocrforge/core/pdparams.h"
#include "ocrforge/core/safe_unpickler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "ocrforge/core/error.h"
#include "ocrforge/core/sha256.h"
#include "contains_assertion.h"
#include "test_support.h"

using ocrforge::Error;
using ocrforge::PdDtype;
using ocrforge::PdParams;
using ocrforge::PdTensor;
using ocrforge::read_pdparams;
using ocrforge::write_pdparams;
using ocrforge::test::message_of;
namespace fs = std::filesystem;

namespace {

using ocrforge::test::contains;

std::string fixture(const std::string& name) {
  return ocrforge::test::data_dir() + "/pdparams/" + name;
}

template <typename T>
PdTensor tensor(PdDtype dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
  PdTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

// IEEE half bits of small exact values (k / 4 for k < 8).
uint16_t half_of_quarter(int k) {
  if (k == 0) return 0;
  const float v = k / 4.0f;
  int e = static_cast<int>(std::floor(std::log2(v)));
  const int mant = static_cast<int>((v / std::ldexp(1.0f, e) - 1.0f) * 1024);
  return static_cast<uint16_t>(((e + 15) << 10) | mant);
}

// The tensors make_fixtures.py writes, rebuilt from the same formulas.
PdParams expected_tensors() {
  PdParams p;
  std::vector<float> conv(24);
  for (int k = 0; k < 24; ++k) conv[k] = k * 0.25f - 3;
  p.emplace_back("backbone.conv1._conv.weight", tensor(PdDtype::Float32, {2, 3, 2, 2}, conv));
  p.emplace_back("backbone.conv1._batch_norm._mean", tensor<double>(PdDtype::Float64, {2}, {0.5, 1.5}));
  std::vector<uint16_t> half;
  for (int k = 0; k < 6; ++k) half.push_back(half_of_quarter(k));
  p.emplace_back("head.fc.weight", tensor(PdDtype::Float16, {3, 2}, half));
  p.emplace_back("head.steps", tensor<int64_t>(PdDtype::Int64, {3}, {7, -8, int64_t{1} << 40}));
  p.emplace_back("head.ids", tensor<int32_t>(PdDtype::Int32, {2, 2}, {1, -2, 3, -4}));
  p.emplace_back("head.lut", tensor<uint8_t>(PdDtype::UInt8, {5}, {0, 50, 100, 150, 200}));
  p.emplace_back("head.mask", tensor<uint8_t>(PdDtype::Bool, {3}, {1, 0, 1}));
  p.emplace_back("head.bf16_bits", tensor<uint16_t>(PdDtype::UInt16, {2}, {0x3f80, 0xc000}));
  p.emplace_back("scalar", tensor<float>(PdDtype::Float32, {}, {3.5f}));
  p.emplace_back("empty", tensor<float>(PdDtype::Float32, {0, 4}, {}));
  return p;
}

void expect_equal(const PdParams& want, const PdParams& got, const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(want[k].first, got[k].first) << what;
    EXPECT_EQ(want[k].second.dtype, got[k].second.dtype) << what << " " << want[k].first;
    EXPECT_EQ(want[k].second.shape, got[k].second.shape) << what << " " << want[k].first;
    EXPECT_TRUE(want[k].second.data == got[k].second.data) << what << " " << want[k].first;
  }
}

}  // namespace

TEST(Pdparams, ReadsPythonPicklesOfPaddleLayoutProtocols234) {
  for (const char* name : {"state_dict_p2.pdparams", "state_dict_p3.pdparams", "state_dict_p4.pdparams"})
    expect_equal(expected_tensors(), read_pdparams(fixture(name)), name);
}

TEST(Pdparams, ReadsTensorTuplesOrderedDictAndNumpy2Names) {
  expect_equal(expected_tensors(), read_pdparams(fixture("tensor_tuples_p4.pdparams")), "tuples");
  expect_equal(expected_tensors(), read_pdparams(fixture("ordered_dict_p2.pdparams")), "OrderedDict");
  expect_equal(expected_tensors(), read_pdparams(fixture("numpy2_names_p4.pdparams")), "numpy 2");
}

TEST(Pdparams, JoinsSlicesOfUnpackBigParamInfor) {
  const PdParams got = read_pdparams(fixture("unpack_big_p2.pdparams"));
  PdParams want;
  want.emplace_back("small", tensor<int64_t>(PdDtype::Int64, {2}, {1, 2}));
  std::vector<float> big(10);
  for (int k = 0; k < 10; ++k) big[k] = static_cast<float>(k);
  want.emplace_back("big", tensor(PdDtype::Float32, {2, 5}, big));
  expect_equal(want, got, "unpack");
}

TEST(Pdparams, RoundTripsEveryDtypeWithProtocols234) {
  const std::string dir = ocrforge::test::fresh_dir("pdparams_roundtrip");
  PdParams params = expected_tensors();
  // Bytes >= 0x80 exercise protocol 2's latin1 text encoding of array data.
  params.emplace_back("all_bytes", tensor<uint8_t>(PdDtype::UInt8, {256}, [] {
                        std::vector<uint8_t> v(256);
                        for (int k = 0; k < 256; ++k) v[k] = static_cast<uint8_t>(k);
                        return v;
                      }()));
  params.emplace_back("i16", tensor<int16_t>(PdDtype::Int16, {1, 1, 1, 1, 2}, {-300, 300}));
  params.emplace_back("i8", tensor<int8_t>(PdDtype::Int8, {2}, {-1, 1}));
  params.emplace_back("big_dim", tensor<uint8_t>(PdDtype::UInt8, {70000}, std::vector<uint8_t>(70000, 7)));
  for (int proto : {2, 3, 4}) {
    const std::string path = dir + "/p" + std::to_string(proto) + ".pdparams";
    write_pdparams(path, params, {proto});
    expect_equal(params, read_pdparams(path), "protocol " + std::to_string(proto));
  }
  // More than 1000 entries: SETITEMS batches, LONG_BINPUT/LONG_BINGET memo indices.
  PdParams many;
  for (int k = 0; k < 1500; ++k)
    many.emplace_back("layer" + std::to_string(k) + ".weight", tensor<float>(PdDtype::Float32, {1}, {float(k)}));
  for (int proto : {2, 4}) {
    write_pdparams(dir + "/many.pdparams", many, {proto});
    expect_equal(many, read_pdparams(dir + "/many.pdparams"), "1500 entries");
  }
}

TEST(Pdparams, WrittenFilesLoadInPythonPickle) {
  const char* python = "/usr/bin/python3";
  const std::string dir = ocrforge::test::fresh_dir("pdparams_python");
  if (!fs::exists(python) ||
      ocrforge::test::run_command(std::string(python) + " -c 'import numpy'", dir).exit_code != 0)
    GTEST_SKIP() << "python3 with numpy is not installed (bootstrap installs python3-numpy)";
  const PdParams params = expected_tensors();
  std::string want;
  for (const auto& [name, t] : params) {
    std::string shape;
    for (int64_t d : t.shape) shape += std::to_string(d) + ",";
    want += name + " " + ocrforge::pd_dtype_name(t.dtype) + " (" + shape + ") " +
            ocrforge::sha256_hex(t.data) + "\n";
  }
  // Python's own unpickler with numpy: names, dtypes, shapes and data digests.
  const std::string script =
      "import hashlib, pickle, sys\n"
      "d = pickle.load(open(sys.argv[1], 'rb'), encoding='latin1')\n"
      "assert set(d['StructuredToParameterName@@']) == set(d) - {'StructuredToParameterName@@'}\n"
      "for k, v in d.items():\n"
      "    if k != 'StructuredToParameterName@@':\n"
      "        print(k, v.dtype, '(' + ''.join('%d,' % s for s in v.shape) + ')',"
      " hashlib.sha256(v.tobytes()).hexdigest())\n";
  ocrforge::test::write_text(dir + "/check.py", script);
  for (int proto : {2, 3, 4}) {
    const std::string path = dir + "/p" + std::to_string(proto) + ".pdparams";
    write_pdparams(path, params, {proto});
    const auto r = ocrforge::test::run_command(std::string(python) + " " + dir + "/check.py " + path, dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, want) << "protocol " << proto;
  }
}

TEST(Pdparams, TensorOver100MBRoundTripsWithProtocols2And4) {
  // 27 M float32 = 108 MB: protocol 4 as BINBYTES, protocol 2 as one latin1
  // text (below Paddle's 2^28-element slice limit for float32).
  const int64_t n = 27'000'000;
  PdTensor big;
  big.dtype = PdDtype::Float32;
  big.shape = {3, n / 3};
  big.data.resize(n * 4);
  for (int64_t k = 0; k < n; ++k) {
    const float v = static_cast<float>(k % 1000003) * 0.5f - 7;
    std::memcpy(&big.data[k * 4], &v, 4);
  }
  PdParams params;
  params.emplace_back("head.fc.weight", big);
  params.emplace_back("head.fc.bias", tensor<float>(PdDtype::Float32, {2}, {1.f, 2.f}));
  const std::string path = (fs::temp_directory_path() / ("ocrforge_big_" + std::to_string(getpid()) +
                                                         ".pdparams")).string();
  for (int proto : {4, 2}) {
    const auto t0 = std::chrono::steady_clock::now();
    write_pdparams(path, params, {proto});
    EXPECT_GT(fs::file_size(path), 108'000'000u);
    const PdParams got = read_pdparams(path);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    expect_equal(params, got, "protocol " + std::to_string(proto));
    std::cout << "protocol " << proto << ": wrote and read 108 MB in " << s << " s\n";
  }
  fs::remove(path);
}

TEST(Pdparams, ProtocolsTwoAndThreeSplitBigArraysAsPaddleDoes) {
  // Paddle slices arrays of more than (2^30 - 1) / itemsize elements; the
  // limit is lowered here to 64 bytes so the test stays small: 16 floats per
  // slice, so 40 floats become slices of 16, 16 and 8.
  std::vector<float> values(40);
  for (int k = 0; k < 40; ++k) values[k] = k * 1.5f;
  PdParams params;
  params.emplace_back("a", tensor<float>(PdDtype::Float32, {2}, {1.f, 2.f}));
  params.emplace_back("w", tensor(PdDtype::Float32, {4, 2, 5}, values));
  params.emplace_back("z", tensor<int64_t>(PdDtype::Int64, {1}, {9}));
  for (int proto : {2, 3}) {
    ocrforge::PdParamsWriteOptions options{proto};
    options.max_slice_bytes = 64;
    const std::string bytes = ocrforge::serialize_pdparams(params, options);
    for (const char* part : {"w@@.0", "w@@.1", "w@@.2", "UnpackBigParamInfor@@", "OriginShape"})
      EXPECT_NE(bytes.find(part), std::string::npos) << part;
    EXPECT_EQ(bytes.find("w@@.3"), std::string::npos);
    // Read back: joined, and (as in Paddle's loader) the joined array goes last.
    PdParams want{params[0], params[2], params[1]};
    expect_equal(want, ocrforge::parse_pdparams(bytes, "mem"), "protocol " + std::to_string(proto));
  }
  // Protocol 4 holds any size: no slices.
  ocrforge::PdParamsWriteOptions p4{4};
  p4.max_slice_bytes = 64;
  EXPECT_EQ(ocrforge::serialize_pdparams(params, p4).find("w@@.0"), std::string::npos);
}

TEST(Pdparams, WriterRefusesBadInputAndKeepsTheOldFile) {
  const std::string dir = ocrforge::test::fresh_dir("pdparams_write_errors");
  const std::string path = dir + "/m.pdparams";
  write_pdparams(path, expected_tensors());
  const std::string before = ocrforge::test::read_text(path);
  PdParams bad;
  bad.emplace_back("w", tensor<float>(PdDtype::Float32, {3}, {1.f, 2.f}));
  EXPECT_TRUE(contains(message_of<Error>([&] { write_pdparams(path, bad); }),
                       path + ": cannot write .pdparams: tensor 'w' has 8 bytes"));
  PdParams dup = expected_tensors();
  dup.push_back(dup.front());
  EXPECT_TRUE(contains(message_of<Error>([&] { write_pdparams(path, dup); }), "is empty, repeated or reserved"));
  EXPECT_TRUE(contains(message_of<Error>([&] { write_pdparams(path, expected_tensors(), {5}); }),
                       "pickle protocol 5: paddle.save writes protocols 2 to 4"));
  EXPECT_EQ(ocrforge::test::read_text(path), before);
  EXPECT_TRUE(contains(message_of<Error>([&] { write_pdparams(dir + "/no/such/dir/m.pdparams", expected_tensors()); }),
                       dir + "/no/such/dir/m.pdparams"));
}

TEST(Pdparams, ReaderRefusesWhatIsNotAStateDictOfNumericArrays) {
  const std::string dir = ocrforge::test::fresh_dir("pdparams_read_errors");
  EXPECT_TRUE(contains(message_of<Error>([&] { read_pdparams(dir + "/missing.pdparams"); }),
                       dir + "/missing.pdparams: cannot open"));
  EXPECT_TRUE(contains(message_of<Error>([&] { read_pdparams(dir); }), dir + ": is a folder"));
  auto parse = [](const std::string& bytes) {
    return message_of<Error>([&] { ocrforge::parse_pdparams(bytes, "x.pdparams"); });
  };
  EXPECT_TRUE(contains(parse(std::string("\x80\x02].", 4)), "x.pdparams: holds a pickled list, not a state dict"));
  // {'lr': 1}: an optimizer-style entry.
  EXPECT_TRUE(contains(parse(std::string("\x80\x02}X\x02\x00\x00\x00lrK\x01s.", 14)),
                       "entry 'lr' is of type int, not a tensor"));
  // A complex64 array, a big-endian float32 array and a Fortran-ordered one,
  // made by editing a protocol 4 fixture's dtype code / byte order / flag.
  const std::string good = ocrforge::test::read_text(fixture("state_dict_p4.pdparams"));
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    s.replace(at, from.size(), to);
    return s;
  };
  EXPECT_TRUE(contains(parse(edited("\x8c\x02" "f4", "\x8c\x02" "c8")),
                       "entry 'backbone.conv1._conv.weight' has numpy dtype 'c8'"));
  EXPECT_TRUE(contains(parse(edited("\x8c\x01<", "\x8c\x01>")), "is big-endian"));
  // The first array state: (1, shape, dtype, False, data); its NEWFALSE follows the dtype BUILD.
  const size_t build = good.find('b', good.find("\x8c\x02" "f4"));
  std::string fortran = good;
  ASSERT_EQ(static_cast<uint8_t>(fortran[build + 1]), 0x89);
  fortran[build + 1] = static_cast<char>(0x88);
  EXPECT_TRUE(contains(parse(fortran), "is Fortran-ordered"));
}

// Round 3, defect 7: memo references made one 8 MiB array the value of 1,000
// keys, each materialised (5 GB from an 8 MB file). Tensor bytes are now
// bounded by the file's own size, checked before any copy.
TEST(Pdparams, ReaderRefusesOneArrayMultipliedByMemoReferences) {
  const std::string good = ocrforge::test::read_text(fixture("state_dict_p4.pdparams"));
  ASSERT_EQ(good.back(), '.');
  auto parse = [](const std::string& bytes) {
    return message_of<Error>([&] { ocrforge::parse_pdparams(bytes, "x.pdparams"); });
  };
  // The state dict is on the stack before STOP: add keys whose values are
  // LONG_BINGET of a memoized array (its index found by trying them).
  const auto with_refs = [&](uint32_t memo, int copies) {
    std::string s = good.substr(0, good.size() - 1) + "(";
    for (int i = 0; i < copies; ++i) {
      const std::string key = "dup" + std::to_string(i);
      s += std::string("\x8c") + static_cast<char>(key.size()) + key + "j";
      for (int k = 0; k < 4; ++k) s.push_back(static_cast<char>((memo >> (8 * k)) & 0xff));
    }
    return s + "u.";
  };
  int64_t best = -1;
  uint32_t memo = 0;
  for (uint32_t k = 0; k < 400; ++k) {
    try {
      const auto root = ocrforge::read_pickle(with_refs(k, 1), "probe");
      const auto& v = *root->entries.back().second;
      if (v.kind == ocrforge::PickleValue::Kind::Array && static_cast<int64_t>(v.array->data.size()) > best) {
        best = static_cast<int64_t>(v.array->data.size());
        memo = k;
      }
    } catch (const Error&) {
    }
  }
  ASSERT_GT(best, 0) << "no memoized array in the fixture";
  // One extra reference to an array fits in the file's size; enough of them do not.
  EXPECT_NO_THROW(ocrforge::parse_pdparams(with_refs(memo, 1), "x.pdparams"));
  const int copies = static_cast<int>(good.size() / static_cast<size_t>(best)) + 2;
  const std::string msg = parse(with_refs(memo, copies));
  EXPECT_TRUE(contains(msg, "more than the")) << msg;
  EXPECT_TRUE(contains(msg, "memo references")) << msg;
}

// Round 3, defect 8: a text file given as .pdparams was reported by its
// first letter read as an opcode ("BINGET memo entry 101").
TEST(Pdparams, TextFileIsToldAsNotAPickle) {
  const std::string msg =
      message_of<Error>([&] { ocrforge::parse_pdparams("hello, this is a note\n", "x.pdparams"); });
  EXPECT_TRUE(contains(msg, "not a pickle of protocol 2 or later")) << msg;
  EXPECT_TRUE(contains(msg, "starts with \"hello, this is a")) << msg;
  EXPECT_FALSE(contains(msg, "BINGET")) << msg;
}
