// Checks run on every scenario before a simulation starts: agents that start overlapping each
// other or an obstacle, clockwise polygons that enclose no agent, and the risks of risks.hpp.
//
// The checks must stay cheap for millions of agents, so they look things up in sparse grids
// (geometry/geometry.hpp, geometry/point_grid.hpp): memory proportional to what is binned rather
// than to the area the scenario spans. About 0.2 s per million agents.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/common.hpp>
#include <glm/vec2.hpp>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/stop_request.hpp>

#include "geometry/geometry.hpp"
#include "geometry/point_grid.hpp"
#include "scenario/risks.hpp"

namespace crowd {
namespace {

// More pair tests than this means agents are piled up in a few cells (a whole group on one
// point, say). The count is then reported as a lower bound rather than spending minutes on it.
constexpr std::uint64_t kMaxPairTests = 200'000'000;

// Polygon bounding boxes are binned into cells at least this coarse a share of their area.
constexpr double kMaxPolygonCells = 1.0e6;

double largestRadius(const std::vector<AgentDef>& agents) {
  float largest = 0.0f;
  for (const AgentDef& agent : agents) {
    if (std::isfinite(agent.params.radius)) largest = std::max(largest, agent.params.radius);
  }
  return largest;
}

// ---- agent against agent ------------------------------------------------------------------------

struct PairOverlaps {
  std::uint64_t count = 0;
  bool isLowerBound = false;  // The test budget ran out before every pair was seen.
  std::uint32_t firstA = 0;   // The pair with the smallest agent numbers, firstA < firstB.
  std::uint32_t firstB = 0;
};

PairOverlaps findPairOverlaps(const std::vector<AgentDef>& agents) {
  PairOverlaps result;
  const double maxRadius = largestRadius(agents);
  if (agents.size() < 2 || !(maxRadius > 0.0)) return result;  // Zero discs never overlap.

  // Cells as wide as the largest possible contact distance: overlapping agents are in the same
  // or adjacent cells.
  std::vector<Vec2> positions(agents.size());
  for (std::size_t i = 0; i < agents.size(); ++i) positions[i] = agents[i].position;
  const PointGrid<Vec2> grid(positions, 2.0 * maxRadius);
  std::uint64_t tests = 0;
  for (const std::uint32_t a : grid.order()) {
    if (tests > kMaxPairTests) break;
    throwIfStopRequested("while checking the agents' start positions");
    const AgentDef& first = agents[a];
    grid.forEachAround(first.position, [&](std::uint32_t b) {
      if (b <= a) return;  // Each pair once, from its lower-numbered agent.
      ++tests;
      const AgentDef& second = agents[b];
      const double dx = static_cast<double>(first.position.x) - second.position.x;
      const double dy = static_cast<double>(first.position.y) - second.position.y;
      const double contact = static_cast<double>(first.params.radius) + second.params.radius;
      if (!(dx * dx + dy * dy < contact * contact)) return;
      if (result.count == 0 || a < result.firstA || (a == result.firstA && b < result.firstB)) {
        result.firstA = a;
        result.firstB = b;
      }
      ++result.count;
    });
  }
  result.isLowerBound = tests > kMaxPairTests;
  return result;
}

// ---- agents against obstacles -------------------------------------------------------------------

struct ObstacleSurvey {
  std::uint64_t overlapCount = 0;  // Agents overlapping an obstacle.
  std::uint32_t firstAgent = 0;
  std::uint32_t firstObstacle = 0;
  std::vector<std::uint32_t> emptyBoundaries;  // Clockwise polygons enclosing no agent, in order.
};

bool finitePolygon(const std::vector<Vec2>& polygon) {
  return std::all_of(polygon.begin(), polygon.end(),
                     [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); });
}

// One pass over the agents answers both questions: which agents touch an obstacle (an edge
// within their radius, or inside a solid), and which clockwise boundaries hold an agent.
ObstacleSurvey surveyObstacles(const Scenario& scenario) {
  ObstacleSurvey result;
  const std::vector<std::vector<Vec2>>& obstacles = scenario.obstacles;
  if (obstacles.empty() || scenario.agents.empty()) return result;
  // Unchecked input (a scenario built in code); nothing sensible to say.
  if (!std::all_of(obstacles.begin(), obstacles.end(), finitePolygon)) return result;

  std::vector<Segment> edges;
  std::vector<std::uint32_t> edgePolygon;
  std::vector<std::uint32_t> areas;  // Polygons of 3+ vertices, solid or boundary.
  std::vector<Box> areaBounds;
  std::vector<bool> isSolid;
  for (std::size_t p = 0; p < obstacles.size(); ++p) {
    const std::vector<Vec2>& polygon = obstacles[p];
    if (polygon.size() < 2) continue;
    const std::size_t edgeCount = polygon.size() == 2 ? 1 : polygon.size();
    for (std::size_t i = 0; i < edgeCount; ++i) {
      edges.push_back(Segment{toPoint(polygon[i]), toPoint(polygon[(i + 1) % polygon.size()])});
      edgePolygon.push_back(static_cast<std::uint32_t>(p));
    }
    const float area = polygon.size() >= 3 ? signedArea(polygon) : 0.0f;
    if (area == 0.0f) continue;
    areas.push_back(static_cast<std::uint32_t>(p));
    areaBounds.push_back(boundsOf(polygon));
    isSolid.push_back(area > 0.0f);  // Counter-clockwise: agents must be outside.
  }

  const double maxRadius = largestRadius(scenario.agents);
  const SparseGrid edgeGrid = maxRadius > 0.0 ? binSegments(edges, maxRadius, 2.0 * maxRadius) : SparseGrid{};
  const SparseGrid areaGrid = binBoxes(areaBounds, edgeGrid.cellSize(), kMaxPolygonCells);

  std::vector<bool> holdsAgent(areas.size(), false);
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    throwIfStopRequested("while checking the agents against the obstacles");
    const AgentDef& agent = scenario.agents[i];
    const Point p = toPoint(agent.position);
    const double radius = agent.params.radius;
    std::uint32_t touched = kNone;  // The lowest-numbered obstacle this agent overlaps.
    if (radius > 0.0) {
      for (const std::uint32_t e : edgeGrid.candidatesAt(p)) {
        if (edgePolygon[e] < touched && distSqToSegment(p, edges[e].a, edges[e].b) < radius * radius) {
          touched = edgePolygon[e];
        }
      }
    }
    for (const std::uint32_t k : areaGrid.candidatesAt(p)) {
      const std::uint32_t polygon = areas[k];
      // A boundary already known to hold an agent needs no more tests.
      const bool wanted = isSolid[k] ? polygon < touched : !holdsAgent[k];
      if (!wanted || !areaBounds[k].contains(p) || !insidePolygon(p, obstacles[polygon])) continue;
      if (isSolid[k]) {
        touched = polygon;
      } else {
        holdsAgent[k] = true;
      }
    }
    if (touched == kNone) continue;
    if (result.overlapCount == 0) {
      result.firstAgent = static_cast<std::uint32_t>(i);
      result.firstObstacle = touched;
    }
    ++result.overlapCount;
  }
  for (std::size_t k = 0; k < areas.size(); ++k) {
    // The holes of outlines traced from a map are clockwise by design (an enclosed pocket of
    // free cells); the advice to list vertices the other way round is for polygons a user wrote.
    const bool fromMap = areas[k] >= obstacles.size() - std::min(scenario.mapObstacles, obstacles.size());
    if (!isSolid[k] && !holdsAgent[k] && !fromMap) result.emptyBoundaries.push_back(areas[k]);
  }
  return result;
}

