// A preferred speed that falls with the local density along Weidmann's fundamental diagram, so
// that a model which never slows people walking the same way (ORCA: they never threaten to
// collide) still gives a crowd's speed-density relation, as Best et al.'s DenseSense does for ORCA.
//
// Weidmann (1993), in Kladek's form: v(rho) = v0 (1 - exp(-gamma (1/rho - 1/rho_max))), with
// gamma = 1.913 P/m^2 and rho_max = 5.4 P/m^2 (where the speed reaches zero). The agent's
// preferred velocity is scaled by v(rho) / v0, so its own desired speed stays the free speed.
// The local density is the agent's neighbours within densityRadius over the disc's area;
// the neighbour list must be able to hold them (maxNeighbors at least rho_max times the area).
#pragma once

#include "config.hpp"
#include "portable_exp.hpp"
#include "step_view.hpp"
#include "vec2.hpp"

namespace crowd {

inline constexpr float kWeidmannGamma = 1.913f;     ///< P/m^2.
inline constexpr float kWeidmannMaxDensity = 5.4f;  ///< P/m^2: the density of standstill.
inline constexpr float kPi = 3.14159265358979f;

/// v(rho) / v0 on Weidmann's diagram: 1 at low density (and alone), 0 from rho_max up.
CROWD_HD inline float weidmannSpeedFraction(float density) {
  if (!(density > 0.0f)) return 1.0f;
  if (!(density < kWeidmannMaxDensity)) return 0.0f;
  return 1.0f - portableExp(-kWeidmannGamma * (1.0f / density - 1.0f / kWeidmannMaxDensity));
}

/// People per square metre around agent `self`: its neighbours within `radius` over the disc's
/// area. The agent itself is left out: in a crowd of density rho the disc round one of its members
/// holds rho pi r^2 others on average, so counting it too would add 1 / (pi r^2) to every estimate.
template <class View>
CROWD_HD inline float localDensity(const View& view, int self, float radius) {
  const auto& a = view.agents;
  const float radiusSq = radius * radius;
  int inside = 0;
  const int neighbours = view.neighbours.count[self];
  for (int n = 0; n < neighbours; ++n) {
    inside += absSq(neighbourPosition(view, self, view.neighbours.at(self, n)) - a.position[self]) <= radiusSq
                  ? 1
                  : 0;
  }
  return static_cast<float>(inside) / (kPi * radiusSq);
}

/// Agent `self`'s desired velocity slowed to Weidmann's speed at its local density.
template <class View, class Vector>
CROWD_HD inline Vector densitySlowedVelocity(const View& view, int self, float radius, Vector desired) {
  return desired * weidmannSpeedFraction(localDensity(view, self, radius));
}

}  // namespace crowd
