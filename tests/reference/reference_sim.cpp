// Reference ORCA step in double precision. See reference_sim.hpp for the conventions. The
// structure follows the paper's sections: neighbours, obstacle half-planes, agent half-planes,
// then the linear programs that pick the new velocity.
#include "reference/reference_sim.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace crowd_reference {

namespace {

// RVO2's epsilon for "parallel" lines and for "already covered" obstacles.
constexpr double kEpsilon = 1e-5;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The left normal of a unit direction: the side a line allows.
V2 leftNormal(V2 d) {
  return {-d.y, d.x};
}

// Tangent direction of the leg of the cone from the origin around the disc of radius r
// centred at p (|p| > r). The left leg is p turned counter-clockwise by the tangent angle, the
// right leg clockwise; both have unit length because |p|^2 = leg^2 + r^2.
V2 leftLegDirection(V2 p, double r) {
  const double distSq = absSq(p);
  const double leg = std::sqrt(distSq - sqr(r));
  return V2{p.x * leg - p.y * r, p.x * r + p.y * leg} / distSq;
}

V2 rightLegDirection(V2 p, double r) {
  const double distSq = absSq(p);
  const double leg = std::sqrt(distSq - sqr(r));
  return V2{p.x * leg + p.y * r, -p.x * r + p.y * leg} / distSq;
}

}  // namespace

double length(V2 a) {
  return std::sqrt(absSq(a));
}

V2 normalize(V2 a) {
  return a / length(a);
}

double leftOf(V2 a, V2 b, V2 c) {
  return det(a - c, b - a);
}

double distSqPointSegment(V2 a, V2 b, V2 c) {
  const double r = dot(c - a, b - a) / absSq(b - a);
  if (r < 0.0) return absSq(c - a);
  if (r > 1.0) return absSq(c - b);
  return absSq(c - (a + r * (b - a)));
}

double violation(const RefLine& line, V2 v) {
  return det(line.direction, line.point - v);
}

// --- obstacles and neighbours --------------------------------------------------------------

std::vector<RefObstacleVertex> obstacleVertices(const RefWorld& world) {
  std::vector<RefObstacleVertex> vertices;
  for (std::size_t poly = 0; poly < world.obstacles.size(); ++poly) {
    const std::vector<V2>& polygon = world.obstacles[poly];
    const int count = static_cast<int>(polygon.size());
    if (count < 2) throw std::invalid_argument("obstacle polygon needs at least 2 vertices");
    const int first = static_cast<int>(vertices.size());
    for (int k = 0; k < count; ++k) {
      const int prevK = (k + count - 1) % count;
      const int nextK = (k + 1) % count;
      RefObstacleVertex vertex{};
      vertex.point = polygon[k];
      vertex.unitDir = normalize(polygon[nextK] - polygon[k]);
      // A wall segment has no inside, so both of its ends act as convex corners.
      vertex.convex = count == 2 || leftOf(polygon[prevK], polygon[k], polygon[nextK]) >= 0.0;
      vertex.prev = first + prevK;
      vertex.next = first + nextK;
      vertex.polygon = static_cast<int>(poly);
      vertices.push_back(vertex);
    }
  }
  return vertices;
}

namespace {

std::vector<int> visibleEdges(const std::vector<RefObstacleVertex>& vertices, const RefAgent& self) {
  const double rangeSq = sqr(self.timeHorizonObst * self.maxSpeed + self.radius);
  std::vector<std::pair<double, int>> candidates;
  for (int e = 0; e < static_cast<int>(vertices.size()); ++e) {
    const V2 a = vertices[e].point;
    const V2 b = vertices[vertices[e].next].point;
    // Only an edge the agent sees from its outer (right) side can block it.
    if (leftOf(a, b, self.position) >= 0.0) continue;
    const double distSq = distSqPointSegment(a, b, self.position);
    if (distSq < rangeSq) candidates.emplace_back(distSq, e);
  }
  std::sort(candidates.begin(), candidates.end());
  std::vector<int> result;
  for (const auto& candidate : candidates) result.push_back(candidate.second);
  return result;
}

}  // namespace

