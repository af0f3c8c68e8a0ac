// The motion models' parameters: what turns an agent's desired velocity (from its steering,
// route or planner) into its next velocity. The model itself is Behavior::avoidance ("model" in
// scenario files: orca, csm, socialforce or none); these are its parameters, with the published
// defaults, in SI units (metres, seconds, kilograms, newtons). See docs/models.md.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

#include <crowd/kernels/behavior_kinds.hpp>
#include <crowd/limits.hpp>

namespace crowd {

namespace limits {
/// A model's time constants: the CSM's time gap, the social force's relaxation time.
inline constexpr Limit kModelTime{"the model time limit", 1e-3f, 1e3f};
/// Repulsion strengths (dimensionless for the CSM, newtons for the social force).
inline constexpr Limit kModelStrength{"the model strength limit", 0.0f, 1e6f};
/// Repulsion decay lengths; 1 / range multiplies distances.
inline constexpr Limit kModelRange{"the model range limit", 1e-3f, 10.0f};
/// The social force's body and friction constants.
inline constexpr Limit kModelStiffness{"the model stiffness limit", 0.0f, 1e8f};
/// A body's mass, kilograms.
inline constexpr Limit kBodyMass{"the body mass limit", 1.0f, 1e4f};
/// The radius within which the density-aware speed counts people.
inline constexpr Limit kDensityRadius{"the density radius limit", 0.1f, 10.0f};
}  // namespace limits

/// Parameters of the pedestrian models and of the density-aware preferred speed. Agents that
/// share a Behavior (and so these) share one profile.
struct ModelParams {
  // The collision-free speed model (Tordeux, Chraibi, Seyfried 2016); JuPedSim's defaults.
  float timeGap = 1.0f;                 ///< T, s: speed = (headway - contact distance) / T.
  float neighborRepulsion = 8.0f;       ///< Strength of the push from each neighbour.
  float neighborRepulsionRange = 0.1f;  ///< Its decay length, m.
  float wallRepulsion = 5.0f;           ///< Strength of the push from each wall.
  float wallRepulsionRange = 0.02f;     ///< Its decay length, m.
  // The social force model (Helbing, Farkas, Vicsek 2000); their published values.
  float relaxationTime = 0.5f;     ///< tau, s.
  float bodyMass = 80.0f;          ///< m, kg.
  float socialStrength = 2000.0f;  ///< A, N.
  float socialRange = 0.08f;       ///< B, m.
  float bodyForce = 120000.0f;     ///< k, kg/s^2.
  float friction = 240000.0f;      ///< kappa, kg/(m s).
  // The preferred speed from local density along Weidmann's diagram (kernels/density_speed.hpp).
  bool densitySpeed = false;
  float densityRadius =
      1.0f;  ///< m; needs maxNeighbors >= 5.4 * pi * densityRadius^2 and neighborDist >= it.

  auto operator<=>(const ModelParams&) const = default;
  bool operator==(const ModelParams&) const = default;
};

/// One real-valued field of ModelParams: its scenario key and its limit.
struct ModelField {
  std::string_view key;
  float ModelParams::*value;
  Limit limit;
};

inline constexpr ModelField kModelFields[] = {
    {"timeGap", &ModelParams::timeGap, limits::kModelTime},
    {"neighborRepulsion", &ModelParams::neighborRepulsion, limits::kModelStrength},
    {"neighborRepulsionRange", &ModelParams::neighborRepulsionRange, limits::kModelRange},
    {"wallRepulsion", &ModelParams::wallRepulsion, limits::kModelStrength},
    {"wallRepulsionRange", &ModelParams::wallRepulsionRange, limits::kModelRange},
    {"relaxationTime", &ModelParams::relaxationTime, limits::kModelTime},
    {"bodyMass", &ModelParams::bodyMass, limits::kBodyMass},
    {"socialStrength", &ModelParams::socialStrength, limits::kModelStrength},
    {"socialRange", &ModelParams::socialRange, limits::kModelRange},
    {"bodyForce", &ModelParams::bodyForce, limits::kModelStiffness},
    {"friction", &ModelParams::friction, limits::kModelStiffness},
    {"densityRadius", &ModelParams::densityRadius, limits::kDensityRadius},
};

/// The model named `name` ("orca", "none", "csm", "socialforce"), if any.
std::optional<AvoidanceMode> motionModelNamed(std::string_view name);
std::string_view motionModelName(AvoidanceMode model);

/// How far from an agent of radius `radius` walls can push it: where the weaker of the two
/// models' wall forces has decayed by e^-10.
float modelWallRange(float radius, const ModelParams& params);

/// The neighbours the density-aware speed must be able to keep: everyone within densityRadius of
/// an agent in a standing crowd (Weidmann's 5.4 P/m^2), the agent itself left out.
int densitySpeedNeighbors(const ModelParams& params);

/// Empty when `params` are within their limits; otherwise a sentence naming the first problem.
std::string checkModelParams(const ModelParams& params);

/// The longest time step the social force model keeps stable with these parameters and radius
/// (the body force's stiffness sets it), in seconds.
float socialForceMaxTimeStep(const ModelParams& params);

}  // namespace crowd
