// The process's progress reporter (crowd/work_progress.hpp).
#include <atomic>

#include <crowd/work_progress.hpp>

namespace crowd {
namespace {

std::atomic<ProgressReporter> reporterOfProcess{nullptr};

}  // namespace

void setProgressReporter(ProgressReporter reporter) noexcept {
  reporterOfProcess.store(reporter, std::memory_order_relaxed);
}

void reportProgress(const char* what, std::uint64_t done, std::uint64_t total) {
  if (const ProgressReporter reporter = reporterOfProcess.load(std::memory_order_relaxed))
    reporter(what, done, total);
}

}  // namespace crowd
