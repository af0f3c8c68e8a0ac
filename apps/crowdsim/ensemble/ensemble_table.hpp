// An ensemble's outputs: the table (CSV, one row per run in run order) and the summary (JSON:
// for each combination of the varied parameters, each column's statistics over its successful
// runs and the runs the mean of its time column needed to settle).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ensemble/ensemble_plan.hpp"
#include "ensemble/run_record.hpp"

namespace crowd::cli {

/// The CSV table of `records` (sorted by run): run, seed, one column per variation, status
/// (ok or failed), attempts, the figures (the union of the runs' columns, in the order they first
/// appear; empty where a run has none), and the failed runs' error last. Numbers are written as
/// JSON writes them, so that a cell reads back as the double the run's metrics hold.
std::string ensembleTable(const std::vector<Variation>& variations, const std::vector<RunRecord>& records);

/// The column the stable mean follows: evacuation_time_s where any successful run has one, else
/// simulated_time_s.
std::string stableMeanColumn(const std::vector<RunRecord>& records);

/// The summary of `records` (sorted by run) as JSON, one group per combination of the varied
/// values: its runs (ok and failed), each numeric column's count, mean, standard deviation, min,
/// p5, p50, p95 and max over the successful runs, and runs for a stable mean of the stable-mean
/// column within `tolerance` (statistics.hpp).
nlohmann::json ensembleSummary(const std::vector<Variation>& variations,
                               const std::vector<RunRecord>& records, double tolerance);

/// A few lines for the terminal: per group its runs and the stable-mean column's mean, spread
/// and percentiles, and the runs for a stable mean.
std::string summaryText(const nlohmann::json& summary);

}  // namespace crowd::cli
