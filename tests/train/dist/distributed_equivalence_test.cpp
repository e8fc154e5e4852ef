// Data parallelism changes nothing but speed: 2 workers x batch B train to
// the same weights as 1 worker x batch 2B (within 1e-4 after 8 momentum-SGD
// steps; the averaged gradients of the first step agree to 1e-5 relative).
//
// Why momentum SGD and not the tiny config's Adam: Adam divides each
// element's step by its own gradient magnitude, so for elements whose
// gradient is ~0 it turns float summation-order noise (1e-9) into steps of
// lr size; we saw 5e-4 weight differences after 8 Adam steps while the
// losses still agreed to 1e-5. That is Adam's arithmetic, not the
// communicator; SGD keeps the comparison meaningful at 1e-4.
//
// How the data order is made identical: the single worker uses the shuffle
// sampler (seed, epoch); the workers use the distributed sampler, whose rank
// r takes chunks r, r + 2, ... of that same order, so at every step the two
// half-batches together are the single worker's batch (32 samples: no
// padding). Each worker's CTC loss is the mean over its B samples, so the
// average of the two workers' gradients is the gradient of the 2B mean.
//
// BatchNorm: in training mode each worker would normalise with the
// statistics of its own B samples, not of all 2B, which is a real (and
// PaddleOCR-identical, without SyncBN) difference, not a bug. The test
// therefore runs the model in eval mode: BN uses its fixed running
// statistics and is an ordinary learnable affine layer, and the comparison
// is exact up to float summation order.
//
// Ranks are threads with their own Gloo process groups (dist_fixture.h);
// the step is the trainer's: forward, CTC loss, zero_grad, backward,
// average_gradients, clip, optimizer step.
// ctest-labels: slow train (trains for seconds to minutes on all cores: runs alone)
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "dist_fixture.h"
#include "ocrforge/core/charset.h"
#include "ocrforge/train/tasks/rec/rec_data_config.h"
#include "ocrforge/train/dist/c10d_communicator.h"
#include "ocrforge/train/dist/distributed_sampler.h"
#include "ocrforge/train/tasks/rec/ctc_loss.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "ocrforge/train/optim/optimizer_factory.h"
#include "ocrforge/train/optim/optimizer_spec.h"
#include "train/tasks/rec/trainer_fixture.h"

