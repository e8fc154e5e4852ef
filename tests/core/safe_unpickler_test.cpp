// Tests for the strict pickle reader (ocrforge/core/safe_unpickler.h): what
// it accepts builds the right values; hostile or damaged input is an Error
// naming the source, the byte offset and what was found, and nothing runs.
#include "ocrforge/core/safe_unpickler.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "ocrforge/core/error.h"
#include "ocrforge/core/pdparams.h"
#include "contains_assertion.h"
#include "test_support.h"

using ocrforge::Error;
using ocrforge::PickleValue;
using ocrforge::read_pickle;
using ocrforge::test::message_of;
namespace fs = std::filesystem;

namespace {

using ocrforge::test::contains;

std::string refusal(const std::string& bytes) {
  return message_of<Error>([&] { read_pickle(bytes, "f.pdparams"); });
}

// Little-endian bytes of `v`, `n` wide.
std::string le(uint64_t v, int n) {
  std::string s;
  for (int k = 0; k < n; ++k) s.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
  return s;
}

// A literal's bytes, NULs included.
template <size_t N>
std::string B(const char (&s)[N]) {
  return std::string(s, N - 1);
}

const std::string kProto4 = std::string("\x80\x04", 2);
const std::string kProto2 = std::string("\x80\x02", 2);

}  // namespace

TEST(SafeUnpickler, ReadsContainersScalarsAndMemo) {
  // {'a': (1, -2, 70000, 'x', b'yz', None, True, 2.5), 'b': [1, 2]} with a memo reference.
  std::string p = kProto4 + "}(" + "\x8c\x01" "a" "\x94" "(K\x01J" + le(static_cast<uint32_t>(-2), 4) +
                  "J" + le(70000, 4) + "\x8c\x01x" "C\x02yz" "N\x88G" +
                  std::string("\x40\x04\x00\x00\x00\x00\x00\x00", 8) + "t" + "\x8c\x01" "b" "](K\x01" + B("h\x00") + "e" + "u.";
  const auto root = read_pickle(p, "mem");
  ASSERT_EQ(root->kind, PickleValue::Kind::Dict);
  ASSERT_EQ(root->entries.size(), 2u);
  const auto& t = *root->entries[0].second;
  ASSERT_EQ(t.kind, PickleValue::Kind::Tuple);
  ASSERT_EQ(t.items.size(), 8u);
  EXPECT_EQ(t.items[0]->i, 1);
  EXPECT_EQ(t.items[1]->i, -2);
  EXPECT_EQ(t.items[2]->i, 70000);
  EXPECT_EQ(t.items[3]->s, "x");
  EXPECT_EQ(t.items[4]->kind, PickleValue::Kind::Bytes);
  EXPECT_EQ(t.items[4]->s, "yz");
  EXPECT_EQ(t.items[5]->kind, PickleValue::Kind::None);
  EXPECT_TRUE(t.items[6]->b);
  EXPECT_DOUBLE_EQ(t.items[7]->f, 2.5);
  EXPECT_EQ(root->entries[1].second->items.size(), 2u);
  EXPECT_EQ(root->entries[1].second->items[1]->s, "a");  // the memoized key
}

TEST(SafeUnpickler, LongAndNegativeIntegers) {
  // LONG1 of -1 (one byte 0xff) and of 2^40.
  std::string p = kProto2 + "(" + "\x8a\x01\xff" + "\x8a\x06" + le(uint64_t{1} << 40, 6) + "t.";
  const auto root = read_pickle(p, "mem");
  ASSERT_EQ(root->items.size(), 2u);
  EXPECT_EQ(root->items[0]->i, -1);
  EXPECT_EQ(root->items[1]->i, int64_t{1} << 40);
}

TEST(SafeUnpickler, RefusesOsSystemWrittenByPythonAndRunsNothing) {
  const std::string marker = "/tmp/ocrforge_pdparams_payload_ran";  // the fixtures' payload target
  fs::remove(marker);
  for (const char* name : {"hostile_os_system_p2.pdparams", "hostile_os_system_p4.pdparams"}) {
    const std::string path = ocrforge::test::data_dir() + "/pdparams/" + name;
    ASSERT_TRUE(fs::exists(path)) << path;
    const std::string msg = message_of<Error>([&] { ocrforge::read_pdparams(path); });
    EXPECT_TRUE(contains(msg, path)) << name;
    EXPECT_TRUE(contains(msg, "global 'posix.system' is not allowed")) << name;
    EXPECT_TRUE(contains(msg, "refused at byte ")) << name;
    EXPECT_FALSE(fs::exists(marker)) << "the payload of " << name << " ran";
  }
}

