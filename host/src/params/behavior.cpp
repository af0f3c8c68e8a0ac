#include <algorithm>
#include <string>

#include <crowd/behavior.hpp>
#include <crowd/kernels/steering_3d.hpp>

#include "params/number_text.hpp"

namespace crowd {

bool Behavior::has(BehaviorKind kind) const {
  return std::any_of(behaviors.begin(), behaviors.end(),
                     [kind](const WeightedBehavior& b) { return b.kind == kind; });
}

std::optional<BehaviorKind> behaviorKindNamed(std::string_view name) {
  for (int i = 0; i < kBehaviorKindCount; ++i) {
    if (name == kBehaviorNames[i]) return static_cast<BehaviorKind>(i);
  }
  return std::nullopt;
}

std::optional<PursuitKind> pursuitKindNamed(std::string_view name) {
  for (int i = 0; i < kPursuitKindCount; ++i) {
    if (name == kPursuitNames[i]) return static_cast<PursuitKind>(i);
  }
  return std::nullopt;
}

std::string_view behaviorName(BehaviorKind kind) {
  return kBehaviorNames[static_cast<int>(kind)];
}
std::string_view pursuitName(PursuitKind kind) {
  return kPursuitNames[static_cast<int>(kind)];
}

std::string behaviorNameList() {
  std::string list;
  for (int i = 0; i < kBehaviorKindCount; ++i) list += std::string(i > 0 ? ", " : "") + kBehaviorNames[i];
  return list;
}

std::string checkFrenetSettings(const FrenetSettings& settings) {
  for (const FrenetField& field : kFrenetFields) {
    const float v = settings.*field.value;
    if (!(v >= field.min && v <= field.max)) {
      return "frenet." + std::string(field.key) + " is " + formatFloat(v) + "; it must be between " +
             formatFloat(field.min) + " and " + formatFloat(field.max);
    }
  }
  for (const FrenetCountField& field : kFrenetCounts) {
    const int v = settings.*field.value;
    if (v < 1 || v > kMaxFrenetSamples) {
      return "frenet." + std::string(field.key) + " is " + std::to_string(v) + "; it must be 1 to " +
             std::to_string(kMaxFrenetSamples);
    }
  }
  if (settings.minHorizon > settings.maxHorizon) return "frenet.minHorizon is above frenet.maxHorizon";
  if (settings.checkStep > settings.maxHorizon) return "frenet.checkStep is longer than frenet.maxHorizon";
  return {};
}

std::string loopPlannerProblem(int path) {
  return "path " + std::to_string(path) +
         " is a loop; the frenet planner needs an open path (its reference line ends, and the vehicle "
         "stops there): give an open path, or use \"follow\" to lap a loop";
}

std::string checkBehavior(const Behavior& behavior, int pathCount) {
  const auto count = behavior.behaviors.size();
  if (count == 0) return "behavior needs at least one behaviour";
  if (count > static_cast<std::size_t>(kMaxBehaviors)) {
    return "behavior lists " + std::to_string(count) + " behaviours; at most " +
           std::to_string(kMaxBehaviors) + " can be combined";
  }
  for (std::size_t i = 0; i < count; ++i) {
    const WeightedBehavior& b = behavior.behaviors[i];
    if (static_cast<int>(b.kind) >= kBehaviorKindCount)
      return "behavior " + std::to_string(i) + " is unknown";
    for (std::size_t j = 0; j < i; ++j) {
      if (behavior.behaviors[j].kind == b.kind) {
        return "behavior lists \"" + std::string(behaviorName(b.kind)) + "\" twice";
      }
    }
    if (const std::string problem = checkLimit(b.weight, limits::kBehaviorWeight, "weight");
        !problem.empty()) {
      return std::string(behaviorName(b.kind)) + " " + problem;
    }
  }
  for (const BehaviorField& field : kBehaviorFields) {
    if (const std::string problem = checkLimit(behavior.*field.value, field.limit, field.key.data());
        !problem.empty()) {
      return problem;
    }
  }
  if (static_cast<int>(behavior.avoidance) >= kAvoidanceModeCount) return "the motion model is unknown";
  if (const std::string problem = checkModelParams(behavior.model); !problem.empty()) return problem;
  if (behavior.planner == LocalPlanner::Frenet) {
    if (const std::string problem = checkFrenetSettings(behavior.frenet); !problem.empty()) return problem;
  }
  // Lengths that these behaviours divide by or aim with: 0 would leave them nothing to do.
  if (behavior.has(BehaviorKind::FollowPath) && !(behavior.lookAhead > 0.0f)) {
    return "follow needs a lookAhead above 0 (it aims half a lookAhead further along the path)";
  }
  if (behavior.has(BehaviorKind::AvoidObstacles) && !(behavior.boxLength > 0.0f)) {
    return "avoid needs a boxLength above 0 (the detection box's length at rest)";
  }
  if (behavior.path == kOwnRoute) return {};  // Each agent's own route, set per agent.
  if (behavior.planner == LocalPlanner::Frenet && behavior.path < 0) return "the frenet planner needs a path";
  if (behavior.has(BehaviorKind::FollowPath) || behavior.planner == LocalPlanner::Frenet) {
    if (behavior.path < 0) return "follow needs a path";
    if (behavior.path >= pathCount) {
      return "path " + std::to_string(behavior.path) + " does not exist (" + std::to_string(pathCount) +
             " paths are defined)";
    }
  } else if (behavior.path < -1 || behavior.path >= pathCount) {
    return "path " + std::to_string(behavior.path) + " does not exist";
  }
  return {};
}

std::string checkBehavior3(const Behavior& behavior) {
  for (const WeightedBehavior& b : behavior.behaviors) {
    if (!steersIn3d(b.kind)) {
      return std::string("behaviour '") + kBehaviorNames[static_cast<int>(b.kind)] +
             "' is planar for now; in 3D: goal, seek, flee, arrive, separation, pursue, evade, wander";
    }
  }
  if (behavior.planner != LocalPlanner::None) return "the frenet planner is planar for now";
  if (behavior.avoidance == AvoidanceMode::Csm || behavior.avoidance == AvoidanceMode::SocialForce) {
    return "model '" + std::string(motionModelName(behavior.avoidance)) +
           "' is planar for now; in 3D: orca or none";
  }
  if (behavior.model.densitySpeed) return "densitySpeed is planar for now";
  return checkBehavior(behavior, 0);
}

}  // namespace crowd
