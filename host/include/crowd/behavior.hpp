// Steering behaviours: what an agent wants to do, which the steering phase turns into its
// preferred velocity (kernels/steering.hpp). The default, `goal`, is RVO2's rule and keeps
// RVO2's results bit for bit.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/kernels/behavior_kinds.hpp>
#include <crowd/kernels/frenet_settings.hpp>
#include <crowd/limits.hpp>
#include <crowd/motion_model.hpp>

namespace crowd {

/// One behaviour of a combination, with its weight in a weighted sum.
struct WeightedBehavior {
  BehaviorKind kind = BehaviorKind::Goal;
  float weight = 1.0f;  ///< [Limit: limits::kBehaviorWeight]

  auto operator<=>(const WeightedBehavior&) const = default;
};

/// An agent's behaviours and their parameters. Agents that share a Behavior (and AgentParams)
/// share one profile. Lengths in world units, times in seconds.
struct Behavior {
  /// At most kMaxBehaviors, each kind once. Seek, flee and arrive head for (away from) the
  /// agent's target when it has one, else its goal; pursue and evade need a target; follow
  /// needs a path.
  std::vector<WeightedBehavior> behaviors{WeightedBehavior{}};
  CombineRule combine = CombineRule::Sum;
  AvoidanceMode avoidance = AvoidanceMode::Orca;  ///< The motion model ("model" in scenario files).
  PursuitKind pursuit = PursuitKind::Intercept;
  /// A path added with Simulator::addPath, for `follow`; kOwnRoute: each agent follows its own
  /// route (Simulator::setRoute).
  int path = -1;
  float maxForce = 4.0f;  ///< Largest steering force. [Limit: limits::kForce]
  float mass = 1.0f;      ///< Force / mass is the acceleration. [Limit: limits::kMass]
  /// Arrive slows linearly inside this distance; raised to 4 * max(mass, timeStep) * prefSpeed
  /// if smaller, which is what stops an agent on its point without overshooting (steer_seek.hpp).
  /// [Limit: kSteeringLength]
  float slowingRadius = 5.0f;
  float pathRadius = 2.0f;        ///< How far from the path a follower may stray. [kSteeringLength]
  float lookAhead = 3.0f;         ///< How far ahead a follower predicts itself. [kSteeringLength]
  float wanderRadius = 1.5f;      ///< The wander circle's radius. [kSteeringLength]
  float wanderDistance = 3.0f;    ///< How far ahead the wander circle sits. [kSteeringLength]
  float wanderJitter = 2.0f;      ///< Largest turn of the wander target, rad/s. [kWanderJitter]
  float boxLength = 6.0f;         ///< Detection box length at rest (doubles at maxSpeed). [kSteeringLength]
  float separationRadius = 4.0f;  ///< Neighbours nearer than this push away. [kSteeringLength]
  /// Frenet: the agent follows trajectories planned along the reference line of `path` (or its
  /// own route) instead of the behaviours' forces; `frenet` sets the planner up (its targetSpeed
  /// and maxSpeed are ignored: the agent's prefSpeed and maxSpeed are used).
  LocalPlanner planner = LocalPlanner::None;
  FrenetSettings frenet{};
  /// The parameters of the motion model `avoidance` names (crowd/motion_model.hpp).
  ModelParams model{};

  auto operator<=>(const Behavior&) const = default;
  bool operator==(const Behavior&) const = default;