void addPairWarning(Scenario& scenario) {
  const PairOverlaps pairs = findPairOverlaps(scenario.agents);
  if (pairs.count == 0) return;
  const std::string agents =
      "agents " + std::to_string(pairs.firstA) + " and " + std::to_string(pairs.firstB);
  std::string warning = pairs.isLowerBound ? "at least " : "";
  warning += pairs.count == 1
                 ? "1 agent pair starts overlapping (" + agents + ")"
                 : std::to_string(pairs.count) + " agent pairs start overlapping (first: " + agents + ")";
  scenario.warnings.push_back(warning + "; ORCA will push them apart");
}

void addObstacleOverlapWarning(Scenario& scenario, const ObstacleSurvey& survey) {
  if (survey.overlapCount == 0) return;
  const std::string which =
      "agent " + std::to_string(survey.firstAgent) + ", obstacle " + std::to_string(survey.firstObstacle);
  scenario.warnings.push_back(survey.overlapCount == 1
                                  ? "1 agent starts overlapping an obstacle (" + which + ")"
                                  : std::to_string(survey.overlapCount) +
                                        " agents start overlapping an obstacle (first: " + which + ")");
}

// RVO2 and its descendants read a clockwise polygon as a boundary that keeps agents inside.
// One that holds no agent was almost always meant as a solid obstacle listed the wrong way round.
void addWindingWarning(Scenario& scenario, const ObstacleSurvey& survey) {
  const std::vector<std::uint32_t>& empty = survey.emptyBoundaries;
  if (empty.empty()) return;
  if (empty.size() == 1) {
    scenario.warnings.push_back("obstacle " + std::to_string(empty[0]) +
                                " is clockwise (a boundary that keeps agents inside) but encloses no agent; "
                                "list its vertices counter-clockwise for a solid obstacle");
    return;
  }
  scenario.warnings.push_back(std::to_string(empty.size()) +
                              " obstacles are clockwise (boundaries that keep agents inside) but enclose no "
                              "agent (first: obstacle " +
                              std::to_string(empty[0]) +
                              "); list their vertices counter-clockwise for solid obstacles");
}

}  // namespace

