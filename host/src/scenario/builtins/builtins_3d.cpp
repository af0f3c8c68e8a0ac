// The 3D built-in scenarios: sphere (RVO2-3D's Sphere example) and swarm (random goals in a
// box).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <crowd/scenario3.hpp>
#include <crowd/scenario_spec.hpp>

#include "scenario/group_generation_3d.hpp"
#include "scenario/risks.hpp"

namespace crowd {
namespace {

// RVO2-3D's example agents are RVO2's (AgentParams' defaults: neighborDist 15, maxNeighbors 10,
// timeHorizon 10, radius 1.5, maxSpeed 2, preferred speed 1); its Sphere example counts an agent
// home within two radii.
AgentParams rvo2ExampleParams() {
  AgentParams params;
  params.goalRadius = 2.0f * params.radius;
  return params;
}

// RVO2-3D's Sphere: rings of latitude 0.1 rad apart (the angle stepped in float) on a sphere of
// radius 100, agents 2.5 apart along each ring; the angles are worked out in the same precision
// as there, so the positions are its own to the bit.
std::vector<Vec3> rvo2SpherePositions() {
  std::vector<Vec3> out;
  for (float a = 0.0f; static_cast<double>(a) < std::numbers::pi; a += 0.1f) {
    const float z = 100.0f * std::cos(a);
    const float ring = 100.0f * std::sin(a);
    const float perRing = ring / 2.5f;
    for (std::size_t i = 0; static_cast<float>(i) < perRing; ++i) {
      const double angle = static_cast<double>(static_cast<float>(i) * 2.0f) * std::numbers::pi / perRing;
      out.push_back(
          Vec3(static_cast<float>(ring * std::cos(angle)), static_cast<float>(ring * std::sin(angle)), z));
    }
  }
  return out;
}

Scenario3 sphere(std::optional<std::size_t> agents) {
  Scenario3 s;
  s.name = "builtin:sphere";
  s.timeStep = 0.125f;
  const AgentParams params = rvo2ExampleParams();
  const std::vector<Vec3> rvo2 = rvo2SpherePositions();
  float radius = 100.0f;
  if (!agents || *agents == rvo2.size()) {
    for (const Vec3 p : rvo2) {
      AgentDef3 agent;
      agent.position = p;
      agent.goal = -p;
      agent.params = params;
      s.agents.push_back(agent);
    }
  } else {
    // Other counts: the same area per agent, spread evenly (the rings do not scale: their
    // spacing grows with the radius while the agents' along a ring does not).
    radius = 100.0f *
             static_cast<float>(std::sqrt(static_cast<double>(*agents) / static_cast<double>(rvo2.size())));
    scenario_detail::addSphereGroup(s.agents, *agents, radius, Vec3(0.0f), params);
  }
  // Across the sphere at the preferred speed, twice over for the crush in the middle.
  s.steps = static_cast<std::int64_t>(std::ceil(4.0f * radius / params.prefSpeed / s.timeStep)) + 400;
  return s;
}

Scenario3 swarm(std::optional<std::size_t> agents, std::uint64_t seed) {
  Scenario3 s;
  s.name = "builtin:swarm";
  s.timeStep = 0.125f;
  s.seed = seed;
  const std::size_t n = agents.value_or(1000);
  // One agent per 8 x 8 x 8 (about 27 within a neighbour distance of 15): the sites of a cubic
  // lattice of spacing 8, chosen at random when there are more sites than agents, each moved
  // by up to 2.5 in every coordinate, so that no two start closer than two radii (3).
  constexpr float kSpacing = 8.0f;
  constexpr float kJitter = 2.5f;
  std::size_t perSide = 1;
  while (perSide * perSide * perSide < n) ++perSide;
  const float side = kSpacing * static_cast<float>(perSide);
  scenario_detail::ScenarioRandom random(seed, 0);
  std::vector<std::uint32_t> sites(perSide * perSide * perSide);
  for (std::size_t i = 0; i < sites.size(); ++i) sites[i] = static_cast<std::uint32_t>(i);
  for (std::size_t i = 0; i < n; ++i) {  // The first n of a Fisher-Yates shuffle.
    const std::size_t j = i + static_cast<std::size_t>(random.unit() * static_cast<double>(sites.size() - i));
    std::swap(sites[i], sites[std::min(j, sites.size() - 1)]);
  }
  const AgentParams params = rvo2ExampleParams();
  const Vec3 corner(-0.5f * side);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t site = sites[i];
    const Vec3 lattice(static_cast<float>(site % perSide), static_cast<float>(site / perSide % perSide),
                       static_cast<float>(site / perSide / perSide));
    AgentDef3 agent;
    const Vec3 jitter(random.floatBetween(-kJitter, kJitter), random.floatBetween(-kJitter, kJitter),
                      random.floatBetween(-kJitter, kJitter));
    agent.position = corner + kSpacing * (lattice + Vec3(0.5f)) + jitter;
    agent.goal = Vec3(random.floatBetween(corner.x, -corner.x), random.floatBetween(corner.y, -corner.y),
                      random.floatBetween(corner.z, -corner.z));
    agent.params = params;
    s.agents.push_back(agent);
  }
  s.steps = static_cast<std::int64_t>(std::ceil(3.0f * side / s.timeStep)) + 400;
  return s;
}

}  // namespace

std::vector<std::string> builtinScenario3Names() {
  return {"sphere", "swarm"};
}

std::string builtinScenario3Description(const std::string& name) {
  if (name == "sphere") {
    return "3D: agents on a sphere swap places with the antipodal agent; RVO2-3D's Sphere example at 812 "
           "(default 812 "
           "agents)";
  }
  if (name == "swarm")
    return "3D: agents fly from a jittered lattice to random goals in a box (default 1000 agents)";
  return {};
}

bool isBuiltinScenario3(const std::string& name) {
  return name == "sphere" || name == "swarm";
}

Scenario3 builtinScenario3(const std::string& name, std::optional<std::size_t> agents, std::uint64_t seed) {
  if (agents && *agents > limits::kMaxScenarioAgents) {
    throw ScenarioError("builtin:" + name + ": " + std::to_string(*agents) + " agents is more than the " +
                        std::to_string(limits::kMaxScenarioAgents) + " a scenario can hold");
  }
  if (agents && *agents == 0) {
    throw ScenarioError("builtin:" + name + ": agents: must be between 1 and " +
                        std::to_string(limits::kMaxScenarioAgents) + ", got 0");
  }
  if (agents) checkMemoryFor(*agents, "builtin:" + name, bytesPerAgentEstimate3());  // Before generating.
  Scenario3 s;
  if (name == "sphere") {
    s = sphere(agents);
  } else if (name == "swarm") {
    s = swarm(agents, seed);
  } else {
    throw ScenarioError("unknown 3D built-in scenario '" + name + "' (known: sphere, swarm)");
  }
  s.seed = seed;
  addScenario3Warnings(s);
  return s;
}

}  // namespace crowd
