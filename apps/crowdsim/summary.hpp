// The summary a run prints: what ran, arrivals, safety, speeds and the cost per phase, onto `out`
// (stdout, or stderr where an output of the run goes to stdout).
#pragma once

#include <cstdio>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd::cli {

void printSummary(std::FILE* out, const Scenario& scenario, const Simulator& sim, const RunMetrics& m,
                  int threads, double wallSeconds);
void printSummary(std::FILE* out, const Scenario3& scenario, const Simulator3& sim, const RunMetrics& m,
                  int threads, double wallSeconds);

}  // namespace crowd::cli
