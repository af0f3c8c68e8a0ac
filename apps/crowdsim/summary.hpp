// The summary a run prints: what ran, arrivals, safety, speeds and the cost per phase.
#pragma once

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd::cli {

void printSummary(const Scenario& scenario, const Simulator& sim, const RunMetrics& m, int threads,
                  double wallSeconds);
void printSummary(const Scenario3& scenario, const Simulator3& sim, const RunMetrics& m, int threads,
                  double wallSeconds);

}  // namespace crowd::cli
