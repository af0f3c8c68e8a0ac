// The planar simulator: what only a planar world has (obstacles, paths and their reference lines,
// navigation) around the BasicSimulator it shares with Simulator3. Paths and routes are in
// simulator_paths.cpp, navigation in simulator_navigation.cpp.
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include <crowd/limits.hpp>
#include <crowd/simulator.hpp>

#include "params/number_text.hpp"
#include "sim/planar_world.hpp"
#include "sim/simulator_core.hpp"

namespace crowd {

Simulator::Simulator(const SimulatorConfig& config)
    : BasicSimulator<Vec2>(config), world_(std::make_unique<PlanarWorld>()) {}
Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

int Simulator::addCircle(Vec2 center, float radius) {
  requirePoint(center, "circle centre");
  if (const std::string problem = checkLimit(radius, limits::kRadius, "circle radius"); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (!(radius > 0.0f)) throw std::invalid_argument("circle radius must be > 0, got " + formatFloat(radius));
  // The polygon ORCA sees reaches past the disc; its corners must be within the limits too.
  const float reach = radius / std::cos(std::numbers::pi_v<float> / ObstacleSet::kCircleSides);
  requirePoint(center + Vec2(reach, reach), "circle's outermost point");
  requirePoint(center - Vec2(reach, reach), "circle's outermost point");
  core_->hostChanged();
  return world_->obstacles.addCircle(center, radius);
}

int Simulator::addObstacle(std::span<const Vec2> vertices) {
  for (const Vec2 v : vertices) requirePoint(v, "obstacle vertex");
  core_->hostChanged();
  return world_->obstacles.addPolygon(vertices);
}

int Simulator::addSpeedZone(std::span<const Vec2> polygon, float factor) {
  if (polygon.size() < 3) {
    throw std::invalid_argument("a speed zone needs at least 3 vertices, got " +
                                std::to_string(polygon.size()));
  }
  for (const Vec2 v : polygon) requirePoint(v, "speed zone vertex");
  if (const std::string problem = checkLimit(factor, limits::kSpeedFactor, "speed zone factor");
      !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  core_->hostChanged();
  PlanarWorld& w = *world_;
  w.zonePoints.insert(w.zonePoints.end(), polygon.begin(), polygon.end());
  w.zoneStart.push_back(static_cast<int>(w.zonePoints.size()));
  w.zoneFactor.push_back(factor);
  return static_cast<int>(w.zoneFactor.size()) - 1;
}

std::size_t Simulator::speedZoneCount() const {
  return world_->zoneFactor.size();
}

const ObstacleSet& Simulator::obstacles() const {
  return world_->obstacles;
}

StaticWorldView Simulator::staticWorld(float maxObstacleRange) {
  return world_->staticWorld(maxObstacleRange);
}

std::size_t Simulator::worldBytes() const {
  return world_->memoryBytes();
}

}  // namespace crowd
