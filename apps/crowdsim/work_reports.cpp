#include "work_reports.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include <crowd/work_progress.hpp>

#include "progress_line.hpp"

namespace crowd::cli {
namespace {

using Clock = std::chrono::steady_clock;

// The time left is judged once the work has run this long (its first items can be unlike the
// rest), and is worth a warning past a minute.
constexpr double kJudgeAfterSeconds = 3.0;
constexpr double kLongWaitSeconds = 60.0;

std::atomic<bool> quiet{false};

// One piece of work at a time: a report with fewer items done than the last, or another total,
// starts the next.
struct Work {
  std::uint64_t total = 0;
  std::uint64_t done = 0;
  Clock::time_point start;
  bool judged = false;
};
Work work;

std::string minutesAndSeconds(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s < 60) return std::to_string(s) + " s";
  if (s < 3600) return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
  return std::to_string(s / 3600) + " h " + std::to_string(s % 3600 / 60) + " min";
}

void report(const char* what, std::uint64_t done, std::uint64_t total) {
  static ProgressLine line(false);
  const Clock::time_point now = Clock::now();
  if (total != work.total || done < work.done) work = Work{total, done, now, false};
  work.done = done;
  if (done >= total) {
    line.clear();
    return;
  }
  const double elapsed = std::chrono::duration<double>(now - work.start).count();
  const double left =
      done > 0 ? elapsed * static_cast<double>(total - done) / static_cast<double>(done) : 0.0;
  if (!work.judged && elapsed >= kJudgeAfterSeconds && done > 0 && !quiet.load(std::memory_order_relaxed)) {
    work.judged = true;
    if (left > kLongWaitSeconds) {
      line.clear();
      std::fprintf(stderr,
                   "crowdsim: warning: %s: %llu of %llu done in %.1f s, about %s more at this pace; fewer "
                   "agents, or goals that many share (one goal field serves them all), are quicker\n",
                   what, static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                   elapsed, minutesAndSeconds(left).c_str());
    }
  }
  // Not for the quick plans of a run (agents re-routed when stuck): they would flicker.
  if (!quiet.load(std::memory_order_relaxed) && elapsed >= 1.0 && line.due() && done > 0) {
    line.update("%s %llu/%llu, about %s left   ", what, static_cast<unsigned long long>(done),
                static_cast<unsigned long long>(total), minutesAndSeconds(left).c_str());
  }
}

}  // namespace

void showWorkProgress() {
  setProgressReporter(&report);
}

void quietWorkProgress() {
  quiet.store(true, std::memory_order_relaxed);
}

}  // namespace crowd::cli
