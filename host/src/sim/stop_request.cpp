// The process's request to stop (crowd/stop_request.hpp): one lock-free atomic, which a signal
// handler may set.
#include <atomic>

#include <crowd/stop_request.hpp>

namespace crowd {
namespace {

std::atomic<int> requestedBy{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");

}  // namespace

void requestStop(int signal) noexcept {
  int none = 0;
  requestedBy.compare_exchange_strong(none, signal, std::memory_order_relaxed);
}

int stopRequested() noexcept {
  return requestedBy.load(std::memory_order_relaxed);
}

void throwIfStopRequested(const char* where) {
  if (const int signal = stopRequested(); signal != 0) throw Interrupted(signal, where);
}

void throwIfStopRequested(std::int64_t stepsDone) {
  if (const int signal = stopRequested(); signal != 0) {
    throw Interrupted(signal, "after " + std::to_string(stepsDone) + " steps");
  }
}

}  // namespace crowd
