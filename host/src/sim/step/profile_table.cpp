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

ModelTerms modelTerms(const AgentParams& a, const ModelParams& p) {
  ModelTerms m{};
  m.timeGap = p.timeGap;
  m.neighborRepulsion = p.neighborRepulsion;
  m.neighborRepulsionRange = p.neighborRepulsionRange;
  m.wallRepulsion = p.wallRepulsion;
  m.wallRepulsionRange = p.wallRepulsionRange;
  m.invRelaxationTime = 1.0f / p.relaxationTime;
  m.invMass = 1.0f / p.bodyMass;
  m.socialStrength = p.socialStrength;
  m.socialRange = p.socialRange;
  m.bodyForce = p.bodyForce;
  m.friction = p.friction;
  m.wallRange = modelWallRange(a.radius, p);
  m.densitySpeed = p.densitySpeed;
  m.densityRadius = p.densityRadius;
  return m;
}

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
  s.model = modelTerms(a, b.model);
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
    const SteeringTerms& s = table.steering.back();
    table.anySteering = table.anySteering || !s.goalOnly;
    table.anyPedestrianModels = table.anyPedestrianModels || s.avoidance == AvoidanceMode::Csm ||
                                s.avoidance == AvoidanceMode::SocialForce;
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