std::vector<int> obstacleNeighbourEdges(const RefWorld& world, int i) {
  return visibleEdges(obstacleVertices(world), world.agents.at(i));
}

// --- ORCA half-planes ----------------------------------------------------------------------

namespace {

// True when an earlier obstacle line already keeps the agent away from both ends of this edge
// (with its radius), so this edge cannot add anything.
bool alreadyCovered(const std::vector<RefLine>& lines, V2 relative1, V2 relative2, double invTau,
                    double radius) {
  for (const RefLine& line : lines) {
    const double beyond1 = det(invTau * relative1 - line.point, line.direction) - invTau * radius;
    const double beyond2 = det(invTau * relative2 - line.point, line.direction) - invTau * radius;
    if (beyond1 >= -kEpsilon && beyond2 >= -kEpsilon) return true;
  }
  return false;
}

// The half-plane for one visible obstacle edge, if it needs one.
void addObstacleLine(const std::vector<RefObstacleVertex>& vertices, int edge, const RefAgent& self,
                     std::vector<RefLine>& lines) {
  const double invTau = 1.0 / self.timeHorizonObst;
  const double radius = self.radius;
  const double radiusSq = sqr(radius);
  const RefObstacleVertex* left = &vertices[edge];
  const RefObstacleVertex* right = &vertices[left->next];
  const V2 relative1 = left->point - self.position;
  const V2 relative2 = right->point - self.position;

  if (alreadyCovered(lines, relative1, relative2, invTau, radius)) return;

  const double distSq1 = absSq(relative1);
  const double distSq2 = absSq(relative2);
  const V2 edgeVector = right->point - left->point;
  // Where the agent's closest point on the edge's supporting line falls (0 = left vertex).
  const double s = dot(-relative1, edgeVector) / absSq(edgeVector);
  const double distSqLine = absSq(-relative1 - s * edgeVector);

  // Already touching the obstacle: forbid any velocity component towards it.
  if (s < 0.0 && distSq1 <= radiusSq) {
    // Touching a concave corner is handled by the edges around it.
    if (left->convex) lines.push_back({V2{}, normalize(V2{-relative1.y, relative1.x})});
    return;
  }
  if (s > 1.0 && distSq2 <= radiusSq) {
    // The right vertex is also the next edge's left vertex; that edge handles it unless the
    // agent is on this edge's side of it.
    if (right->convex && det(relative2, right->unitDir) >= 0.0)
      lines.push_back({V2{}, normalize(V2{-relative2.y, relative2.x})});
    return;
  }
  if (s >= 0.0 && s <= 1.0 && distSqLine <= radiusSq) {
    lines.push_back({V2{}, -left->unitDir});
    return;
  }

  // No collision: build the truncated velocity obstacle's legs. Seen obliquely, one vertex
  // shadows the whole edge and gives both legs.
  V2 leftLeg;
  V2 rightLeg;
  if (s < 0.0 && distSqLine <= radiusSq) {
    if (!left->convex) return;
    right = left;
    leftLeg = leftLegDirection(relative1, radius);
    rightLeg = rightLegDirection(relative1, radius);
  } else if (s > 1.0 && distSqLine <= radiusSq) {
    if (!right->convex) return;
    left = right;
    leftLeg = leftLegDirection(relative2, radius);
    rightLeg = rightLegDirection(relative2, radius);
  } else {
    // At a concave vertex the leg continues along the edge's cut-off line instead.
    leftLeg = left->convex ? leftLegDirection(relative1, radius) : -left->unitDir;
    rightLeg = right->convex ? rightLegDirection(relative2, radius) : left->unitDir;
  }

  // A leg at a convex vertex must not point into the neighbouring edge; use that edge's
  // direction instead and mark the leg "foreign": the neighbouring edge owns that constraint.
  const RefObstacleVertex& leftNeighbour = vertices[left->prev];
  bool leftLegForeign = false;
  bool rightLegForeign = false;
  if (left->convex && det(leftLeg, -leftNeighbour.unitDir) >= 0.0) {
    leftLeg = -leftNeighbour.unitDir;
    leftLegForeign = true;
  }
  if (right->convex && det(rightLeg, right->unitDir) <= 0.0) {
    rightLeg = right->unitDir;
    rightLegForeign = true;
  }

  // The cut-off: the edge scaled by 1/tau, thickened by radius/tau.
  const V2 leftCutoff = invTau * (left->point - self.position);
  const V2 rightCutoff = invTau * (right->point - self.position);
  const V2 cutoffVector = rightCutoff - leftCutoff;
  const bool singleVertex = left == right;
  const V2 v = self.velocity;

  const double t = singleVertex ? 0.5 : dot(v - leftCutoff, cutoffVector) / absSq(cutoffVector);
  const double tLeft = dot(v - leftCutoff, leftLeg);
  const double tRight = dot(v - rightCutoff, rightLeg);

  // The current velocity's closest boundary point is on a cut-off circle.
  if ((t < 0.0 && tLeft < 0.0) || (singleVertex && tLeft < 0.0 && tRight < 0.0)) {
    const V2 unitW = normalize(v - leftCutoff);
    lines.push_back({leftCutoff + radius * invTau * unitW, V2{unitW.y, -unitW.x}});
    return;
  }
  if (t > 1.0 && tRight < 0.0) {
    const V2 unitW = normalize(v - rightCutoff);
    lines.push_back({rightCutoff + radius * invTau * unitW, V2{unitW.y, -unitW.x}});
    return;
  }

  // Otherwise it is on the cut-off segment or one of the legs, whichever is closest.
  const double distSqCutoff =
      (t < 0.0 || t > 1.0 || singleVertex) ? kInfinity : absSq(v - (leftCutoff + t * cutoffVector));
  const double distSqLeft = tLeft < 0.0 ? kInfinity : absSq(v - (leftCutoff + tLeft * leftLeg));
  const double distSqRight = tRight < 0.0 ? kInfinity : absSq(v - (rightCutoff + tRight * rightLeg));

  if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
    const V2 direction = -left->unitDir;
    lines.push_back({leftCutoff + radius * invTau * leftNormal(direction), direction});
  } else if (distSqLeft <= distSqRight) {
    if (leftLegForeign) return;
    lines.push_back({leftCutoff + radius * invTau * leftNormal(leftLeg), leftLeg});
  } else {
    if (rightLegForeign) return;
    const V2 direction = -rightLeg;
    lines.push_back({rightCutoff + radius * invTau * leftNormal(direction), direction});
  }
}

