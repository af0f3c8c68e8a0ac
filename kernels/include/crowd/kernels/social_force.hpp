// The social force model (Helbing and Molnar 1995) with the body and friction forces of Helbing,
// Farkas and Vicsek ("Simulating dynamical features of escape panic", 2000). Second order: each
// agent's acceleration is
//   (v0 e0 - v) / tau                                  the drive towards the desired velocity
//   + sum over neighbours j of [A exp((r_ij - d_ij) / B) + k g(r_ij - d_ij)] n_ij / m
//                             + kappa g(r_ij - d_ij) ((v_j - v) . t_ij) t_ij / m
//   + the same against each wall (its radius alone, the wall at rest),
// where r_ij is the sum of the radii, d_ij the distance, n_ij the unit vector from j to the agent,
// t_ij its left normal and g(x) = max(x, 0), so the body and friction forces act only between
// bodies in contact. The velocity is integrated semi-implicitly (the new velocity moves the
// agent) and capped at maxSpeed, as the original caps it at v_max. The body force is stiff
// (k / m = 1500 s^-2 with the published values), so the step must be short: about 0.01 s.
#pragma once

#include <cmath>

#include "config.hpp"
#include "model_terms.hpp"
#include "portable_exp.hpp"
#include "step_view.hpp"
#include "vec2.hpp"
#include "wall_contacts.hpp"

namespace crowd {

/// The force (in newtons) one body in contact range exerts on another, given the unit vector
/// `away` from it, the overlap (sum of radii less the distance; negative when apart) and the
/// other body's velocity relative to this one's.
CROWD_HD inline Vec2 socialForceBetween(const ModelTerms& m, Vec2 away, float overlap,
                                        Vec2 relativeVelocity) {
  const float compression = overlap > 0.0f ? overlap : 0.0f;
  Vec2 force = away * (m.socialStrength * portableExp(overlap / m.socialRange) + m.bodyForce * compression);
  if (compression > 0.0f) {
    const Vec2 tangent = perpLeft(away);
    force = force + tangent * (m.friction * compression * dot(relativeVelocity, tangent));
  }
  return force;
}

/// Agent `self`'s new velocity under the social force model, given its desired velocity (its
/// preferred one).
CROWD_HD inline Vec2 socialForceVelocity(const StepView& view, int self, Vec2 desired) {
  const AgentArrays& a = view.agents;
  const std::uint32_t profile = a.profile[self];
  const ProfileTerms& t = view.terms[profile];
  const ModelTerms& m = view.steering[profile].model;
  const Vec2 p = a.position[self];
  const Vec2 v = a.velocity[self];
  Vec2 force(0.0f, 0.0f);
  const int neighbours = view.neighbours.count[self];
  for (int n = 0; n < neighbours; ++n) {
    const int other = view.neighbours.at(self, n);
    const Vec2 offset = p - neighbourPosition(view, self, other);
    const float distance = length(offset);
    if (!(distance > 0.0f)) continue;  // Coincident: no direction to push along.
    const float overlap = t.radius + view.terms[a.profile[other]].radius - distance;
    force = force + socialForceBetween(m, offset * (1.0f / distance), overlap, a.velocity[other] - v);
  }
  forEachNearWall(view.obstacles, p, m.wallRange, [&](float distance, Vec2 away) {
    force = force + socialForceBetween(m, away, t.radius - distance, -v);
  });
  const Vec2 acceleration = (desired - v) * m.invRelaxationTime + force * m.invMass;
  return clipToLength(v + acceleration * view.timeStep, t.maxSpeed);
}

}  // namespace crowd
