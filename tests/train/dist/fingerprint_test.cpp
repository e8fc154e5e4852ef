// Worker fingerprints: what must agree across nodes, and how a difference
// is reported (ranks, hosts, item, and for configs the differing keys).
#include "ocrforge/train/dist/fingerprint.h"

#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "test_support.h"

namespace ocrforge {
namespace {

Config config_with_labels(const std::string& labels) {
  return Config::from_string("Global:\n  num_threads: 2\n  epoch_num: 3\nTrain:\n  dataset:\n    label_file_list: [" +
                             labels + "]\n");
}

TEST(Fingerprint, EqualRunsAgreeAndNumThreadsMayDiffer) {
  const std::string dir = test::fresh_dir("fp_equal");
  test::write_text(dir + "/a.txt", "img1.png\t123\n");
  Config a = config_with_labels(dir + "/a.txt"), b = a;
  b.apply_override("Global.num_threads=1");  // per-node core count
  const auto fa = make_fingerprint(a, 0, "n1 10.0.0.1"), fb = make_fingerprint(b, 1, "n2 10.0.0.2");
  EXPECT_EQ(compare_fingerprints({fa, fb}), "");
  EXPECT_EQ(fa.items.size(), 4u);  // versions, config, one label file
}

TEST(Fingerprint, NamesTheDifferingOverrideWithRanksAndHosts) {
  Config a = config_with_labels("none.txt"), b = a;
  b.apply_override("Global.epoch_num=5");
  const std::string diff =
      compare_fingerprints({make_fingerprint(a, 0, "n1 10.0.0.1"), make_fingerprint(b, 1, "n2 10.0.0.2")});
  EXPECT_NE(diff.find("config hash"), std::string::npos) << diff;
  EXPECT_NE(diff.find("rank 0 (n1 10.0.0.1)"), std::string::npos) << diff;
  EXPECT_NE(diff.find("rank 1 (n2 10.0.0.2)"), std::string::npos) << diff;
  EXPECT_NE(diff.find("Global.epoch_num: 3 on rank 0, 5 on rank 1"), std::string::npos) << diff;
}

TEST(Fingerprint, DetectsADifferentLabelFile) {
  // Same path in the config, different bytes on the two nodes: build each
  // fingerprint while that node's file is in place.
  const std::string path = test::fresh_dir("fp_labels") + "/gt.txt";
  test::write_text(path, "img1.png\t123\n");
  const auto f0 = make_fingerprint(config_with_labels(path), 0, "a");
  test::write_text(path, "img1.png\t124\n");
  const auto f1 = make_fingerprint(config_with_labels(path), 1, "b");
  const std::string diff = compare_fingerprints({f0, f1});
  EXPECT_NE(diff.find("label file " + path + " differs"), std::string::npos) << diff;
  EXPECT_EQ(diff.find("config hash"), std::string::npos) << diff;
}

TEST(Fingerprint, JsonRoundTrip) {
  const auto f = make_fingerprint(config_with_labels("missing.txt"), 3, "host 1.2.3.4");
  const auto g = Fingerprint::from_json(f.to_json());
  EXPECT_EQ(g.rank, 3);
  EXPECT_EQ(g.host, "host 1.2.3.4");
  EXPECT_EQ(g.items, f.items);
  EXPECT_EQ(g.items.back().second, "missing");
  EXPECT_THROW(Fingerprint::from_json("{oops"), Error);
}

}  // namespace
}  // namespace ocrforge