// The reciprocal half-plane for agent i against neighbour j: i takes half of the smallest
// change u of relative velocity that leaves the truncated velocity obstacle.
RefLine agentLine(const RefWorld& world, int i, int j) {
  const RefAgent& self = world.agents[i];
  const RefAgent& other = world.agents[j];
  const V2 relativePosition = other.position - self.position;
  const V2 relativeVelocity = self.velocity - other.velocity;
  const double distSq = absSq(relativePosition);
  const double combinedRadius = self.radius + other.radius;
  const double combinedRadiusSq = sqr(combinedRadius);

  RefLine line;
  V2 u;
  if (distSq > combinedRadiusSq) {
    const double invTau = 1.0 / self.timeHorizon;
    // From the cut-off circle's centre to the relative velocity.
    const V2 w = relativeVelocity - invTau * relativePosition;
    const double wLengthSq = absSq(w);
    const double dotProduct = dot(w, relativePosition);
    if (dotProduct < 0.0 && sqr(dotProduct) > combinedRadiusSq * wLengthSq) {
      // Closest boundary point is on the cut-off circle.
      const double wLength = std::sqrt(wLengthSq);
      const V2 unitW = w / wLength;
      line.direction = V2{unitW.y, -unitW.x};
      u = (combinedRadius * invTau - wLength) * unitW;
    } else {
      // Closest boundary point is on a leg; which one depends on the side w lies on.
      if (det(relativePosition, w) > 0.0)
        line.direction = leftLegDirection(relativePosition, combinedRadius);
      else
        line.direction = -rightLegDirection(relativePosition, combinedRadius);
      u = dot(relativeVelocity, line.direction) * line.direction - relativeVelocity;
    }
  } else {
    // Already overlapping: leave the overlap within one time step.
    const double invTimeStep = 1.0 / world.timeStep;
    const V2 w = relativeVelocity - invTimeStep * relativePosition;
    const double wLength = length(w);
    V2 unitW;
    if (wLength > 0.0) {
      unitW = w / wLength;
    } else if (distSq > 0.0) {
      // Relative velocity exactly at the circle's centre: move straight away from the other.
      unitW = -normalize(relativePosition);
    } else {
      // Coincident with equal velocities: a fixed, opposite choice for the two agents.
      unitW = i < j ? V2{-1.0, 0.0} : V2{1.0, 0.0};
    }
    line.direction = V2{unitW.y, -unitW.x};
    u = (combinedRadius * invTimeStep - wLength) * unitW;
  }
  line.point = self.velocity + 0.5 * u;
  return line;
}

