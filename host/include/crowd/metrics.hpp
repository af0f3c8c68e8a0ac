// Run metrics: safety (collisions, obstacle penetrations, minimum separation), progress
// (arrivals and when, captures by pursuers, how closely followers keep to their paths) and cost
// (milliseconds per phase).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <crowd/navigation.hpp>
#include <crowd/obstacles.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd {

/// Contacts in one state.
struct ContactStats {
  /// Agent pairs closer than 99% of their combined radii.
  std::int64_t collisions = 0;
  /// Agents closer than 99% of their radius to an obstacle edge or a circular obstacle's disc,
  /// or inside a solid polygon. (A circle is measured as its disc, not as the polygon ORCA sees.)
  std::int64_t penetrations = 0;
  /// Smallest distance / (ri + rj) over pairs closer than 1.5 combined radii (infinity when no
  /// pair is that close).
  double minSeparationRatio = std::numeric_limits<double>::infinity();
};

/// Throws std::invalid_argument unless there is a radius for every position, each radius is
/// within limits::kRadius (a simulator's agents always are) and `threads` is 0 to kMaxThreads:
/// the measures below check their inputs with it.
void checkContactInputs(std::size_t positions, std::span<const float> radii, int threads);

/// Counts contacts with a hashed grid: linear in the number of agents. `threads`: CPU threads
/// (0: OpenMP's default). Throws as checkContactInputs.
ContactStats measureContacts(std::span<const Vec2> positions, std::span<const float> radii,
                             const ObstacleSet& obstacles, int threads = 0);

/// The same in a 3D world: pairs of spheres closer than 99% of their combined radii, and the
/// smallest separation ratio among pairs within 1.5 combined radii (every pair, as in the plane).
/// Throws as checkContactInputs.
ContactStats measureContacts3(std::span<const Vec3> positions, std::span<const float> radii, int threads = 0);

/// A pursuer has caught its target when their centres come within this many times their
/// combined radii (ORCA keeps them from touching, so "touching" would never happen).
inline constexpr double kCaptureFactor = 1.05;

/// Captures by the pursuers of one pursuit rule (PursuitKind).
struct CaptureStats {
  std::size_t pursuers = 0;  ///< Agents seen with `pursue` among their behaviours and this rule.
  std::size_t caught = 0;    ///< Of them, those that came within capture distance of their live target.
  double meanTime = -1;      ///< Seconds to each one's first capture, over the caught; -1 when none.
  double maxTime = -1;       ///< The latest first capture, seconds; -1 when none.
};

/// How closely the agents that follow a path keep to it, over the observed steps.
struct PathStats {
  std::size_t followers = 0;    ///< Agents seen with `follow` among their behaviours.
  std::int64_t agentSteps = 0;  ///< Follower positions measured (one per follower per step).
  double meanDistance = -1;     ///< Mean distance from a follower to its path; -1 when none measured.
  double withinRadius = -1;     ///< Share of agentSteps within the follower's pathRadius; -1 when none.
};

/// One agent with the Frenet planner (Behavior::planner), over the steps it was measured in.
struct PlannerAgentStats {
  AgentId id;
  std::int64_t steps = 0;     ///< Steps after which its deviation was measured.
  double meanDeviation = -1;  ///< Mean distance to its reference line; -1 when never measured.
  double maxDeviation = -1;   ///< -1 when never measured.
  bool arrived = false;       ///< Whether it reached its goal (removed or not since).
  double arrivalTime = -1;    ///< Seconds to its first arrival; -1 when it did not arrive.
};

/// How far the agents with the Frenet planner stray from their reference lines
/// (Simulator::referenceLine of their path or own route), and how many arrived.
struct PlannerStats {
  std::size_t count = 0;                  ///< Agents seen with the Frenet planner.
  std::int64_t agentSteps = 0;            ///< Planner positions measured (one per planner per step).
  double meanDeviation = -1;              ///< Over all agentSteps; -1 when none measured.
  double maxDeviation = -1;               ///< -1 when none measured.
  std::size_t arrived = 0;                ///< Of the count, those that reached their goal.
  std::vector<PlannerAgentStats> agents;  ///< In the order they were first seen.

  /// "8: deviation mean 0.31, max 2.45 (from their reference lines); 8 arrived", for the summary.
  std::string summary() const;
};

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
  PhaseTimes totalMs;            ///< Summed over steps.
  std::vector<Arrival> arrivals;
  std::array<CaptureStats, kPursuitKindCount> captures;  ///< Indexed by PursuitKind.
  PathStats paths;
  PlannerStats planners;
  /// Routes planned while running (Simulator::navigationStats), when the simulator navigates.
  std::optional<NavigationStats> navigation;
  /// Agents with goals no route reaches (they stand): those found when the scenario was routed
  /// (MetricsCollector::setUnreachableAtStart) plus those found while running.
  std::size_t unreachable = 0;

  /// Whether any agent pursued (there is something to say about captures).
  bool hasPursuers() const;

  PhaseTimes meanMsPerStep() const;
  /// The metrics as a JSON document (arrival list included).
  std::string toJson(int indent = 2) const;
};

