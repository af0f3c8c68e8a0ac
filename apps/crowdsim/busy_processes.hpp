// Processes that keep cores busy, for benchmarks of how the step copes with a loaded machine
// (`crowdsim bench --busy N`): a build, a browser or another job on a laptop, a shared server or
// a CI runner. Each is a child that spins until this object is destroyed, or its parent dies.
#pragma once

#include <sys/types.h>

#include <vector>

namespace crowd::cli {

class BusyProcesses {
 public:
  /// Starts `count` spinning children. Throws std::runtime_error when one cannot be started.
  explicit BusyProcesses(int count);
  ~BusyProcesses();
  BusyProcesses(const BusyProcesses&) = delete;
  BusyProcesses& operator=(const BusyProcesses&) = delete;

  int count() const { return static_cast<int>(children_.size()); }

 private:
  void stop();  // Kills and reaps every child.

  std::vector<pid_t> children_;
};

}  // namespace crowd::cli
