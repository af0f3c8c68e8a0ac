#include <algorithm>
#include <cmath>

#include <crowd/kernels/agent_grid.hpp>
#include <crowd/kernels/obstacle_edge.hpp>
#include <crowd/kernels/steer_seek.hpp>
#include <crowd/kernels/vec2.hpp>

#include "sim/backend.hpp"

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

ProfileTable makeProfileTable(const std::vector<AgentParams>& profiles, const std::vector<Behavior>& behaviors) {
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

float CellSizeChooser::choose(float configured, float maxNeighborDist) {
  smallest_ = std::max(maxNeighborDist / 2.5f, 1e-3f);
  largest_ = std::max(maxNeighborDist, smallest_);
  maxNeighborDist_ = maxNeighborDist;
  automatic_ = !(configured > 0.0f);
  if (!automatic_) return std::max(configured, smallest_);
  // A hundredth wider than a list reaches, for the rounding of the binning.
  if (sparse_) return std::max(1.01f * (maxNeighborDist + listSkin()), smallest_);
  // Half the neighbour distance first (a query then reads at most 5 x 5 cells).
  if (!(current_ > 0.0f)) current_ = 0.5f * maxNeighborDist;
  current_ = std::clamp(current_, smallest_, largest_);
  return current_;
}

void CellSizeChooser::observe(long long agents, long long rangeSum) {
  if (agents == 0) return;
  meanRange_ = static_cast<float>(static_cast<double>(rangeSum) / 1024.0 / static_cast<double>(agents));
  sparse_ = meanRange_ >= 0.95f * maxNeighborDist_ && maxNeighborDist_ > 0.0f;
  if (automatic_) current_ = adaptedCellSize(current_, meanRange_, smallest_, largest_);
}

float CellSizeChooser::nearThresholdSq() const {
  // A twentieth more than the mean: in a uniform crowd about 1.1 K candidates fall below it,
  // so few are sorted in one by one, and most agents find their K within it. Measured over
  // factors 0.8 to 1.4 (random, 100,000 agents), 1.05 was fastest.
  return meanRange_ > 0.0f ? sqr(1.05f * meanRange_) : INFINITY;
}

StepView3 stepSettings3(const StepRequest3& request, float nearThresholdSq) {
  StepView3 view{};
  view.nearThresholdSq = nearThresholdSq;
  view.lists = CandidateLists{nullptr, nullptr, 0, 0.0f, ListMode::None};
  view.timeStep = request.timeStep;
  view.invTimeStep = 1.0f / request.timeStep;
  view.clampSpeed = request.clampSpeed;
  view.jitter = request.jitter;
  view.wanderIn = request.wanderIn;
  view.wanderOut = request.wanderOut;
  view.seed = request.seed;
  view.step = request.step;
  return view;
}

StepView stepSettings(const StepRequest& request, float nearThresholdSq) {
  StepView view{};
  view.timeStep = request.timeStep;
  view.invTimeStep = 1.0f / request.timeStep;
  view.nearThresholdSq = nearThresholdSq;
  view.jitter = request.jitter;
  view.clampSpeed = request.clampSpeed;
  view.seed = request.seed;
  view.step = request.step;
  view.lists = CandidateLists{nullptr, nullptr, 0, 0.0f, ListMode::None};
  return view;
}

}  // namespace crowd