/// What a run's metrics document says of the run beside its figures.
struct RunFacts {
  std::string scenario;  ///< The scenario's name ("builtin:circle", a file's path).
  std::uint64_t seed = 0;
  std::vector<std::string> warnings;  ///< The scenario's, printed or not.
  int dimensions = 2;
  std::string backend;
  double timeStep = 0.0;  ///< s.
};

/// The metrics document of a run, as `crowdsim run --metrics` writes it and Python's
/// Simulator.metrics() returns it: RunMetrics::toJson with the run's facts and crowd's version
/// and git revision (crowd/version.hpp) beside the figures.
std::string runMetricsJson(const RunMetrics& metrics, const RunFacts& facts, int indent = 2);

/// Follows pursuers, path followers and planners from one observed state to the next
/// (behavior_metrics.cpp): captures are looked for in every state, the initial one included; path
/// distances and planner deviations after steps (planners are counted from the initial state on,
/// so that one that arrives and is removed in the first step is still reported).
class BehaviorTracker {
 public:
  void observe(const Simulator& sim, bool afterStep, RunMetrics& metrics);

 private:
  struct Pursuer {
    std::uint32_t generation = 0;
    bool seen = false;
    bool caught = false;
    PursuitKind kind = PursuitKind::Intercept;  ///< As first seen.
  };
  void observePursuer(const Simulator& sim, AgentId id, const Behavior& behavior, RunMetrics& metrics);
  void observeFollower(const Simulator& sim, AgentId id, Vec2 position, const Behavior& behavior,
                       RunMetrics& metrics);
  struct Planner {
    std::uint32_t generation = 0;
    bool seen = false;
    std::size_t slot = 0;  ///< Its entry in RunMetrics::planners.agents.
    double deviationSum = 0;
    /// The segment of its reference line found nearest last time, searched around next time;
    /// valid while the agent follows the path it was found on (a path's line never changes).
    std::size_t hint = 0;
    int hintPath = -1;  ///< -1: no hint yet.
  };
  void observePlanner(const Simulator& sim, AgentId id, Vec2 position, const Behavior& behavior,
                      bool afterStep, RunMetrics& metrics);
  void observePlannerArrivals(const Simulator& sim, RunMetrics& metrics);

  std::vector<Pursuer> pursuers_;  // By AgentId::index.
  std::array<double, kPursuitKindCount> captureTimeSum_{};
  std::vector<std::uint32_t> followerSeen_;  // By AgentId::index: generation + 1 of the follower seen, or 0.
  double distanceSum_ = 0;
  std::int64_t within_ = 0;
  std::vector<Planner> planners_;  // By AgentId::index.
  double deviationSum_ = 0;
};

/// Watches a run: call observe() once before the first step (the initial state) and after every
/// step. `contacts` off skips the contact counts, for benchmarks.
class MetricsCollector {
 public:
  explicit MetricsCollector(bool contacts = true) : contacts_(contacts) {}
  void observe(const Simulator& sim);
  /// The same for a 3D world (no obstacles, so no penetrations; no behaviours to track).
  void observe(const Simulator3& sim);
  /// Agents the scenario's routing left standing (Scenario::unreachableAgents).
  void setUnreachableAtStart(std::size_t count) {
    unreachableAtStart_ = count;
    metrics_.unreachable = count;
  }
  const RunMetrics& result() const { return metrics_; }

 private:
  /// What both worlds record alike: the start (returns false), or a step's arrivals, phase times,
  /// speeds and clamps (returns true).
  template <class Vector>
  bool recordCommon(const BasicSimulator<Vector>& sim);
  void start(std::size_t agents, std::size_t withGoal);
  void recordStep(std::int64_t steps, const PhaseTimes& times, double timeStep,
                  const std::vector<Arrival>& arrivals);
  void recordSpeed(double speed, float maxSpeed);
  void finishStep(std::size_t agents);
  void recordContacts(const ContactStats& c);

  bool contacts_;
  bool started_ = false;
  std::size_t unreachableAtStart_ = 0;
  double speedSum_ = 0;
  double speedSamples_ = 0;
  BehaviorTracker behavior_;
  RunMetrics metrics_;
};

}  // namespace crowd
