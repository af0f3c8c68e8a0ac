// One verification run: people on a floor (geometry.hpp), each walking through a list of gates
// (a doorway, the line where a corridor turns, an exit) as a test's stages say, with one motion
// model. Every observation interval (0.1 s) the run
//  - points each walker at the nearest point of its next gate (less a body's margin from its
//    ends) and a metre beyond, at its own preferred speed: the way JuPedSim's waypoints and
//    exits steer, so that a crowd spreads over a corridor's width instead of converging on a
//    point. Where a wall stands between the walker and that point it first heads for the point
//    level with it, along the wall. A gate is passed once the walker's centre stands
//    kGateClearance beyond it and between its ends (in the strip the gate opens onto): its body
//    is through the doorway before it turns for the next. One that the crowd pushes through the
//    door of a side room off its way (RiMEA 10's narrow corridor) first leaves that room again
//    by its door;
//  - notes who crossed an exit, and when (interpolated), and removes them 1.5 m further on;
//  - notes anyone whose centre left the floor other than through an exit: through a wall;
//  - feeds the test's measurement areas and lines (crowd/measurement.hpp), in world coordinates,
//    and, when asked, the closest pair of bodies (crowd/metrics.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <crowd/exit_choice.hpp>
#include <crowd/measurement.hpp>
#include <crowd/simulator.hpp>

#include "geometry.hpp"
#include "verify_test.hpp"

namespace crowd::cli::verify {

/// How far past a gate a walker's centre must be before it heads for the next: a body's radius,
/// so that it does not turn while still in the doorway (and two walkers crossing a 1 m corridor
/// from opposite doors can both pass their gates).
inline constexpr float kGateClearance = 0.2f;

/// The gates a walker crosses in turn; empty: it keeps its initial preferred velocity.
using Route = std::vector<Segment>;

struct Person {
  Vec2 position{0.0f, 0.0f};
  Vec2 prefVelocity{0.0f, 0.0f};  ///< Used only without a route.
  float prefSpeed = 1.34f;
  Route route;
  float startTime = 0.0f;  ///< Premovement: it stands until then, s.
};

struct Walker {
  AgentId id;
  float prefSpeed = 0.0f;
  Route route;
  std::size_t stage = 0;         ///< The gate it is heading for; route.size() once past the last.
  std::vector<double> passedAt;  ///< When it passed each gate of its route so far, s.
  Vec2 position{0.0f, 0.0f};
  /// The first observation at which it walked at half its preferred speed (a neighbour's push
  /// does not move one who stands that fast); -1 before.
  double setOffAt = -1.0;
  int exit = -1;  ///< Which of the floor's exits it left by; -1 while on the floor.
  double exitTime = -1.0;
  bool strayed = false;  ///< Its centre left the floor through a wall.
};

class FloorRun {
 public:
  /// Builds the scenario (scenarioDocument), reads it as a scenario file and makes the
  /// simulator. `interval`: seconds between observations (a whole number of steps).
  FloorRun(const Floor& floor, const Settings& settings, Model model, std::uint64_t seed,
           const std::vector<Person>& people, double interval = 0.1);
  ~FloorRun();
  FloorRun(const FloorRun&) = delete;
  FloorRun& operator=(const FloorRun&) = delete;

  /// Measure these areas and lines at every observation from now on.
  void measure(MeasurementPlan plan);
  /// Track the closest pair of bodies (distance over the sum of radii) at every observation.
  void trackClosestPair() { trackPairs_ = true; }
  /// From now on, walkers heading for their last gate, when that is one of the floor's exits,
  /// choose among all the floor's exits by `rule` (crowd/exit_choice.hpp, the rule the
  /// simulator's navigation applies), from their straight-line distance to each: now and every
  /// rule.every seconds. `hours`: exits (matched by their midpoint) open only at those times;
  /// nobody is sent to a closed one, and those heading for one that closes choose again at once.
  void chooseExits(const ExitChoice& rule, std::vector<ExitHours> hours = {});

  /// Steps until `seconds` have been simulated.
  void runUntil(double seconds);
  /// Steps until every walker has left by an exit (true) or `limit` seconds have passed.
  bool runUntilEmpty(double limit);
  /// Steps while `going()` says so, up to `limit` seconds.
  void runWhile(const std::function<bool()>& going, double limit);

  double time() const { return time_; }
  const std::vector<Walker>& walkers() const { return walkers_; }
  std::size_t leftCount() const { return left_; }
  std::size_t strayedCount() const { return strayed_; }
  /// When the last walker left; -1 when some never did.
  double lastExitTime() const;
  /// Exit times, sorted.
  std::vector<double> exitTimes() const;
  double closestPair() const { return closestPair_; }
  const Measurements& measurements() const { return *measurements_; }

 private:
  void observe();
  void reconsiderExits();
  Vec2 world(Vec2 p) const;

  const Floor& floor_;
  Simulator sim_;
  glm::dvec2 origin_;
  int stepsPerObservation_ = 1;
  double interval_ = 0.1;
  double time_ = 0.0;
  int threads_ = 0;
  std::vector<Walker> walkers_;
  std::size_t left_ = 0;
  std::size_t strayed_ = 0;
  bool trackPairs_ = false;
  double closestPair_ = std::numeric_limits<double>::infinity();
  std::unique_ptr<Measurements> measurements_;
  std::optional<ExitChoice> exitChoice_;
  std::vector<ExitHours> exitHours_;
  std::vector<bool> exitOpen_;  // Per floor exit, at the last choice.
  double nextChoice_ = 0.0;
};

/// The steady flow through a line from sorted crossing times: persons per second between the
/// crossings at 10% and 90% of the crowd (the transients of the first and last few left out);
/// 0 for fewer than 10 crossings.
double steadyFlow(const std::vector<double>& times);

}  // namespace crowd::cli::verify
