// The ORCA half-plane that one neighbouring agent imposes on an agent's velocity
// (van den Berg et al. 2011, section 5.1). The velocity obstacle of a neighbour at relative
// position p with combined radius r over time horizon tau is a truncated cone: a disc of radius
// r/tau at p/tau (the cut-off circle) and two legs tangent to the disc of radius r at p.
// The half-plane is bounded by the line through v + u/2 perpendicular to u, where u is the
// smallest change of relative velocity that leaves the obstacle; each agent takes half.
#pragma once

#include <cmath>

#include "config.hpp"
#include "linear_program.hpp"
#include "vec2.hpp"

namespace crowd {

/// Which part of the velocity obstacle the relative velocity was projected on.
enum class AgentOrcaCase { CutoffCircle, LeftLeg, RightLeg, Colliding };

/// Builds the ORCA line for an agent at `position` moving at `velocity` against one neighbour.
/// `invTimeHorizon` is 1/timeHorizon; `invTimeStep` is 1/timeStep, used when the two already
/// overlap: the velocity must then separate them within one step. `separationHint` is the unit
/// direction this agent takes if the pair coincides exactly with equal velocities (the only case
/// where the geometry defines none); the neighbour must be given the opposite one.
CROWD_HD inline OrcaLine agentOrcaLine(Vec2 position, Vec2 velocity, float radius, Vec2 otherPosition,
                                       Vec2 otherVelocity, float otherRadius, float invTimeHorizon,
                                       float invTimeStep, Vec2 separationHint,
                                       AgentOrcaCase* whichCase = nullptr) {
  const Vec2 relativePosition = otherPosition - position;
  const Vec2 relativeVelocity = velocity - otherVelocity;
  const float distSq = absSq(relativePosition);
  const float combinedRadius = radius + otherRadius;
  const float combinedRadiusSq = sqr(combinedRadius);

  OrcaLine line;
  Vec2 u;
  AgentOrcaCase kind;
  if (distSq > combinedRadiusSq) {
    // No collision yet. w runs from the cut-off circle's centre to the relative velocity.
    const Vec2 w = relativeVelocity - invTimeHorizon * relativePosition;
    const float wLengthSq = absSq(w);
    const float dotProduct1 = dot(w, relativePosition);

    if (dotProduct1 < 0.0f && sqr(dotProduct1) > combinedRadiusSq * wLengthSq) {
      // The relative velocity is nearest the cut-off circle: push it out radially.
      const float wLength = std::sqrt(wLengthSq);
      const Vec2 unitW = divide(w, wLength);
      line.direction = Vec2(unitW.y, -unitW.x);
      u = (combinedRadius * invTimeHorizon - wLength) * unitW;
      kind = AgentOrcaCase::CutoffCircle;
    } else {
      // Nearest one of the two legs: project on the leg on w's side of the centre line.
      const float leg = std::sqrt(distSq - combinedRadiusSq);
      if (det(relativePosition, w) > 0.0f) {
        line.direction = leftTangent(relativePosition, distSq, combinedRadius, leg);
        kind = AgentOrcaCase::LeftLeg;
      } else {
        line.direction = -rightTangent(relativePosition, distSq, combinedRadius, leg);
        kind = AgentOrcaCase::RightLeg;
      }
      const float dotProduct2 = dot(relativeVelocity, line.direction);
      u = dotProduct2 * line.direction - relativeVelocity;
    }
  } else {
    // Already overlapping: use the cut-off circle of one time step, so the pair separates now.
    const Vec2 w = relativeVelocity - invTimeStep * relativePosition;
    const float wLength = length(w);
    const Vec2 unitW = wLength > 0.0f ? divide(w, wLength) : separationHint;
    line.direction = Vec2(unitW.y, -unitW.x);
    u = (combinedRadius * invTimeStep - wLength) * unitW;
    kind = AgentOrcaCase::Colliding;
  }

  line.point = velocity + 0.5f * u;
  if (whichCase != nullptr) *whichCase = kind;
  return line;
}

/// The deterministic separation direction for an exactly coincident pair, antisymmetric in the
/// two agents' ids so that each takes the opposite way.
CROWD_HD inline Vec2 coincidentSeparationHint(unsigned selfId, unsigned otherId) {
  return selfId < otherId ? Vec2(-1.0f, 0.0f) : Vec2(1.0f, 0.0f);
}

}  // namespace crowd
