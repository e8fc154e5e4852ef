#include "ocrforge/train/loop/stop_signal.h"

#include <atomic>
#include <csignal>

namespace ocrforge {

static std::atomic<int> g_signal{0};

extern "C" void ocrforge_on_stop_signal(int sig) { g_signal.store(sig); }

void install_stop_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = ocrforge_on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
}

bool stop_requested() { return g_signal.load() != 0; }
int stop_signal_number() { return g_signal.load(); }
void request_stop(int signal_number) { g_signal.store(signal_number); }
void clear_stop_request() { g_signal.store(0); }

}  // namespace ocrforge
