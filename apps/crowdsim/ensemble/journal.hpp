// The journal of an ensemble: TABLE.journal beside the table, a first line that says which
// ensemble it belongs to (its arguments) and then one line of JSON per finished run, each flushed
// as it is written, in the order the runs finished. An ensemble that is stopped (Ctrl-C, a killed
// job) leaves it behind; run again with the same arguments it takes the runs found there and runs
// only the others. Once the table is in place the journal is removed.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ensemble/run_record.hpp"

namespace crowd::cli {

/// The journal's path for the table at `tablePath`.
std::string journalPath(const std::string& tablePath);

class Journal {
 public:
  /// Opens the journal at `path` for the ensemble `arguments` describes, planned as `runs` runs.
  /// An existing journal's runs are kept (a last line cut off mid-write is dropped) and
  /// rewritten, with the first line, into a fresh file that later runs are appended to. Throws
  /// std::invalid_argument when an existing journal belongs to other arguments (saying which
  /// differ) or is no journal, std::runtime_error when it cannot be written.
  Journal(std::string path, const nlohmann::json& arguments, std::size_t runs);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  /// The runs the journal held when opened, in the order they finished.
  const std::vector<RunRecord>& resumed() const { return resumed_; }
  /// Appends a finished run and flushes it to the disk's cache. Throws std::runtime_error.
  void append(const RunRecord& record);
  /// Closes and removes the journal (the table holds everything now).
  void remove();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<RunRecord> resumed_;
};

}  // namespace crowd::cli