std::vector<RefLine> buildLines(const RefWorld& world, const std::vector<RefObstacleVertex>& vertices, int i,
                                std::size_t& numObstacleLines) {
  const RefAgent& self = world.agents.at(i);
  std::vector<RefLine> lines;
  for (int edge : visibleEdges(vertices, self)) addObstacleLine(vertices, edge, self, lines);
  numObstacleLines = lines.size();
  for (int j : agentNeighbours(world, i)) lines.push_back(agentLine(world, i, j));
  return lines;
}

}  // namespace

std::vector<RefLine> orcaLines(const RefWorld& world, int i) {
  std::size_t numObstacleLines = 0;
  return buildLines(world, obstacleVertices(world), i, numObstacleLines);
}

std::size_t obstacleLineCount(const RefWorld& world, int i) {
  std::size_t numObstacleLines = 0;
  buildLines(world, obstacleVertices(world), i, numObstacleLines);
  return numObstacleLines;
}

// --- linear programs -----------------------------------------------------------------------

namespace {

// Optimises on line `lineNo` inside the disc, subject to the lines before it. With
// directionOpt, goes as far as possible in direction `opt`; otherwise as close as possible to
// point `opt`. Returns false when the feasible part of the line is empty.
bool solveOnLine(const std::vector<RefLine>& lines, std::size_t lineNo, double radius, V2 opt,
                 bool directionOpt, V2& result) {
  const RefLine& line = lines[lineNo];
  const double along = dot(line.point, line.direction);
  const double discriminant = sqr(along) + sqr(radius) - absSq(line.point);
  if (discriminant < 0.0) return false;  // The line misses the disc.

  const double root = std::sqrt(discriminant);
  double tLeft = -along - root;
  double tRight = -along + root;

  for (std::size_t k = 0; k < lineNo; ++k) {
    const double denominator = det(line.direction, lines[k].direction);
    const double numerator = det(lines[k].direction, line.point - lines[k].point);
    if (std::fabs(denominator) <= kEpsilon) {
      // Parallel: either line k allows all of this line or none of it.
      if (numerator < 0.0) return false;
      continue;
    }
    const double t = numerator / denominator;
    if (denominator >= 0.0)
      tRight = std::min(tRight, t);
    else
      tLeft = std::max(tLeft, t);
    if (tLeft > tRight) return false;
  }

  double t;
  if (directionOpt) {
    t = dot(opt, line.direction) > 0.0 ? tRight : tLeft;
  } else {
    t = std::clamp(dot(line.direction, opt - line.point), tLeft, tRight);
  }
  result = line.point + t * line.direction;
  return true;
}

// Incremental 2D LP (Seidel's idea): keep the optimum, and re-optimise on a line only when the
// current optimum violates it. Returns lines.size() on success, else the failing line's index
// (result then holds the optimum for the lines before it).
std::size_t solveLines(const std::vector<RefLine>& lines, double radius, V2 opt, bool directionOpt,
                       V2& result) {
  if (directionOpt)
    result = opt * radius;  // opt is a unit direction here.
  else if (absSq(opt) > sqr(radius))
    result = normalize(opt) * radius;
  else
    result = opt;

  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (violation(lines[i], result) > 0.0) {
      const V2 previous = result;
      if (!solveOnLine(lines, i, radius, opt, directionOpt, result)) {
        result = previous;
        return i;
      }
    }
  }
  return lines.size();
}

