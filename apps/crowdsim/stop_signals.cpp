// Catching the stop signals (stop_signals.hpp).
#include "stop_signals.hpp"

#include <csignal>

#include <crowd/stop_request.hpp>

namespace crowd::cli {
namespace {

struct StopSignal {
  int number;
  const char* name;
  bool repeatStopsAtOnce;  ///< Sent by a person or a supervisor, not by each failed write.
};

constexpr StopSignal kStopSignals[] = {{SIGINT, "SIGINT", true},    {SIGTERM, "SIGTERM", true},
                                       {SIGHUP, "SIGHUP", true},    {SIGQUIT, "SIGQUIT", true},
                                       {SIGPIPE, "SIGPIPE", false}, {SIGXFSZ, "SIGXFSZ", false}};

extern "C" void onStopSignal(int signal) {
  if (stopRequested() != 0) {
    for (const StopSignal& s : kStopSignals) {
      if (s.number != signal || !s.repeatStopsAtOnce) continue;
      std::signal(signal, SIG_DFL);
      std::raise(signal);
    }
    return;
  }
  requestStop(signal);
}

}  // namespace

void catchStopSignals() {
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  // Reads and waits go on after the handler: the request is seen at the next poll.
  action.sa_flags = SA_RESTART;
  for (const StopSignal& s : kStopSignals) {
    // One ignored by whoever started the process stays ignored: `nohup` asks to outlive the
    // terminal, a shell's background job to be spared Ctrl-C.
    struct sigaction before {};
    if (sigaction(s.number, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
    sigaction(s.number, &action, nullptr);
  }
}

int stoppedExitCode(int signal) {
  return 128 + signal;
}

std::string signalName(int signal) {
  for (const StopSignal& s : kStopSignals) {
    if (s.number == signal) return s.name;
  }
  return "signal " + std::to_string(signal);
}

}  // namespace crowd::cli
