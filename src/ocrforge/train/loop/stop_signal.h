// SIGTERM / SIGINT request a graceful stop: the trainer finishes the current
// step, saves `latest` and exits (spot and preemptible machines send SIGTERM).
#pragma once

namespace ocrforge {

// Installs the handlers (idempotent).
void install_stop_signal_handlers();
// True once a stop was requested; the signal number via stop_signal_number().
bool stop_requested();
int stop_signal_number();
// For tests: request or clear a stop without a signal.
void request_stop(int signal_number);
void clear_stop_request();

}  // namespace ocrforge
