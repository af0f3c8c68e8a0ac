// How far a long piece of work that is not a run's steps has got (routes planned for a hundred
// thousand agents at load take minutes), for the program around the library to show: a progress
// line, or a warning of the time left. The library reports; the program decides what to say. No
// reporter is set by default, and then a report costs one atomic load.
#pragma once

#include <cstdint>

namespace crowd {

/// Called as the work goes, from one thread at a time (not necessarily the same one), with the
/// items done and the total; `what` names the work ("planning routes"). Once more with done ==
/// total at the end.
using ProgressReporter = void (*)(const char* what, std::uint64_t done, std::uint64_t total);

/// Sets the process's reporter (nullptr: none).
void setProgressReporter(ProgressReporter reporter) noexcept;

/// Passes a report to the reporter, if one is set.
void reportProgress(const char* what, std::uint64_t done, std::uint64_t total);

}  // namespace crowd
