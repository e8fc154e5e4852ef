// Rendezvous on a TCPStore hosted by rank 0 at MASTER_ADDR:MASTER_PORT.
// TCPStore's own wait() only says "timed out", so each rank publishes a
// per-rank "joined" key (carrying its fingerprint) and polls for the others
// itself: on timeout the error names the ranks (and nodes) that never came.
// Then every rank compares all fingerprints and refuses to train when they
// differ, naming the ranks, hosts and the differing item. Internal header.
#pragma once
#include "ocrforge/train/dist/c10d_compat.h"
#include "ocrforge/train/dist/dist_env.h"
#include "ocrforge/train/dist/fingerprint.h"

namespace ocrforge {

// Returns the connected store once all env.world_size ranks joined with equal
// fingerprints. Throws Error (naming ranks, hosts, ports) when the store
// cannot be started or reached, ranks are missing after env.timeout_s, or
// fingerprints differ.
c10d_compat::StorePtr rendezvous(const DistEnv& env, const Fingerprint& mine);

// "name (ip)" of this node for messages: ip = env.node_ip when set.
std::string this_host(const DistEnv& env);

}  // namespace ocrforge
