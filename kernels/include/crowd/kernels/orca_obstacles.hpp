// ORCA half-planes for static obstacle edges (van den Berg et al. 2011, section 6; the case
// analysis follows RVO2's Agent::computeNewVelocity). An obstacle does not move, so it takes
// none of the avoidance effort: the line passes through the velocity obstacle's boundary itself,
// not half-way. Obstacle lines are built first and stay hard constraints in the LP.
#pragma once

#include <cmath>

#include "config.hpp"
#include "linear_program.hpp"
#include "obstacle_edge.hpp"
#include "vec2.hpp"

namespace crowd {

/// Appends the ORCA lines of the obstacle edges `neighbourEdges[0..edgeCount)`, nearest first,
/// to `lines` and returns how many lines there are now. Edges whose velocity obstacle is
/// already covered by earlier obstacle lines add nothing, as do edges seen only past a concave
/// vertex (the neighbouring edge handles those).
///
/// `endOnOwnLeg` repairs a gap in RVO2's rules. An edge seen end-on, past one of its vertices,
/// stands for that vertex alone, and a leg of the vertex that points into a neighbouring edge is
/// left to that edge ("foreign"). Past the edge's own vertex, the neighbour on the edge's side is
/// the edge itself: RVO2 leaves that leg to it all the same, so the edge adds no line. An agent
/// touching the vertex just past the end of one edge then sees both edges that meet there
/// defer to each other, gets no line at all and can walk into the obstacle (measured: 196
/// agent-steps inside the posts of a 10,000-agent `mix` run). With `endOnOwnLeg` the edge gives
/// the line of its own leg; without it the lines are RVO2's to the bit.
CROWD_HD inline int obstacleOrcaLines(const ObstacleEdge* edges, const int* neighbourEdges, int edgeCount,
                                      Vec2 position, Vec2 velocity, float radius, float invTimeHorizonObst,
                                      bool endOnOwnLeg, OrcaLine* lines) {
  int lineCount = 0;
  const float radiusSq = sqr(radius);
  const float inf = INFINITY;

  for (int n = 0; n < edgeCount; ++n) {
    int first = neighbourEdges[n];
    int second = edges[first].next;
    const Vec2 relativePosition1 = edges[first].point - position;
    const Vec2 relativePosition2 = edges[second].point - position;

    // Skip the edge when both its end points' cut-off discs lie behind an existing line.
    bool alreadyCovered = false;
    for (int j = 0; j < lineCount; ++j) {
      if (det(invTimeHorizonObst * relativePosition1 - lines[j].point, lines[j].direction) -
                  invTimeHorizonObst * radius >=
              -kOrcaEpsilon &&
          det(invTimeHorizonObst * relativePosition2 - lines[j].point, lines[j].direction) -
                  invTimeHorizonObst * radius >=
              -kOrcaEpsilon) {
        alreadyCovered = true;
        break;
      }
    }
    if (alreadyCovered) continue;

    const float distSq1 = absSq(relativePosition1);
    const float distSq2 = absSq(relativePosition2);
    const Vec2 obstacleVector = edges[second].point - edges[first].point;
    const float s = dot(-relativePosition1, obstacleVector) / absSq(obstacleVector);
    const float distSqLine = absSq(-relativePosition1 - s * obstacleVector);

    OrcaLine line;
    // Already colliding: with the first vertex, the second vertex, or the edge between them.
    // The permitted velocities are those moving away (point at the origin, no time horizon).
    if (s < 0.0f && distSq1 <= radiusSq) {
      if (edges[first].isConvex) {
        line.point = Vec2(0.0f, 0.0f);
        line.direction = distSq1 > 0.0f ? normalize(Vec2(-relativePosition1.y, relativePosition1.x))
                                        : -edges[first].unitDir;
        lines[lineCount++] = line;
      }
      continue;
    }
    if (s > 1.0f && distSq2 <= radiusSq) {
      // A concave second vertex, or one whose next edge faces the agent, is handled by that edge.
      if (edges[second].isConvex && det(relativePosition2, edges[second].unitDir) >= 0.0f) {
        line.point = Vec2(0.0f, 0.0f);
        line.direction = distSq2 > 0.0f ? normalize(Vec2(-relativePosition2.y, relativePosition2.x))
                                        : -edges[first].unitDir;
        lines[lineCount++] = line;
      }
      continue;
    }
    if (s >= 0.0f && s < 1.0f && distSqLine <= radiusSq) {
      line.point = Vec2(0.0f, 0.0f);
      line.direction = -edges[first].unitDir;
      lines[lineCount++] = line;
      continue;
    }

    // Not colliding: find the legs of the velocity obstacle (tangents from the agent to the
    // discs of radius `radius` around the vertices), then project the velocity on it.
    Vec2 leftLegDirection;
    Vec2 rightLegDirection;
    // Whether a foreign leg is this edge's own (seen end-on), so that no other edge supplies it.
    bool leftLegOwn = false;
    bool rightLegOwn = false;
    if (s < 0.0f && distSqLine <= radiusSq) {
      // The edge is seen end-on past its first vertex: that vertex alone defines the obstacle.
      if (!edges[first].isConvex) continue;  // The previous edge handles it.
      second = first;
      rightLegOwn = endOnOwnLeg;  // The right leg's neighbour is edges[first]: this edge.
      const float leg1 = std::sqrt(distSq1 - radiusSq);
      leftLegDirection = leftTangent(relativePosition1, distSq1, radius, leg1);
      rightLegDirection = rightTangent(relativePosition1, distSq1, radius, leg1);
    } else if (s > 1.0f && distSqLine <= radiusSq) {
      // Seen end-on past its second vertex: that vertex alone defines the obstacle.
      if (!edges[second].isConvex) continue;  // The next edge handles it.
      first = second;
      leftLegOwn = endOnOwnLeg;  // The left leg's neighbour is edges[second].prev: this edge.
      const float leg2 = std::sqrt(distSq2 - radiusSq);
      leftLegDirection = leftTangent(relativePosition2, distSq2, radius, leg2);
      rightLegDirection = rightTangent(relativePosition2, distSq2, radius, leg2);
    } else {
      // The usual case. At a concave vertex the leg runs along the neighbouring edge instead.
      if (edges[first].isConvex) {
        const float leg1 = std::sqrt(std::fmax(distSq1 - radiusSq, 0.0f));
        leftLegDirection = leftTangent(relativePosition1, distSq1, radius, leg1);
      } else {
        leftLegDirection = -edges[first].unitDir;
      }
      if (edges[second].isConvex) {
        const float leg2 = std::sqrt(std::fmax(distSq2 - radiusSq, 0.0f));
        rightLegDirection = rightTangent(relativePosition2, distSq2, radius, leg2);
      } else {
        rightLegDirection = edges[first].unitDir;
      }
    }

    // A leg at a convex vertex must not point into the neighbouring edge; if it would, the
    // neighbouring edge's direction bounds the obstacle there, and that edge supplies the line
    // ("foreign" leg), so projecting onto it adds no constraint here.
    const int leftNeighbour = edges[first].prev;
    bool isLeftLegForeign = false;
    bool isRightLegForeign = false;
    if (edges[first].isConvex && det(leftLegDirection, -edges[leftNeighbour].unitDir) >= 0.0f) {
      leftLegDirection = -edges[leftNeighbour].unitDir;
      isLeftLegForeign = true;
    }
    if (edges[second].isConvex && det(rightLegDirection, edges[second].unitDir) <= 0.0f) {
      rightLegDirection = edges[second].unitDir;
      isRightLegForeign = true;
    }

    // Cut-off centres: the vertices scaled by 1/timeHorizonObst.
    const Vec2 leftCutoff = invTimeHorizonObst * (edges[first].point - position);
    const Vec2 rightCutoff = invTimeHorizonObst * (edges[second].point - position);
    const Vec2 cutoffVector = rightCutoff - leftCutoff;
    const bool singleVertex = first == second;

    const float t = singleVertex ? 0.5f : dot(velocity - leftCutoff, cutoffVector) / absSq(cutoffVector);
    const float tLeft = dot(velocity - leftCutoff, leftLegDirection);
    const float tRight = dot(velocity - rightCutoff, rightLegDirection);

    if ((t < 0.0f && tLeft < 0.0f) || (singleVertex && tLeft < 0.0f && tRight < 0.0f)) {
      // Nearest the left cut-off circle.
      const Vec2 unitW = normalize(velocity - leftCutoff);
      line.direction = Vec2(unitW.y, -unitW.x);
      line.point = leftCutoff + radius * invTimeHorizonObst * unitW;
      lines[lineCount++] = line;
      continue;
    }
    if (t > 1.0f && tRight < 0.0f) {
      // Nearest the right cut-off circle.
      const Vec2 unitW = normalize(velocity - rightCutoff);
      line.direction = Vec2(unitW.y, -unitW.x);
      line.point = rightCutoff + radius * invTimeHorizonObst * unitW;
      lines[lineCount++] = line;
      continue;
    }

    // Otherwise nearest the cut-off segment or one of the legs, whichever is closest.
    const float distSqCutoff =
        (t < 0.0f || t > 1.0f || singleVertex) ? inf : absSq(velocity - (leftCutoff + t * cutoffVector));
    const float distSqLeft = tLeft < 0.0f ? inf : absSq(velocity - (leftCutoff + tLeft * leftLegDirection));
    const float distSqRight =
        tRight < 0.0f ? inf : absSq(velocity - (rightCutoff + tRight * rightLegDirection));

    if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
      line.direction = -edges[first].unitDir;
      line.point = leftCutoff + radius * invTimeHorizonObst * perpLeft(line.direction);
      lines[lineCount++] = line;
      continue;
    }
    if (distSqLeft <= distSqRight) {
      if (isLeftLegForeign && !leftLegOwn) continue;
      line.direction = leftLegDirection;
      line.point = leftCutoff + radius * invTimeHorizonObst * perpLeft(line.direction);
      lines[lineCount++] = line;
      continue;
    }
    if (isRightLegForeign && !rightLegOwn) continue;
    line.direction = -rightLegDirection;
    line.point = rightCutoff + radius * invTimeHorizonObst * perpLeft(line.direction);
    lines[lineCount++] = line;
  }
  return lineCount;
}

}  // namespace crowd