void addOverlapWarnings(Scenario& scenario) {
  addPairWarning(scenario);
  addObstacleOverlapWarning(scenario, surveyObstacles(scenario));
}

void addWindingWarnings(Scenario& scenario) {
  addWindingWarning(scenario, surveyObstacles(scenario));
}

void addScenarioWarnings(Scenario& scenario) {
  if (scenario.agents.empty()) scenario.warnings.push_back("no agents");
  addPairWarning(scenario);
  const ObstacleSurvey survey = surveyObstacles(scenario);
  addObstacleOverlapWarning(scenario, survey);
  addWindingWarning(scenario, survey);
  addRiskWarnings(scenario);
}

// A 3D world's start-up warning: agents whose nearest neighbour overlaps them.
void addScenario3Warnings(Scenario3& scenario) {
  const std::size_t n = scenario.agents.size();
  if (n == 0) {
    scenario.warnings.push_back(scenario.name + ": no agents");
    return;
  }
  // Each agent's nearest neighbour within twice the largest radius, from the proximity grid.
  std::vector<Vec3> positions(n);
  float largest = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    positions[i] = scenario.agents[i].position;
    largest = std::max(largest, scenario.agents[i].params.radius);
  }
  if (!(largest > 0.0f)) return;
  const PointGrid<Vec3> grid(positions, 2.0f * largest);
  const float rangeSq = 4.0f * largest * largest;
  std::size_t overlapping = 0;
  std::size_t example = n;
#pragma omp parallel for reduction(+ : overlapping) reduction(min : example)
  for (int k = 0; k < static_cast<int>(n); ++k) {
    // A pile of agents makes each one's search long: a stop skips the rest (an exception
    // cannot leave the parallel loop).
    if (stopRequested() != 0) continue;
    // The nearest other agent within twice the largest radius, ties to the lower number.
    const std::size_t self = static_cast<std::size_t>(k);
    float nearestSq = 0.0f;
    std::size_t nearest = n;
    grid.forEachAround(positions[self], [&](std::uint32_t other) {
      const float distSq = absSq(positions[other] - positions[self]);
      if (other == self || !(distSq < rangeSq)) return;
      if (nearest == n || distSq < nearestSq || (distSq == nearestSq && other < nearest)) {
        nearestSq = distSq;
        nearest = other;
      }
    });
    if (nearest == n) continue;
    const float reach = scenario.agents[self].params.radius + scenario.agents[nearest].params.radius;
    if (nearestSq < reach * reach) {
      ++overlapping;
      example = std::min(example, self);
    }
  }
  throwIfStopRequested("while checking the agents' start positions");
  if (overlapping > 0) {
    scenario.warnings.push_back(scenario.name + ": " + std::to_string(overlapping) +
                                " agents start overlapping another (agent " + std::to_string(example) +
                                " the first); ORCA pushes them apart in the first steps");
  }
  addPileWarning(scenario);
}

}  // namespace crowd
