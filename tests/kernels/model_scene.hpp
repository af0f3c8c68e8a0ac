// A hand-built step view for the motion models' kernel tests (collision_free_speed.hpp,
// social_force.hpp, density_speed.hpp): a few agents on one profile, each with every other agent
// as a neighbour (nearest first, as the neighbour phase lists them), no walls.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "crowd/kernels/step_view.hpp"

namespace model_test {

using crowd::Vec2;

struct ModelScene {
  std::vector<crowd::AgentId> id;
  std::vector<Vec2> position, velocity, prefVelocity, goal;
  std::vector<std::uint32_t> profile;
  std::vector<std::uint8_t> flags;
  std::vector<float> startTime;
  std::vector<int> neighbourSlots, neighbourCount;
  crowd::ProfileTerms terms{};
  crowd::SteeringTerms steering{};
  float timeStep = 0.1f;

  /// JuPedSim's CSM defaults and Helbing, Farkas and Vicsek's social force values; radius 0.2.
  explicit ModelScene(const std::vector<Vec2>& positions) : position(positions) {
    const std::size_t n = positions.size();
    for (std::size_t i = 0; i < n; ++i) id.push_back(crowd::AgentId{static_cast<std::uint32_t>(i), 1});
    velocity.assign(n, Vec2(0, 0));
    prefVelocity.assign(n, Vec2(0, 0));
    goal.assign(n, Vec2(0, 0));
    profile.assign(n, 0);
    flags.assign(n, 0);
    startTime.assign(n, 0.0f);
    terms.radius = 0.2f;
    terms.maxSpeed = 2.0f;
    terms.prefSpeed = 1.34f;
    crowd::ModelTerms& m = steering.model;
    m.timeGap = 1.0f;
    m.neighborRepulsion = 8.0f;
    m.neighborRepulsionRange = 0.1f;
    m.wallRepulsion = 5.0f;
    m.wallRepulsionRange = 0.02f;
    m.invRelaxationTime = 2.0f;
    m.invMass = 1.0f / 80.0f;
    m.socialStrength = 2000.0f;
    m.socialRange = 0.08f;
    m.bodyForce = 120000.0f;
    m.friction = 240000.0f;
    m.wallRange = 1.0f;
    m.densityRadius = 1.0f;
  }

  crowd::StepView view() {
    const int n = static_cast<int>(position.size());
    neighbourSlots.assign(static_cast<std::size_t>(n * n), -1);
    neighbourCount.assign(static_cast<std::size_t>(n), 0);
    for (int k = 0; k < n; ++k) {
      std::vector<int> others(static_cast<std::size_t>(n));
      std::iota(others.begin(), others.end(), 0);
      others.erase(others.begin() + k);
      std::stable_sort(others.begin(), others.end(), [&](int a, int b) {
        return crowd::absSq(position[a] - position[k]) < crowd::absSq(position[b] - position[k]);
      });
      for (std::size_t m = 0; m < others.size(); ++m) neighbourSlots[k * n + m] = others[m];
      neighbourCount[k] = n - 1;
    }
    crowd::StepView v{};
    v.agents = crowd::AgentArrays{id.data(),   position.data(), velocity.data(), prefVelocity.data(),
                                  goal.data(), profile.data(),  flags.data(),    startTime.data()};
    v.count = n;
    v.terms = &terms;
    v.steering = &steering;
    v.neighbours = crowd::NeighbourTable{neighbourSlots.data(), neighbourCount.data(), n, 1};
    v.obstacles.edgeCount = 0;
    v.timeStep = timeStep;
    v.invTimeStep = 1.0f / timeStep;
    return v;
  }
};

}  // namespace model_test
