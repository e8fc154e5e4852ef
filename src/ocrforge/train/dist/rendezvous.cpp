// rendezvous.h: TCPStore start/connect, per-rank join keys, fingerprint check.
#include "ocrforge/train/dist/rendezvous.h"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }
std::string text(const std::vector<uint8_t>& b) { return {b.begin(), b.end()}; }
std::string joined_key(int r) { return "ocrforge/joined/" + std::to_string(r); }
std::string checked_key(int r) { return "ocrforge/checked/" + std::to_string(r); }

std::string store_address(const DistEnv& env) { return env.master_addr + ":" + std::to_string(env.master_port); }

c10d_compat::StorePtr open_store(const DistEnv& env) {
  c10d::TCPStoreOptions o;
  o.port = static_cast<uint16_t>(env.master_port);
  o.isServer = env.rank == 0;
  o.waitWorkers = false;  // we wait ourselves, to name who is missing
  o.timeout = std::chrono::milliseconds(static_cast<long>(env.timeout_s * 1000));
  try {
    return c10::make_intrusive<c10d::TCPStore>(env.master_addr, o);
  } catch (const std::exception& e) {
    if (env.rank == 0)
      throw Error("rank 0: could not start the rendezvous store on port " + std::to_string(env.master_port) +
                  " (is the port already in use? choose another with --master_port or FLAGS_START_PORT): " + e.what());
    throw Error(env.describe_rank(env.rank) + ": could not reach the rendezvous store at " + store_address(env) +
                " within " + std::to_string(static_cast<int>(env.timeout_s)) +
                " s: the master node (rank 0) never started, or a firewall blocks TCP port " +
                std::to_string(env.master_port) + " (" + e.what() + ")");
  }
}

// "1 of 3 ranks never joined: rank 2 (node 10.0.0.2)"
std::string describe_ranks(const DistEnv& env, const std::vector<int>& ranks, const std::string& what) {
  std::string names;
  for (int r : ranks) names += (names.empty() ? "" : ", ") + env.describe_rank(r);
  return std::to_string(ranks.size()) + " of " + std::to_string(env.world_size) + " ranks never " + what + ": " + names;
}

// Polls until every rank's key exists; names the missing ranks on timeout.
// Rank 0 hosts the store and gives up a second after the others, so that
// they can still read it and report the missing ranks themselves.
void wait_for_ranks(c10d::Store& store, const DistEnv& env, std::string (*key)(int), const std::string& what) {
  const long grace_ms = env.rank == 0 ? 1000 : 0;
  const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<long>(env.timeout_s * 1000) + grace_ms);
  std::vector<int> missing;
  for (;;) {
    std::vector<int> now_missing;
    try {
      for (int r = 0; r < env.world_size; ++r)
        if (!store.check({key(r)})) now_missing.push_back(r);
    } catch (const std::exception& e) {
      throw Error(env.describe_rank(env.rank) + ": lost the rendezvous store at " + store_address(env) +
                  " (rank 0 gave up or exited)" + (missing.empty() ? "" : "; " + describe_ranks(env, missing, what)) +
                  ": " + e.what());
    }
    missing = now_missing;
    if (missing.empty()) return;
    if (Clock::now() > deadline)
      throw Error(env.describe_rank(env.rank) + ": rendezvous timed out after " +
                  std::to_string(static_cast<int>(env.timeout_s)) + " s: " + describe_ranks(env, missing, what) +
                  " (start `ocrforge launch` on every node of --ips, with the same --master_port)");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace

std::string this_host(const DistEnv& env) {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0) name[0] = '\0';
  const std::string ip = env.node_ip.empty() ? "" : " " + env.node_ip;
  return std::string(name) + ip;
}

c10d_compat::StorePtr rendezvous(const DistEnv& env, const Fingerprint& mine) {
  c10d_compat::StorePtr store = open_store(env);
  try {
    store->set(joined_key(env.rank), bytes(mine.to_json()));
  } catch (const std::exception& e) {
    throw Error(env.describe_rank(env.rank) + ": could not publish to the rendezvous store at " + store_address(env) +
                ": " + e.what());
  }
  wait_for_ranks(*store, env, joined_key, "joined");

  std::vector<Fingerprint> all;
  for (int r = 0; r < env.world_size; ++r) all.push_back(Fingerprint::from_json(text(store->get(joined_key(r)))));
  store->set(checked_key(env.rank), bytes("1"));
  const std::string diff = compare_fingerprints(all);
  if (!diff.empty()) {
    // Rank 0 hosts the store: it stays until every rank has read the
    // fingerprints, so all of them can report the mismatch themselves.
    if (env.rank == 0) {
      try {
        wait_for_ranks(*store, env, checked_key, "compared fingerprints");
      } catch (const Error&) {
      }
    }
    throw Error(env.describe_rank(env.rank) +
                ": the workers of this run disagree, refusing to train (start every node with the same build, "
                "config, -o overrides and label files):\n" +
                diff);
  }
  return store;
}

}  // namespace ocrforge
