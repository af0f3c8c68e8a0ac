// The free functions of crowd/navigation.hpp.
#include <cmath>

#include <crowd/limits.hpp>
#include <crowd/navigation.hpp>

#include "params/number_text.hpp"

namespace crowd {

std::string navigationOptionsProblem(const NavigationOptions& options) {
  if (options.radius && !(*options.radius >= 0.0f && *options.radius <= limits::kRadius.max)) {
    return "radius must be within [0, " + formatNumber(limits::kRadius.max) + "]";
  }
  if (!(options.planner.clearanceMargin >= 0.0f && options.planner.clearanceMargin <= limits::kRadius.max)) {
    return "clearanceMargin must be within [0, " + formatNumber(limits::kRadius.max) + "]";
  }
  if (options.planner.sharedFieldThreshold < 1) return "sharedFieldThreshold must be >= 1";
  if (!(options.replanAfter >= 0.0f && options.replanAfter <= limits::kReplanAfter.max)) {
    return "replanAfter must be within [0, " + formatNumber(limits::kReplanAfter.max) + "] seconds";
  }
  if (!(options.replanDistance > 0.0f && options.replanDistance <= limits::kRadius.max)) {
    return "replanDistance must be > 0 and at most " + formatNumber(limits::kRadius.max);
  }
  if (!(options.checkEvery > 0.0f && std::isfinite(options.checkEvery)))
    return "checkEvery must be > 0 and finite";
  const ExitChoice& choice = options.exitChoice;
  if (!(choice.exitFlow > 0.0f && std::isfinite(choice.exitFlow))) return "exitFlow must be > 0 and finite";
  if (!(choice.every > 0.0f && std::isfinite(choice.every)))
    return "exit choice's every must be > 0 and finite";
  if (!(choice.margin >= 0.0f && std::isfinite(choice.margin)))
    return "exit choice's margin must be >= 0 and finite";
  for (const ExitHours& hours : options.exitHours) {
    if (!std::isfinite(hours.at.x) || !std::isfinite(hours.at.y)) return "an exit's position must be finite";
    if (!(hours.opens >= 0.0f && std::isfinite(hours.opens) && hours.opens < hours.closes)) {
      return "an exit's hours need 0 <= opens < closes, got " + formatNumber(hours.opens) + " to " +
             formatNumber(hours.closes);
    }
  }
  return {};
}

Behavior followingOwnRoute(const Behavior& behavior) {
  if (!behavior.goalOnly()) return behavior;
  Behavior follow = behavior;
  // Reynolds' path following along its own route; it arrives at the route's open end.
  follow.behaviors = {WeightedBehavior{BehaviorKind::FollowPath, 1.0f}};
  follow.path = kOwnRoute;
  return follow;
}

std::size_t cutRoute(std::span<const Vec2> route, float maxPiece, std::vector<Vec2>& out) {
  const std::size_t begin = out.size();
  for (const Vec2 point : route) {
    // A path may not repeat a point (a segment of zero length has no direction).
    if (out.size() > begin && out.back() == point) continue;
    if (out.size() > begin) {
      const Vec2 from = out.back();
      const auto pieces = static_cast<int>(std::ceil(static_cast<double>(length(point - from)) / maxPiece));
      for (int k = 1; k < pieces; ++k) {
        const Vec2 between = from + (point - from) * (static_cast<float>(k) / static_cast<float>(pieces));
        if (between != out.back() && between != point) out.push_back(between);
      }
    }
    out.push_back(point);
  }
  return out.size() - begin;
}

}  // namespace crowd
