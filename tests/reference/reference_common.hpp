// What the planar and the 3D reference (reference_sim.hpp, reference_sim_3d.hpp) hold and do
// alike, written once over their vector, agent and world types.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace crowd_reference {

inline double sqr(double a) {
  return a * a;
}

/// What a reference agent holds in either world: its state and RVO2's agent parameters. Each
/// world's agent (RefAgent, RefAgent3) adds what only it has and gives its default radius.
template <class V>
struct RefAgentOf {
  V position;
  V velocity;
  V prefVelocity;  ///< Used as is when hasGoal is false; recomputed from the goal otherwise.
  bool hasGoal = false;
  V goal;
  double radius;
  double maxSpeed = 2.0;
  double prefSpeed = 1.0;
  double neighborDist = 15.0;
  int maxNeighbors = 10;
  double timeHorizon = 10.0;

 protected:
  explicit RefAgentOf(double defaultRadius) : radius(defaultRadius) {}
};

/// The preferred velocity the agent uses this step: towards its goal and no faster than
/// prefSpeed when it has one, otherwise its fixed prefVelocity.
template <class Agent>
auto preferredVelocity(const Agent& agent) -> decltype(agent.position) {
  if (!agent.hasGoal) return agent.prefVelocity;
  auto toGoal = agent.goal - agent.position;
  if (absSq(toGoal) > sqr(agent.prefSpeed)) toGoal = normalize(toGoal) * agent.prefSpeed;
  return toGoal;
}

/// Indices of agent i's agent neighbours in the order ORCA uses them (ascending squared
/// distance, ties by index; at most maxNeighbors; strictly inside neighborDist).
template <class World>
std::vector<int> agentNeighbours(const World& world, int i) {
  const auto& self = world.agents.at(static_cast<std::size_t>(i));
  if (self.maxNeighbors <= 0) return {};
  const double rangeSq = sqr(self.neighborDist);
  std::vector<std::pair<double, int>> candidates;
  for (int j = 0; j < static_cast<int>(world.agents.size()); ++j) {
    if (j == i) continue;
    const double distSq = absSq(self.position - world.agents[static_cast<std::size_t>(j)].position);
    if (distSq < rangeSq) candidates.emplace_back(distSq, j);
  }
  // Pairs sort by distance first and index second, which is exactly the tie rule.
  std::sort(candidates.begin(), candidates.end());
  if (candidates.size() > static_cast<std::size_t>(self.maxNeighbors))
    candidates.resize(static_cast<std::size_t>(self.maxNeighbors));
  std::vector<int> result;
  for (const auto& candidate : candidates) result.push_back(candidate.second);
  return result;
}

/// Advances the world by one step: updates goal-driven preferred velocities, computes all new
/// velocities from the same (old) state (the world's computeNewVelocities), then commits
/// v = newV and p += v * timeStep for every agent.
template <class World>
void stepWorld(World& world) {
  for (auto& agent : world.agents) agent.prefVelocity = preferredVelocity(agent);
  const auto newVelocities = computeNewVelocities(world);
  for (std::size_t i = 0; i < world.agents.size(); ++i) {
    auto& agent = world.agents[i];
    agent.velocity = newVelocities[i];
    agent.position = agent.position + agent.velocity * world.timeStep;
  }
}

}  // namespace crowd_reference
