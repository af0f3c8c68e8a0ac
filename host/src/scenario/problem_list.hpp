// Every problem of a scenario file, not only the first: the readers and checks try each entry on
// its own (an agent, a group, an obstacle, a section), keep what it refuses and go on, and refuse
// the file at the end with all of them, so that one run of `crowdsim validate` finds them all.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <crowd/scenario_spec.hpp>

namespace crowd::scenario_detail {

class ProblemList {
 public:
  /// The problems a refusal lists; past them it says how many more there were.
  static constexpr std::size_t kShown = 20;

  /// Runs `check`, keeping the ScenarioError it throws. Returns whether it passed.
  template <class Check>
  bool attempt(Check&& check) {
    try {
      check();
      return true;
    } catch (const ScenarioError& e) {
      if (problems_.size() < kShown) problems_.emplace_back(e.what());
      ++count_;
      return false;
    }
  }

  bool empty() const { return count_ == 0; }
  /// Problems found so far (shown or not).
  std::size_t count() const { return count_; }

  /// Throws a ScenarioError holding every problem kept: one as it was reported; several as
  /// "<source>: N problems" and then one a line.
  void throwIfAny(const std::string& source) const {
    if (count_ == 0) return;
    if (count_ == 1) throw ScenarioError(problems_.front());
    std::string message = source + ": " + std::to_string(count_) + " problems";
    for (const std::string& problem : problems_) message += "\n  " + problem;
    if (count_ > problems_.size())
      message += "\n  and " + std::to_string(count_ - problems_.size()) + " more";
    throw ScenarioError(message);
  }

 private:
  std::vector<std::string> problems_;
  std::size_t count_ = 0;
};

}  // namespace crowd::scenario_detail
