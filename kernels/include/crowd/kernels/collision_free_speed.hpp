// The collision-free speed model (Tordeux, Chraibi and Seyfried, "Collision-free speed model for
// pedestrian dynamics", 2016), JuPedSim's default. First order: the new velocity is a direction
// times a speed, with no inertia.
//  - Direction: the desired direction plus an exponential push away from each neighbour,
//    a * exp((l - s) / D) along the line of centres (l the sum of the radii, s the distance),
//    and from each wall in range, a_w * exp((r - d) / D_w); normalised.
//  - Speed: the headway to the nearest person ahead along that direction (one whose centre lies
//    ahead and within l of the line of motion, so the bodies would meet), less l, over the time
//    gap T, no faster than the desired speed: v = min(v0, max(0, (s - l) / T)).
// Because the speed is zero at contact and the direction turns away from anyone close, bodies
// do not overlap however hard the crowd presses: the property the model is named for.
#pragma once

#include <cmath>

#include "config.hpp"
#include "model_terms.hpp"
#include "portable_exp.hpp"
#include "step_view.hpp"
#include "vec2.hpp"
#include "wall_contacts.hpp"

namespace crowd {

/// Agent `self`'s new velocity under the collision-free speed model, given its desired velocity
/// (its preferred one, so steering, routes and arrive's slowing set v0 and the direction).
CROWD_HD inline Vec2 collisionFreeSpeedVelocity(const StepView& view, int self, Vec2 desired) {
  const AgentArrays& a = view.agents;
  const std::uint32_t profile = a.profile[self];
  const ProfileTerms& t = view.terms[profile];
  const ModelTerms& m = view.steering[profile].model;
  const float desiredSpeed = length(desired);
  if (!(desiredSpeed > 0.0f)) return Vec2(0.0f, 0.0f);  // No wish to move: stand.
  const Vec2 p = a.position[self];
  Vec2 direction = desired * (1.0f / desiredSpeed);
  const int neighbours = view.neighbours.count[self];
  for (int n = 0; n < neighbours; ++n) {
    const int other = view.neighbours.at(self, n);
    const Vec2 offset = p - neighbourPosition(view, self, other);
    const float distance = length(offset);
    if (!(distance > 0.0f)) continue;  // Coincident: no direction to push along.
    const float contact = t.radius + view.terms[a.profile[other]].radius;
    const float push = m.neighborRepulsion * portableExp((contact - distance) / m.neighborRepulsionRange);
    direction = direction + offset * (push / distance);
  }
  forEachNearWall(view.obstacles, p, m.wallRange, [&](float distance, Vec2 away) {
    direction =
        direction + away * (m.wallRepulsion * portableExp((t.radius - distance) / m.wallRepulsionRange));
  });
  const float directionLength = length(direction);
  if (!(directionLength > 0.0f)) return Vec2(0.0f, 0.0f);  // Pushes cancel the wish exactly.
  direction = direction * (1.0f / directionLength);
  // The headway: the nearest body ahead whose path the agent's body would sweep into.
  float speed = desiredSpeed;
  for (int n = 0; n < neighbours; ++n) {
    const int other = view.neighbours.at(self, n);
    const Vec2 offset = neighbourPosition(view, self, other) - p;
    const float ahead = dot(offset, direction);
    const float contact = t.radius + view.terms[a.profile[other]].radius;
    if (!(ahead > 0.0f) || std::fabs(det(direction, offset)) > contact) continue;
    const float headwaySpeed = (length(offset) - contact) / m.timeGap;
    if (headwaySpeed < speed) speed = headwaySpeed;
  }
  return direction * (speed > 0.0f ? speed : 0.0f);
}

}  // namespace crowd
