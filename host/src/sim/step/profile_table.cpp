// The profile table (profile_table.hpp).
#include "sim/step/profile_table.hpp"

#include <algorithm>
#include <cmath>

#include <crowd/kernels/agent_grid.hpp>
#include <crowd/kernels/obstacle_edge.hpp>
#include <crowd/kernels/steer_seek.hpp>
#include <crowd/kernels/vec2.hpp>

namespace crowd {

namespace {

SteeringTerms steeringTerms(const AgentParams& a, const Behavior& b) {
  SteeringTerms s{};
  s.count = static_cast<int>(b.behaviors.size());
  for (int i = 0; i < s.count; ++i) {
    s.kind[i] = b.behaviors[static_cast<std::size_t>(i)].kind;
    s.weight[i] = b.behaviors[static_cast<std::size_t>(i)].weight;
  }
  s.combine = b.combine;
  s.pursuit = b.pursuit;
  s.avoidance = b.avoidance;
  s.goalOnly = b.goalOnly();
  s.path = b.path;
  s.maxForce = b.maxForce;
  s.invMass = 1.0f / b.mass;
  s.slowingRadius = arriveSlowingRadius(b.slowingRadius, b.mass, a.prefSpeed);
  s.pathRadius = b.pathRadius;
  s.lookAhead = b.lookAhead;
  s.wanderRadius = b.wanderRadius;
  s.wanderDistance = b.wanderDistance;
  s.wanderJitter = b.wanderJitter;
  s.boxLength = b.boxLength;
  s.separationRadius = b.separationRadius;
  s.planner = b.planner;
  s.frenet = b.frenet;
  s.frenet.targetSpeed = a.prefSpeed;
  s.frenet.maxSpeed = a.maxSpeed;
  return s;
}

}  // namespace

ProfileTable makeProfileTable(const std::vector<AgentParams>& profiles,
                              const std::vector<Behavior>& behaviors) {
  ProfileTable table;
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    const AgentParams& a = profiles[p];
    table.steering.push_back(steeringTerms(a, behaviors[p]));
    table.anySteering = table.anySteering || !table.steering.back().goalOnly;
    table.anyPlanners = table.anyPlanners || table.steering.back().planner != LocalPlanner::None;
    ProfileTerms t;
    t.radius = a.radius;
    t.maxSpeed = a.maxSpeed;
    t.prefSpeed = a.prefSpeed;
    t.neighborDist = a.neighborDist;
    t.neighborDistSq = sqr(a.neighborDist);
    t.maxNeighbors = a.maxNeighbors;
    t.invTimeHorizon = 1.0f / a.timeHorizon;
    t.invTimeHorizonObst = 1.0f / a.timeHorizonObst;
    t.obstacleRange = obstacleRange(a.timeHorizonObst, a.maxSpeed, a.radius);
    t.goalRadiusSq = sqr(a.goalRadius < 0.0f ? a.radius : a.goalRadius);
    table.terms.push_back(t);
    table.maxNeighborDist = std::max(table.maxNeighborDist, a.neighborDist);
    table.maxObstacleRange = std::max(table.maxObstacleRange, t.obstacleRange);
    table.maxNeighbors = std::max(table.maxNeighbors, a.maxNeighbors);
  }
  return table;
}

}  // namespace crowd