// Infeasible case: minimise the largest violation of the agent lines (obstacle lines stay
// hard). The third dimension of the paper's 3D LP is the violation distance; each time line i
// is violated by more than the current distance, the optimum moves onto the set of points
// equally far beyond line i and each earlier agent line (their bisectors).
void minimiseViolation(const std::vector<RefLine>& lines, std::size_t numObstacleLines, std::size_t beginLine,
                       double radius, V2& result) {
  double distance = 0.0;
  for (std::size_t i = beginLine; i < lines.size(); ++i) {
    if (violation(lines[i], result) <= distance) continue;

    std::vector<RefLine> projected(lines.begin(),
                                   lines.begin() + static_cast<std::ptrdiff_t>(numObstacleLines));
    for (std::size_t j = numObstacleLines; j < i; ++j) {
      RefLine bisector;
      const double determinant = det(lines[i].direction, lines[j].direction);
      if (std::fabs(determinant) <= kEpsilon) {
        // Parallel lines pointing the same way: j never binds more than i does.
        if (dot(lines[i].direction, lines[j].direction) > 0.0) continue;
        bisector.point = 0.5 * (lines[i].point + lines[j].point);
      } else {
        const double t = det(lines[j].direction, lines[i].point - lines[j].point) / determinant;
        bisector.point = lines[i].point + t * lines[i].direction;
      }
      bisector.direction = normalize(lines[j].direction - lines[i].direction);
      projected.push_back(bisector);
    }

    const V2 previous = result;
    // Push as far as possible to line i's allowed side while staying within the bisectors.
    if (solveLines(projected, radius, leftNormal(lines[i].direction), true, result) < projected.size()) {
      // Only rounding can make this fail (the previous result is feasible): keep it.
      result = previous;
    }
    distance = violation(lines[i], result);
  }
}

}  // namespace

V2 solveVelocity(const std::vector<RefLine>& lines, std::size_t numObstacleLines, double maxSpeed,
                 V2 prefVelocity) {
  V2 result;
  const std::size_t failed = solveLines(lines, maxSpeed, prefVelocity, false, result);
  if (failed < lines.size()) minimiseViolation(lines, numObstacleLines, failed, maxSpeed, result);
  return result;
}

// --- stepping ------------------------------------------------------------------------------

std::vector<V2> computeNewVelocities(const RefWorld& world) {
  const std::vector<RefObstacleVertex> vertices = obstacleVertices(world);
  std::vector<V2> newVelocities;
  newVelocities.reserve(world.agents.size());
  for (int i = 0; i < static_cast<int>(world.agents.size()); ++i) {
    const RefAgent& self = world.agents[i];
    std::size_t numObstacleLines = 0;
    const std::vector<RefLine> lines = buildLines(world, vertices, i, numObstacleLines);
    newVelocities.push_back(solveVelocity(lines, numObstacleLines, self.maxSpeed, preferredVelocity(self)));
  }
  return newVelocities;
}

void step(RefWorld& world) {
  stepWorld(world);
}

}  // namespace crowd_reference
