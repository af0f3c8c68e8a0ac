// Run metrics: safety (collisions, obstacle penetrations, minimum separation), progress
// (arrivals and when) and cost (milliseconds per phase).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <crowd/obstacles.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/simulator.hpp>

namespace crowd {

/// Contacts in one state.
struct ContactStats {
  /// Agent pairs closer than 99% of their combined radii.
  std::int64_t collisions = 0;
  /// Agents closer than 99% of their radius to an obstacle edge, or inside a solid polygon.
  std::int64_t penetrations = 0;
  /// Smallest distance / (ri + rj) over pairs closer than 1.5 combined radii (infinity when no
  /// pair is that close).
  double minSeparationRatio = std::numeric_limits<double>::infinity();
};

/// Counts contacts with a hashed grid: linear in the number of agents. `threads`: CPU threads
/// (0: OpenMP's default).
ContactStats measureContacts(std::span<const Vec2> positions, std::span<const float> radii,
                             const ObstacleSet& obstacles, int threads = 0);

/// Totals over a run.
struct RunMetrics {
  std::int64_t steps = 0;
  std::size_t initialAgents = 0;
  std::size_t agentsWithGoal = 0;
  std::size_t arrived = 0;
  double firstArrivalTime = -1;  ///< Seconds; -1 when nobody arrived.
  double lastArrivalTime = -1;
  double meanArrivalTime = -1;
  std::int64_t collisions = 0;    ///< Summed over steps (a pair counts once per step).
  std::int64_t penetrations = 0;  ///< Summed over steps.
  double minSeparationRatio = std::numeric_limits<double>::infinity();
  double meanSpeed = 0;  ///< Over all agents and observed steps.
  /// The largest speed / maxSpeed of any agent after any step: at most 1 unless exactRvo2 is
  /// set (RVO2's linear program can end a hair outside the maxSpeed disc, or further when a
  /// crushed crowd makes it fall back).
  double maxSpeedRatio = 0;
  std::int64_t speedClamps = 0;  ///< New velocities pulled back into the maxSpeed disc, summed.
  PhaseTimes totalMs;    ///< Summed over steps.
  std::vector<Arrival> arrivals;

  PhaseTimes meanMsPerStep() const;
  /// The metrics as a JSON document (arrival list included).
  std::string toJson(int indent = 2) const;
};

/// Watches a run: call observe() once before the first step (the initial state) and after every
/// step. `contacts` off skips the contact counts, for benchmarks.
class MetricsCollector {
 public:
  explicit MetricsCollector(bool contacts = true) : contacts_(contacts) {}
  void observe(const Simulator& sim);
  const RunMetrics& result() const { return metrics_; }

 private:
  bool contacts_;
  bool started_ = false;
  double speedSum_ = 0;
  double speedSamples_ = 0;
  RunMetrics metrics_;
};

}  // namespace crowd
