// agree_after_step: the stop flag and the global-batch metrics, with real
// Gloo ranks as threads and with the single-process communicator.
#include "ocrforge/train/loop/step_agreement.h"

#include <gtest/gtest.h>

#include "ocrforge/train/dist/c10d_communicator.h"
#include "train/dist/dist_fixture.h"

namespace ocrforge {
namespace {

TEST(StepAgreement, MetricsCoverTheGlobalBatchAndOneStopStopsAll) {
  const int port = free_loopback_port(), world = 2;
  const auto errors = test::run_ranks(world, [&](int rank) {
    Fingerprint f;
    f.rank = rank;
    f.host = "thread";
    f.items = {{"ocrforge version", "test"}};
    auto comm = make_c10d_communicator(test::loopback_env(rank, world, port), f);
    // Rank 0: 4 samples, all right. Rank 1: 2 samples, both wrong ("ab" vs "xy": distance 2 of 2).
    RecMetric m;
    if (rank == 0)
      for (int i = 0; i < 4; ++i) m.add("ab", "ab");
    else
      for (int i = 0; i < 2; ++i) m.add("xy", "ab");
    const StepAgreement a = agree_after_step(*comm, /*stop_requested=*/rank == 1, &m);
    EXPECT_TRUE(a.stop);
    EXPECT_DOUBLE_EQ(a.acc, 4.0 / 6.0);            // by samples, not the mean of 1.0 and 0.0
    EXPECT_DOUBLE_EQ(a.norm_edit_dis, 4.0 / 6.0);  // 1 - distance, per sample
    const StepAgreement none = agree_after_step(*comm, false, nullptr);
    EXPECT_FALSE(none.stop);
    EXPECT_EQ(none.acc, 0.0);
  });
  for (int r = 0; r < world; ++r) EXPECT_EQ(errors[static_cast<size_t>(r)], "") << "rank " << r;
}

TEST(StepAgreement, SingleProcessIsItsOwnBatch) {
  auto comm = make_single_process_communicator();
  RecMetric m;
  m.add("ab", "ab");
  m.add("ab", "ax");
  const StepAgreement a = agree_after_step(*comm, false, &m);
  EXPECT_FALSE(a.stop);
  EXPECT_DOUBLE_EQ(a.acc, 0.5);
  EXPECT_DOUBLE_EQ(a.norm_edit_dis, m.norm_edit_dis());
  EXPECT_TRUE(agree_after_step(*comm, true, &m).stop);
}

}  // namespace
}  // namespace ocrforge
