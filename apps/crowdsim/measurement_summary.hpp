// What a run measured in its scenario's areas and lines ("measure"), in a few lines after the run's
// summary: the fundamental diagram's figures over the second half of the run, where a crowd that
// started in place has had time to settle, and each line's crossings and flow over the whole run.
#pragma once

#include <cstdio>

#include <crowd/measurement.hpp>

namespace crowd::cli {

/// First and last instants observed (0 and 0 before any).
struct MeasuredSpan {
  double first = 0;
  double last = 0;
};
MeasuredSpan measuredSpan(const Measurements& measurements);

/// Per area: the mean classic and Voronoi density and speed over the samples of the second half
/// of the run with someone there (meanFundamental); per line: crossings forward and backward and
/// the flow each way over the whole run, per second and per metre of line; onto `out`.
void printMeasurementSummary(std::FILE* out, const Measurements& measurements);

}  // namespace crowd::cli
