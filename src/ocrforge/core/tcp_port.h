// A TCP port on 127.0.0.1 that nobody listens on right now (the kernel's
// pick for port 0), for loopback rendezvous in `ocrforge check` and tests.
// Another process may take it before it is used: callers that must not
// race bind it themselves.
#pragma once

namespace ocrforge {

// Throws Error when no socket can be bound.
int free_loopback_port();

}  // namespace ocrforge