namespace ocrforge {
namespace {

constexpr int kEpochs = 2, kHalfBatch = 4, kSamples = 32;

struct TrainRun {
  RecModel model{nullptr};
  std::vector<double> losses;              // per step, as the trainer logs it (mean over ranks)
  std::vector<torch::Tensor> first_grads;  // after average_gradients of step 1
};

// Builds the model with the trainer's seed: every run starts from the same weights.
RecModel make_model(const Config& cfg, const Charset& charset) {
  torch::manual_seed(1024);
  RecModel m(rec_arch_from_yaml(cfg.root()["Architecture"], charset.num_classes()));
  m->eval();  // BN with fixed statistics (see the file comment)
  return m;
}

void train(const Config& cfg, const Charset& charset, RecModel model, std::shared_ptr<Sampler> sampler, int batch,
           Communicator& comm, TrainRun* run) {
  RecDataSpec setup = rec_data_from_yaml(cfg.root()["Train"], "Train", charset, 8, 1024, true);
  setup.loader.batch_size = batch;
  RecDataLoader loader(setup.dataset, setup.loader, 1024, std::move(sampler));
  const OptimizerSpec spec = optimizer_spec_from_yaml(cfg.root()["Optimizer"], kEpochs);
  auto optimizer = make_optimizer(spec, *model);
  comm.broadcast_parameters(*model);
  for (int epoch = 1; epoch <= kEpochs; ++epoch) {
    loader.start_epoch(epoch);
    RecTrainBatch b;
    while (loader.next(&b)) {
      auto loss = ctc_loss(model->forward(b.images), b.labels, b.lengths);
      run->losses.push_back(comm.sum({loss.item<double>()})[0] / comm.world_size());
      optimizer->zero_grad();
      loss.backward();
      comm.average_gradients(*model);
      if (run->first_grads.empty())
        for (const auto& p : model->parameters()) run->first_grads.push_back(p.grad().clone());
      clip_gradients(spec, *model);
      optimizer->step();
    }
  }
  run->model = model;
}

TEST(DistributedEquivalence, TwoWorkersOfBatchBMatchOneWorkerOfBatch2B) {
  const auto task = test::make_tiny_task("dist_equiv", kSamples);
  Config cfg = Config::from_string(test::tiny_config(task, kEpochs, kHalfBatch, /*lr=*/0.05));
  cfg.root()["Optimizer"].remove("beta1");
  cfg.root()["Optimizer"].remove("beta2");
  cfg.apply_overrides({"Optimizer.name=Momentum", "Optimizer.momentum=0.9"});
  const Charset charset = Charset::load(task.dict, false);
  at::set_num_threads(1);

  TrainRun single;
  auto one = make_single_process_communicator();
  train(cfg, charset, make_model(cfg, charset), make_shuffle_sampler(1024), 2 * kHalfBatch, *one, &single);

  // Rank 1 starts from different weights: the broadcast must fix that.
  std::vector<RecModel> models{make_model(cfg, charset), make_model(cfg, charset)};
  {
    torch::NoGradGuard g;
    for (auto& p : models[1]->parameters()) p.add_(0.5);
  }
  std::vector<TrainRun> ranks(2);
  const int port = free_loopback_port();
  const auto errors = test::run_ranks(2, [&](int r) {
    Fingerprint fp;
    fp.rank = r;
    auto comm = make_c10d_communicator(test::loopback_env(r, 2, port), fp);
    train(cfg, charset, models[static_cast<size_t>(r)], make_distributed_sampler(true, 1024, r, 2, kHalfBatch),
          kHalfBatch, *comm, &ranks[static_cast<size_t>(r)]);
  });
  ASSERT_EQ(errors, (std::vector<std::string>{"", ""}));

  ASSERT_EQ(single.losses.size(), size_t{kEpochs * kSamples / (2 * kHalfBatch)});
  ASSERT_EQ(ranks[0].losses.size(), single.losses.size());
  for (size_t i = 0; i < single.losses.size(); ++i) EXPECT_NEAR(ranks[0].losses[i], single.losses[i], 1e-4) << i;
  ASSERT_EQ(ranks[0].first_grads.size(), single.first_grads.size());
  for (size_t i = 0; i < single.first_grads.size(); ++i)
    EXPECT_TRUE(torch::allclose(ranks[0].first_grads[i], single.first_grads[i], 1e-5, 1e-7)) << "parameter " << i;
  const auto p1 = single.model->named_parameters();
  const auto p2 = ranks[0].model->named_parameters(), p3 = ranks[1].model->named_parameters();
  double worst = 0;
  for (const auto& kv : p1) {
    const double d = (kv.value() - p2[kv.key()]).abs().max().item<double>();
    worst = std::max(worst, d);
    EXPECT_LT(d, 1e-4) << kv.key();
    EXPECT_TRUE(torch::equal(p2[kv.key()], p3[kv.key()])) << "ranks disagree on " << kv.key();
  }
  // The run moved the weights far more than the tolerance (the check is not vacuous).
  const auto p0 = make_model(cfg, charset)->named_parameters();
  double moved = 0;
  for (const auto& kv : p1) moved = std::max(moved, (kv.value() - p0[kv.key()]).abs().max().item<double>());
  EXPECT_GT(moved, 1e-2);
  std::printf("max |w_2x%d - w_1x%d| = %.3g over %zu steps (weights moved up to %.3g)\n", kHalfBatch, 2 * kHalfBatch,
              worst, single.losses.size(), moved);
}

}  // namespace
}  // namespace ocrforge
