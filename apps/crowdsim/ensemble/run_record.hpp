// One finished run of an ensemble: which run it was, how it went, and its figures, taken from the
// metrics document `crowdsim run --metrics` writes for the same target, seed and parameters. A
// record travels as one line of JSON: between MPI ranks and into the journal a stopped ensemble
// resumes from, and it comes back from that line bit for bit (JSON keeps a double's 17 digits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace crowd::cli {

/// One named figure of a run: a number, or null where the run has none (no arrival time when
/// nobody arrived).
struct RunFigure {
  std::string column;
  nlohmann::json value;
};

struct RunRecord {
  std::size_t index = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> values;  ///< The varied parameters' values, in the order of --vary.
  bool ok = false;
  int attempts = 0;
  std::string error;               ///< The last attempt's error, for a failed run.
  std::vector<RunFigure> figures;  ///< Empty for a failed run.
};

/// The figures of a run's metrics document (as run.cpp writes it): steps, simulated time, agents,
/// arrivals and arrival times (evacuation_time_s is the last arrival), contacts, speed, and for
/// each measurement line its forward crossings and flow, for each area its peak density.
std::vector<RunFigure> figuresOfMetrics(const nlohmann::json& metrics);

/// The record as one line of JSON (no newline), and back. fromJournalLine throws
/// nlohmann::json::exception for a line that is no record.
std::string toJournalLine(const RunRecord& record);
RunRecord fromJournalLine(const std::string& line);

}  // namespace crowd::cli