TEST(SafeUnpickler, RefusesOsSystemGlobalBeforeReduceAndRunsNothing) {
  const std::string marker = ocrforge::test::fresh_dir("unpickle_payload") + "/ran";
  const std::string cmd = "touch " + marker;
  // GLOBAL 'os system', the command, TUPLE1, REDUCE: pickle's code-execution idiom.
  const std::string p = kProto2 + "cos\nsystem\n" + "X" + le(cmd.size(), 4) + cmd + "\x85R.";
  const std::string msg = refusal(p);
  EXPECT_TRUE(contains(msg, "f.pdparams: refused at byte 2 (GLOBAL): global 'os.system' is not allowed"));
  EXPECT_FALSE(fs::exists(marker));
  // The same through STACK_GLOBAL (protocol 4), and builtins.eval.
  const std::string p4 = kProto4 + "\x8c\x08" "builtins" "\x8c\x04" "eval" "\x93" + "\x8c\x01" "1" "\x85R.";
  EXPECT_TRUE(contains(refusal(p4), "(STACK_GLOBAL): global 'builtins.eval' is not allowed"));
}

TEST(SafeUnpickler, RefusesAllowedGlobalsUsedOtherwise) {
  // numpy.dtype is allowed, but REDUCE only interprets it; a dtype with a
  // non-string code, or _reconstruct of another class, is refused.
  EXPECT_TRUE(contains(refusal(kProto2 + "cnumpy\ndtype\nK\x01\x85R."), "numpy.dtype without a short type code"));
  EXPECT_TRUE(contains(refusal(kProto2 + "cnumpy.core.multiarray\n_reconstruct\ncnumpy\ndtype\n" + B("K\x00\x85") + "C\x01" "b" "\x87R."),
                       "_reconstruct of something other than numpy.ndarray"));
  // BUILD on a plain value (the route to __setstate__ on arbitrary objects).
  EXPECT_TRUE(contains(refusal(kProto2 + "]}b."), "BUILD on a list"));
}

TEST(SafeUnpickler, RefusesTruncatedFile) {
  const std::string full = ocrforge::test::read_text(ocrforge::test::data_dir() +
                                                     "/pdparams/state_dict_p4.pdparams");
  ASSERT_GT(full.size(), 200u);
  // Protocol 4 announces its frame's length: any cut is seen at the FRAME.
  EXPECT_TRUE(contains(refusal(full.substr(0, full.size() - 1)),
                       "f.pdparams: refused at byte 2 (FRAME): needs 1207 bytes but only 1206 remain: "
                       "the file is truncated"));
  // Protocol 2 has no frames: a cut inside an opcode's argument, and one before STOP.
  const std::string p2 = ocrforge::test::read_text(ocrforge::test::data_dir() +
                                                   "/pdparams/state_dict_p2.pdparams");
  for (size_t cut = 1; cut < p2.size(); ++cut) {
    const std::string msg = refusal(p2.substr(0, cut));
    ASSERT_TRUE(contains(msg, "f.pdparams: refused at byte ")) << cut;
    ASSERT_TRUE(contains(msg, "truncated")) << cut;
  }
  EXPECT_TRUE(contains(refusal(p2.substr(0, p2.size() - 1)), "ends without STOP: the file is truncated"));
  EXPECT_TRUE(contains(refusal(""), "not a pickle of protocol 2 or later (as paddle.save writes): it starts with "
                                    "nothing (an empty file)"));
}

TEST(SafeUnpickler, RefusesHugeLengthsBeforeAllocating) {
  // BINBYTES8 claiming 2^62 bytes, BINUNICODE8 claiming 2^63, BINBYTES claiming 4 GiB - 1.
  EXPECT_TRUE(contains(refusal(kProto4 + "\x8e" + le(uint64_t{1} << 62, 8) + "abc."),
                       "refused at byte 2 (BINBYTES8): needs 4611686018427387904 bytes but only 4 remain"));
  EXPECT_TRUE(contains(refusal(kProto4 + "\x8d" + le(uint64_t{1} << 63, 8) + "."), "(BINUNICODE8): needs"));
  EXPECT_TRUE(contains(refusal(kProto2 + "B" + le(0xffffffffu, 4) + "."), "(BINBYTES): needs 4294967295 bytes"));
  EXPECT_TRUE(contains(refusal(kProto4 + "\x95" + le(uint64_t{1} << 60, 8) + "N."), "(FRAME): needs"));
}

