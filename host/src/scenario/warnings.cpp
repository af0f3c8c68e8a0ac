// Checks run on every scenario before a simulation starts (agents that start overlapping each
// other or an obstacle, clockwise polygons that enclose no agent) and the step from a Scenario
// to a Simulator.
//
// The checks must stay cheap for millions of agents, so they look things up in sparse grids
// (geometry.hpp): memory proportional to what is binned rather than to the area the scenario
// spans. About 0.2 s per million agents.
#include <crowd/scenario.hpp>

#include <glm/common.hpp>
#include <glm/vec2.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "geometry/geometry.hpp"
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
  const SparseGrid grid = binPoints(
      agents.size(), [&](std::size_t i) { return toPoint(agents[i].position); }, 2.0 * maxRadius);
  std::uint64_t tests = 0;
  for (const std::uint32_t a : grid.itemsByBucket()) {
    if (tests > kMaxPairTests) break;
    const AgentDef& first = agents[a];
    grid.forEachAround(toPoint(first.position), [&](std::uint32_t b) {
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

namespace {

// Origins are multiples of this, so a scene within half of it of (0, 0) is computed exactly
// where it stands (and so gives RVO2's results to the bit) and others move by a round amount.
constexpr double kOriginGrain = 4096.0;

// Near the middle of everything the scenario places: agents, goals, obstacle vertices.
glm::dvec2 frameOrigin(const Scenario& scenario) {
  glm::dvec2 lo(INFINITY), hi(-INFINITY);
  const auto include = [&](Vec2 p) {
    lo = glm::min(lo, glm::dvec2(p));
    hi = glm::max(hi, glm::dvec2(p));
  };
  for (const AgentDef& agent : scenario.agents) {
    include(agent.position);
    if (agent.goal) include(*agent.goal);
  }
  for (const std::vector<Vec2>& polygon : scenario.obstacles) {
    for (const Vec2 v : polygon) include(v);
  }
  for (const CircleSpec& circle : scenario.circles) include(circle.center);
  for (const PathSpec& path : scenario.paths) {
    for (const Vec2 v : path.points) include(v);
  }
  if (!(lo.x <= hi.x) || !(lo.y <= hi.y)) return glm::dvec2(0.0);
  return glm::round(0.5 * (lo + hi) / kOriginGrain) * kOriginGrain;
}

// A point of the scenario in the simulator's frame. Exact: the difference of a float and a
// multiple of kOriginGrain is a float again (at most as large).
Vec2 inFrame(Vec2 p, glm::dvec2 origin) { return Vec2(glm::dvec2(p) - origin); }

// Hands the scenario's map to the simulator, in its frame, and every routed agent's goals (its
// exits, or its goal) with the route already planned, so that it is re-planned when stuck.
void addNavigation(Simulator& simulator, const Scenario& scenario, const std::vector<AgentId>& ids, glm::dvec2 origin) {
  GridMap map = *scenario.map;
  map.setPlacement(GridPlacement{map.placement().cellSize, inFrame(map.placement().origin, origin)});
  simulator.setNavigation(map, scenario.route);
  const std::vector<std::int32_t> exitSet = exitSetOfAgents(scenario);
  std::vector<Vec2> goals;
  for (std::size_t i = 0; i < scenario.agents.size() && i + 1 < scenario.routeOffsets.size(); ++i) {
    if (scenario.routeOffsets[i + 1] - scenario.routeOffsets[i] < 2 || !scenario.agents[i].goal) continue;
    if (exitSet[i] >= 0) {
      goals = scenario.exits[static_cast<std::size_t>(exitSet[i])].points;
    } else {
      goals = {*scenario.agents[i].goal};
    }
    for (Vec2& goal : goals) goal = inFrame(goal, origin);
    simulator.navigate(ids[i], goals, true);
  }
}

}  // namespace

Simulator makeSimulator(const Scenario& scenario, int threads, BackendKind backend) {
  SimulatorConfig config;
  config.backend = backend;
  config.timeStep = scenario.timeStep;
  config.removeArrived = scenario.removeArrived;
  config.threads = threads;
  config.seed = scenario.seed;  // The deadlock jitter's draws follow the scenario's seed too.
  config.origin = frameOrigin(scenario);
  // A scenario built in code skips the reader's checks; say which item the simulator refused.
  try {
    Simulator simulator(config);
    for (std::size_t p = 0; p < scenario.obstacles.size(); ++p) {
      try {
        std::vector<Vec2> polygon = scenario.obstacles[p];
        for (Vec2& v : polygon) v = inFrame(v, config.origin);
        simulator.addObstacle(polygon);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": /obstacles/" + std::to_string(p) + ": " +
                            error.what());
      }
    }
    for (std::size_t c = 0; c < scenario.circles.size(); ++c) {
      try {
        simulator.addCircle(inFrame(scenario.circles[c].center, config.origin), scenario.circles[c].radius);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": /circles/" + std::to_string(c) + ": " + error.what());
      }
    }
    for (std::size_t p = 0; p < scenario.paths.size(); ++p) {
      try {
        std::vector<Vec2> points = scenario.paths[p].points;
        for (Vec2& v : points) v = inFrame(v, config.origin);
        simulator.addPath(points, scenario.paths[p].loop);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": /paths/" + std::to_string(p) + ": " + error.what());
      }
    }
    std::vector<AgentId> ids;
    ids.reserve(scenario.agents.size());
    for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
      try {
        AgentDef agent = scenario.agents[i];
        agent.position = inFrame(agent.position, config.origin);
        if (agent.goal) agent.goal = inFrame(*agent.goal, config.origin);
        agent.target.reset();  // Set below, once every agent exists.
        ids.push_back(simulator.addAgent(agent));
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": agent " + std::to_string(i) + ": " + error.what());
      }
    }
    // Each routed agent's own route, after the scenario's paths so that their numbers stand.
    if (!scenario.routeOffsets.empty()) {
      std::vector<Vec2> points;
      for (std::size_t i = 0; i < scenario.agents.size() && i + 1 < scenario.routeOffsets.size(); ++i) {
        const auto begin = static_cast<std::size_t>(scenario.routeOffsets[i]);
        const auto end = static_cast<std::size_t>(scenario.routeOffsets[i + 1]);
        if (end - begin < 2) continue;
        points.assign(scenario.routePoints.begin() + static_cast<std::ptrdiff_t>(begin),
                      scenario.routePoints.begin() + static_cast<std::ptrdiff_t>(end));
        for (Vec2& v : points) v = inFrame(v, config.origin);
        try {
          simulator.setRoute(ids[i], simulator.addPath(points, false));
        } catch (const std::invalid_argument& error) {
          throw ScenarioError(scenario.name + ": agent " + std::to_string(i) + ": route: " + error.what());
        }
      }
    }
    if (scenario.map) addNavigation(simulator, scenario, ids, config.origin);
    for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
      const std::optional<AgentId>& target = scenario.agents[i].target;
      if (!target) continue;
      if (target->index >= ids.size()) {
        throw ScenarioError(scenario.name + ": agent " + std::to_string(i) + ": target " +
                            std::to_string(target->index) + " does not exist (" + std::to_string(ids.size()) +
                            " agents)");
      }
      try {
        simulator.setTarget(ids[i], ids[target->index]);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": agent " + std::to_string(i) + ": " + error.what());
      }
    }
    return simulator;
  } catch (const ScenarioError&) {
    throw;
  } catch (const std::invalid_argument& error) {
    throw ScenarioError(scenario.name + ": " + error.what());
  }
}

}  // namespace crowd