  /// Whether this is the default rule alone (RVO2's preferred velocity, no integration).
  bool goalOnly() const {
    return planner == LocalPlanner::None && behaviors.size() == 1 &&
           behaviors[0].kind == BehaviorKind::Goal && behaviors[0].weight == 1.0f;
  }
  /// Whether `kind` is among the behaviours.
  bool has(BehaviorKind kind) const;
};

/// One real-valued field of Behavior: its scenario key and its limit.
struct BehaviorField {
  std::string_view key;
  float Behavior::*value;
  Limit limit;
};

/// Every real-valued field of Behavior, as scenario files name them.
inline constexpr BehaviorField kBehaviorFields[] = {
    {"maxForce", &Behavior::maxForce, limits::kForce},
    {"mass", &Behavior::mass, limits::kMass},
    {"slowingRadius", &Behavior::slowingRadius, limits::kSteeringLength},
    {"pathRadius", &Behavior::pathRadius, limits::kSteeringLength},
    {"lookAhead", &Behavior::lookAhead, limits::kSteeringLength},
    {"wanderRadius", &Behavior::wanderRadius, limits::kSteeringLength},
    {"wanderDistance", &Behavior::wanderDistance, limits::kSteeringLength},
    {"wanderJitter", &Behavior::wanderJitter, limits::kWanderJitter},
    {"boxLength", &Behavior::boxLength, limits::kSteeringLength},
    {"separationRadius", &Behavior::separationRadius, limits::kSteeringLength},
};

/// One real-valued setting of the Frenet planner: its scenario key (under "frenet") and range.
struct FrenetField {
  std::string_view key;
  float FrenetSettings::*value;
  float min;
  float max;
};

/// The planner's settings as scenario files name them (the sample counts are integers apart).
inline constexpr FrenetField kFrenetFields[] = {
    {"laneHalfWidth", &FrenetSettings::laneHalfWidth, 0.0f, 1e3f},
    {"speedSpread", &FrenetSettings::speedSpread, 0.0f, 1e3f},
    {"minHorizon", &FrenetSettings::minHorizon, 0.05f, 60.0f},
    {"maxHorizon", &FrenetSettings::maxHorizon, 0.05f, 60.0f},
    {"weightJerk", &FrenetSettings::weightJerk, 0.0f, 1e6f},
    {"weightTime", &FrenetSettings::weightTime, 0.0f, 1e6f},
    {"weightDeviation", &FrenetSettings::weightDeviation, 0.0f, 1e6f},
    {"weightLateral", &FrenetSettings::weightLateral, 0.0f, 1e6f},
    {"weightLongitudinal", &FrenetSettings::weightLongitudinal, 0.0f, 1e6f},
    {"maxAcceleration", &FrenetSettings::maxAcceleration, 0.01f, 1e3f},
    {"maxCurvature", &FrenetSettings::maxCurvature, 0.001f, 1e3f},
    {"checkStep", &FrenetSettings::checkStep, 0.01f, 10.0f},
    {"margin", &FrenetSettings::margin, 0.0f, 1e3f},
    {"replanInterval", &FrenetSettings::replanInterval, 0.01f, 60.0f},
};

/// The planner's integer settings: candidates per axis, 1 to kMaxFrenetSamples.
struct FrenetCountField {
  std::string_view key;
  int FrenetSettings::*value;
};
inline constexpr FrenetCountField kFrenetCounts[] = {{"offsets", &FrenetSettings::offsets},
                                                     {"speeds", &FrenetSettings::speeds},
                                                     {"horizons", &FrenetSettings::horizons}};

/// Empty when `settings` are usable, else a sentence naming the first problem.
std::string checkFrenetSettings(const FrenetSettings& settings);

/// The refusal of the frenet planner on loop path `path`: its reference line has a start and an
/// end (a vehicle stops there), so a loop would be driven once and stopped at its seam.
std::string loopPlannerProblem(int path);

/// The behaviour named `name` ("goal", "seek", ..., as kBehaviorNames), if any.
std::optional<BehaviorKind> behaviorKindNamed(std::string_view name);
/// The pursuit rule named `name` ("chase", "sight", "intercept"), if any.
std::optional<PursuitKind> pursuitKindNamed(std::string_view name);
std::string_view behaviorName(BehaviorKind kind);
std::string_view pursuitName(PursuitKind kind);
/// "goal, seek, ..." for messages.
std::string behaviorNameList();

/// Empty when `behavior` is usable with `pathCount` paths defined; otherwise a sentence naming
/// the first problem: no behaviours or too many, a kind listed twice, a weight or parameter
/// outside its limit, `follow` without a path or with an unknown one.
std::string checkBehavior(const Behavior& behavior, int pathCount);

/// As checkBehavior, for a 3D world's agent: only goal, seek, flee, arrive, separation, pursue,
/// evade and wander steer there (kernels/steering_3d.hpp); no path, no planner.
std::string checkBehavior3(const Behavior& behavior);

}  // namespace crowd
