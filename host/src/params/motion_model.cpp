// The motion models' parameters (crowd/motion_model.hpp): names, checks, derived ranges.
#include <algorithm>
#include <cmath>
#include <numbers>

#include <crowd/motion_model.hpp>

namespace crowd {

std::optional<AvoidanceMode> motionModelNamed(std::string_view name) {
  for (int m = 0; m < kAvoidanceModeCount; ++m) {
    if (name == kAvoidanceModeNames[m]) return static_cast<AvoidanceMode>(m);
  }
  return std::nullopt;
}

std::string_view motionModelName(AvoidanceMode model) {
  const int m = static_cast<int>(model);
  return m >= 0 && m < kAvoidanceModeCount ? kAvoidanceModeNames[m] : "unknown";
}

float modelWallRange(float radius, const ModelParams& params) {
  return radius + 10.0f * std::max(params.wallRepulsionRange, params.socialRange);
}

std::string checkModelParams(const ModelParams& params) {
  for (const ModelField& field : kModelFields) {
    if (std::string problem = checkLimit(params.*field.value, field.limit, field.key.data());
        !problem.empty()) {
      return problem;
    }
  }
  return {};
}

int densitySpeedNeighbors(const ModelParams& params) {
  const double area = std::numbers::pi * static_cast<double>(params.densityRadius) * params.densityRadius;
  return static_cast<int>(std::ceil(5.4 * area)) - 1;
}

float socialForceMaxTimeStep(const ModelParams& params) {
  // Semi-implicit Euler keeps one spring of stiffness s stable below 2 / sqrt(s / m); a body
  // pressed from several sides at once is stiffer, so half that. The stiffness is the body
  // force plus the exponential repulsion's slope at contact (A / B).
  const double stiffness =
      static_cast<double>(params.bodyForce) +
      static_cast<double>(params.socialStrength) / static_cast<double>(params.socialRange);
  return static_cast<float>(1.0 / std::sqrt(stiffness / static_cast<double>(params.bodyMass)));
}

}  // namespace crowd
