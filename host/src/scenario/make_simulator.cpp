// Where scenario files meet the library: a Scenario (or Scenario3) becomes a simulator holding
// its agents, obstacles, circles, paths, routes, map and targets, in a frame near the scenario's
// middle (SimulatorConfig::origin). A problem the library refuses is named by the scenario's item.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

namespace crowd {

namespace {

// Origins are multiples of a power of two, the grain, so a scene within half a grain of (0, 0) is
// computed exactly where it stands (and so gives RVO2's results to the bit) and others move by a
// round amount. Within half a grain of the origin a float's spacing is at most grain * 2^-25; the
// grain keeps that below 2^-13 of the scene's finest feature (a 0.25 m map cell at 1,000 m from
// the frame's origin let agents into walls; at 500 m it did not). Never more than 4096.
constexpr double kLargestGrain = 4096.0;
constexpr double kGrainsPerFinestFeature = 4096.0;

// The smallest length the scene must resolve: an agent's radius, an obstacle's edge (a map's
// cells among them), a circle's radius. Zero lengths are no feature.
double finestFeature(const Scenario& scenario) {
  double finest = INFINITY;
  const auto include = [&](double length) {
    if (length > 0.0) finest = std::min(finest, length);
  };
  for (const AgentDef& agent : scenario.agents) include(agent.params.radius);
  for (const std::vector<Vec2>& polygon : scenario.obstacles) {
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      include(glm::distance(glm::dvec2(polygon[i]), glm::dvec2(polygon[(i + 1) % polygon.size()])));
    }
  }
  for (const CircleSpec& circle : scenario.circles) include(circle.radius);
  if (scenario.map) include(scenario.map->placement().cellSize);
  return finest;
}

double originGrain(const Scenario& scenario) {
  const double finest = finestFeature(scenario);
  if (!std::isfinite(finest)) return kLargestGrain;
  return std::min(kLargestGrain, std::exp2(std::floor(std::log2(finest * kGrainsPerFinestFeature))));
}

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
  const double grain = originGrain(scenario);
  return glm::round(0.5 * (lo + hi) / grain) * grain;
}

// A point of the scenario in the simulator's frame. Exact where the grain is no finer than the
// point's float spacing: the difference of a float and such a multiple is a float again.
Vec2 inFrame(Vec2 p, glm::dvec2 origin) {
  return Vec2(glm::dvec2(p) - origin);
}

// Hands the scenario's map to the simulator, in its frame, and every routed agent's goals (its
// exits, or its goal) with the route already planned, so that it is re-planned when stuck.
void addNavigation(Simulator& simulator, const Scenario& scenario, const std::vector<AgentId>& ids,
                   glm::dvec2 origin) {
  GridMap map = *scenario.map;
  map.setPlacement(GridPlacement{map.placement().cellSize, inFrame(map.placement().origin, origin)});
  NavigationOptions options = scenario.route;
  for (ExitHours& hours : options.exitHours) hours.at = inFrame(hours.at, origin);  // As the goals below.
  simulator.setNavigation(map, options);
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
  if (scenario.periodicX.on()) {  // In the frame, as the agents' positions below.
    config.periodicX = PeriodicRange{static_cast<float>(scenario.periodicX.from - config.origin.x),
                                     static_cast<float>(scenario.periodicX.to - config.origin.x)};
  }
  // A scenario built in code skips the reader's checks; say which item the simulator refused.
  try {
    Simulator simulator(config);
    for (std::size_t p = 0; p < scenario.obstacles.size(); ++p) {
      try {
        std::vector<Vec2> polygon = scenario.obstacles[p];
        for (Vec2& v : polygon) v = inFrame(v, config.origin);
        simulator.addObstacle(polygon);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": /obstacles/" + std::to_string(p) + ": " + error.what());
      }
    }
    for (std::size_t c = 0; c < scenario.circles.size(); ++c) {
      try {
        simulator.addCircle(inFrame(scenario.circles[c].center, config.origin), scenario.circles[c].radius);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": /circles/" + std::to_string(c) + ": " + error.what());
      }
    }
    for (std::size_t z = 0; z < scenario.speedZones.size(); ++z) {
      try {
        std::vector<Vec2> polygon = scenario.speedZones[z].polygon;
        for (Vec2& v : polygon) v = inFrame(v, config.origin);
        simulator.addSpeedZone(polygon, scenario.speedZones[z].factor);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": /speedZones/" + std::to_string(z) + ": " + error.what());
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

Simulator3 makeSimulator3(const Scenario3& scenario, int threads, BackendKind backend) {
  SimulatorConfig config;
  config.timeStep = scenario.timeStep;
  config.removeArrived = scenario.removeArrived;
  config.threads = threads;
  config.backend = backend;
  config.seed = scenario.seed;
  Simulator3 sim(config);
  // Every agent first, then the targets (by agent number: agent i has id index i), so that an
  // agent may target one listed after it.
  for (AgentDef3 agent : scenario.agents) {
    agent.target.reset();
    sim.addAgent(agent);
  }
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    if (scenario.agents[i].target) sim.setTarget(sim.ids()[i], sim.ids()[scenario.agents[i].target->index]);
  }
  return sim;
}

}  // namespace crowd
