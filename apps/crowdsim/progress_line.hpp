// A progress line on stderr, rewritten in place about twice a second while a long command
// works (`run`'s steps, `route`'s problems): only on a terminal, and not with -q, so that logs
// and pipes get no carriage returns. Cleared when the work is done.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>

namespace crowd::cli {

class ProgressLine {
 public:
  explicit ProgressLine(bool quiet) : shown_(!quiet && isatty(STDERR_FILENO) != 0) {}
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { clear(); }

  /// Whether an update now would be shown: call before formatting anything costly.
  bool due() const { return shown_ && Clock::now() - last_ > std::chrono::milliseconds(500); }

  /// Rewrites the line with printf-style text, when due().
  [[gnu::format(printf, 2, 3)]] void update(const char* format, ...) {
    if (!due()) return;
    last_ = Clock::now();
    written_ = true;
    std::va_list args;
    va_start(args, format);
    std::fputc('\r', stderr);
    std::vfprintf(stderr, format, args);
    va_end(args);
  }

  /// Blanks the line, once something was shown.
  void clear() {
    if (written_) std::fprintf(stderr, "\r%*s\r", 70, "");
    written_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool shown_;
  bool written_ = false;
  Clock::time_point last_ = Clock::now();
};

}  // namespace crowd::cli