TEST(SafeUnpickler, RefusesUnknownAndOutOfLayoutOpcodes) {
  EXPECT_TRUE(contains(refusal(kProto2 + "\xff."), "refused at byte 2 (?): unknown opcode 0xff"));
  // Known to Python, outside the layout: INST (protocol 0 object creation), NEWOBJ, PERSID.
  EXPECT_TRUE(contains(refusal(kProto2 + "(ios\nsystem\n."), "opcode INST is outside the .pdparams layout"));
  EXPECT_TRUE(contains(refusal(kProto2 + "\x81."), "opcode NEWOBJ is outside"));
  EXPECT_TRUE(contains(refusal(kProto2 + "Pid\n."), "opcode PERSID is outside"));
  EXPECT_TRUE(contains(refusal(std::string("\x80\x05N.", 4)), "pickle protocol 5"));
}

TEST(SafeUnpickler, RefusesDeepNesting) {
  // 100 nested lists via APPEND, and 100 open MARKs.
  std::string lists = kProto2;
  for (int k = 0; k < 100; ++k) lists += "]";
  for (int k = 0; k < 99; ++k) lists += "a";
  lists += ".";
  EXPECT_TRUE(contains(refusal(lists), "containers nested deeper than 64 levels"));
  std::string tuples = kProto2 + "N";
  for (int k = 0; k < 100; ++k) tuples += "\x85";
  EXPECT_TRUE(contains(refusal(tuples + "."), "nested deeper than 64"));
  EXPECT_TRUE(contains(refusal(kProto2 + std::string(100, '(') + "."), "MARKs nested deeper than 64"));
  // Within the limit it reads.
  std::string ok = kProto2 + "N";
  for (int k = 0; k < 60; ++k) ok += "\x85";
  EXPECT_EQ(read_pickle(ok + ".", "mem")->depth, 60);
}

TEST(SafeUnpickler, RefusesSharedMutableContainersAndBadStacks) {
  // A list memoized and fetched again could be appended to itself (a cycle).
  EXPECT_TRUE(contains(refusal(kProto2 + B("]q\x00h\x00" "a.")), "a second reference to a list or dict"));
  EXPECT_TRUE(contains(refusal(kProto2 + B("h\x05.")), "memo entry 5 was never stored"));
  EXPECT_TRUE(contains(refusal(kProto2 + "a."), "the stack is empty"));
  EXPECT_TRUE(contains(refusal(kProto2 + "NN."), "STOP with 2 values on the stack"));
  EXPECT_TRUE(contains(refusal(kProto2 + "(N."), "STOP with a MARK still open"));
  EXPECT_TRUE(contains(refusal(kProto2 + "Ns."), "the stack is empty"));
  EXPECT_TRUE(contains(refusal(kProto2 + B("X\x02\x00\x00\x00\xff\xfe.")), "not valid UTF-8"));
}

TEST(SafeUnpickler, DamagedFixturesAreErrorsNeverCrashes) {
  // Random byte changes, cuts and insertions (fixed seed) in every fixture:
  // each parse either succeeds or throws Error; anything else fails the test.
  uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  int refused = 0, read = 0;
  for (const auto& e : fs::directory_iterator(ocrforge::test::data_dir() + "/pdparams")) {
    if (e.path().extension() != ".pdparams") continue;
    const std::string good = ocrforge::test::read_text(e.path().string());
    for (int k = 0; k < 400; ++k) {
      std::string bad = good;
      const int edits = 1 + static_cast<int>(next() % 3);
      for (int j = 0; j < edits && !bad.empty(); ++j) {
        const size_t at = next() % bad.size();
        switch (next() % 3) {
          case 0: bad[at] = static_cast<char>(next() & 0xff); break;
          case 1: bad.resize(at); break;
          default: bad.insert(at, 1, static_cast<char>(next() & 0xff)); break;
        }
      }
      try {
        ocrforge::parse_pdparams(bad, "fuzz");
        ++read;
      } catch (const Error& err) {
        ++refused;
        ASSERT_EQ(std::string(err.what()).rfind("fuzz: ", 0), 0u) << err.what();
      }
    }
  }
  EXPECT_GT(refused, 1000);
  std::cout << refused << " damaged files refused, " << read << " still read\n";
}
