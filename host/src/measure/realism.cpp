#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <crowd/limits.hpp>
#include <crowd/realism.hpp>
#include <crowd/simulator.hpp>
#include <crowd/stop_request.hpp>

#include "params/number_text.hpp"

namespace crowd {
namespace {

// Where the scene is computed from: the middle of its annotations, so that a recording in
// large coordinates (a map's) keeps the simulator's float precision.
glm::dvec2 middleOf(const RecordedScene& scene) {
  glm::dvec2 low{INFINITY, INFINITY};
  glm::dvec2 high{-INFINITY, -INFINITY};
  for (const RecordedTrack& t : scene.tracks) {
    for (const RecordedPoint& p : t.points) {
      low = glm::min(low, p.position);
      high = glm::max(high, p.position);
    }
  }
  return 0.5 * low + 0.5 * high;  // Halved first: the sum of two huge coordinates overflows.
}

Vec2 local(glm::dvec2 p, glm::dvec2 origin) {
  return Vec2{static_cast<float>(p.x - origin.x), static_cast<float>(p.y - origin.y)};
}

// The pedestrian as an agent: where and how fast the recording first shows them, heading for
// where it last shows them at their mean speed.
AgentDef pedestrianAgent(const RecordedTrack& track, const RealismOptions& o, glm::dvec2 origin) {
  const std::vector<RecordedPoint>& p = track.points;
  AgentDef def;
  def.params = o.params;
  def.position = local(p.front().position, origin);
  def.goal = local(p.back().position, origin);
  def.behavior.avoidance = o.avoidance;
  if (p.size() < 2) {
    def.params.prefSpeed = 0.0f;
    def.params.maxSpeed = 0.0f;
    return def;
  }
  double length = 0.0;
  for (std::size_t j = 1; j < p.size(); ++j) length += glm::distance(p[j - 1].position, p[j].position);
  const double duration = (p.back().instant - p.front().instant) * o.frameTime;
  const double meanSpeed = length / duration;
  const double maxSpeed = meanSpeed * o.maxSpeedFactor;
  if (!(maxSpeed <= limits::kSpeed.max)) {
    throw std::invalid_argument("pedestrian " + std::to_string(track.pedestrian) + " walks " +
                                formatNumber(length) + " m in " + formatNumber(duration) +
                                " s, beyond the speed limit; is --frame-time right?");
  }
  def.params.prefSpeed = static_cast<float>(meanSpeed);
  def.params.maxSpeed = static_cast<float>(maxSpeed);
  const glm::dvec2 v = (p[1].position - p[0].position) / ((p[1].instant - p[0].instant) * o.frameTime);
  def.velocity = Vec2{static_cast<float>(v.x), static_cast<float>(v.y)};
  return def;
}

// Paced to the recording: for the next interval, the velocity that reaches the last annotated
// position when the recording does, from where the agent is now, within its maxSpeed. (A fixed
// preferred velocity rather than the goal rule, which slows down over the last metres.)
void keepToSchedule(Simulator& sim, AgentId id, const RecordedTrack& track, int instant,
                    const RealismOptions& o, glm::dvec2 origin) {
  const double left = (track.points.back().instant - instant) * o.frameTime;
  if (left <= 0.0) return;
  const glm::dvec2 goal = track.points.back().position - origin;
  const Vec2 p = sim.position(id);
  const glm::dvec2 velocity = (goal - glm::dvec2{p.x, p.y}) / left;
  const double speed = glm::length(velocity);
  const double limit = sim.params(id).maxSpeed;
  const glm::dvec2 paced = speed > limit ? velocity * (limit / speed) : velocity;
  sim.setPrefVelocity(id, Vec2{static_cast<float>(paced.x), static_cast<float>(paced.y)});
}

SimulatorConfig simulatorConfig(const RealismOptions& o) {
  SimulatorConfig config;
  config.timeStep = static_cast<float>(o.frameTime / o.substeps);
  config.threads = o.threads;
  config.seed = o.seed;
  return config;
}

double percentile(const std::vector<double>& sorted, double q) {
  const double at = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(at));
  if (below + 1 >= sorted.size()) return sorted.back();
  return sorted[below] + (sorted[below + 1] - sorted[below]) * (at - static_cast<double>(below));
}

}  // namespace

AgentParams pedestrianParams() {
  AgentParams params;
  params.radius = 0.25f;
  params.neighborDist = 5.0f;
  params.maxNeighbors = 10;
  params.timeHorizon = 2.0f;
  params.timeHorizonObst = 2.0f;
  return params;
}

void checkRealismOptions(const RealismOptions& o) {
  if (!(o.frameTime > 0.0) || !std::isfinite(o.frameTime) || o.frameTime > 1e4) {
    throw std::invalid_argument("the frame time must be above 0 and at most 1e4 s, got " +
                                formatNumber(o.frameTime));
  }
  if (o.substeps < 1 || o.substeps > 1000) {
    throw std::invalid_argument("substeps must be 1 to 1000, got " + std::to_string(o.substeps));
  }
  if (!(o.maxSpeedFactor >= 1.0) || o.maxSpeedFactor > 100.0) {
    throw std::invalid_argument("the maximum speed factor must be 1 to 100, got " +
                                formatNumber(o.maxSpeedFactor));
  }
  const double step = o.frameTime / o.substeps;
  if (step < limits::kTimeStep.min || step > limits::kTimeStep.max) {
    throw std::invalid_argument("the frame time over substeps, " + formatNumber(step) +
                                " s, is the simulator's time step: it must be 1e-6 to 1000 s");
  }
  checkConfig(simulatorConfig(o));  // Threads, as every simulator's.
  const std::string problem = checkAgentParams(o.params);
  if (!problem.empty()) throw std::invalid_argument(problem);
}

void checkRecordedScene(const RecordedScene& scene) {
  if (scene.instants < 0) throw std::invalid_argument("the scene has a negative number of instants");
  for (const RecordedTrack& t : scene.tracks) {
    const std::string who = "pedestrian " + std::to_string(t.pedestrian);
    if (t.points.empty()) throw std::invalid_argument(who + " has no annotations");
    for (std::size_t j = 0; j < t.points.size(); ++j) {
      const RecordedPoint& p = t.points[j];
      if (p.instant < 0 || p.instant >= scene.instants || (j > 0 && p.instant <= t.points[j - 1].instant)) {
        throw std::invalid_argument(who + ": annotation instants must rise within 0 to " +
                                    std::to_string(scene.instants - 1));
      }
      if (!std::isfinite(p.position.x) || !std::isfinite(p.position.y)) {
        throw std::invalid_argument(who + ": a position is not finite");
      }
    }
  }
}

SceneTrajectories recordedTrajectories(const RecordedScene& scene) {
  SceneTrajectories out;
  for (const RecordedTrack& t : scene.tracks) {
    out.emplace_back();
    for (const RecordedPoint& p : t.points) out.back().push_back(p.position);
  }
  return out;
}

std::int64_t reenactmentSteps(const RecordedScene& scene, int substeps) {
  // Spans [first, last) of the tracks, merged: the loop below steps after every instant at which
  // somebody stays on.
  std::vector<std::pair<int, int>> spans;
  for (const RecordedTrack& t : scene.tracks) {
    if (!t.points.empty()) spans.emplace_back(t.points.front().instant, t.points.back().instant);
  }
  std::sort(spans.begin(), spans.end());
  std::int64_t instants = 0;
  int reached = std::numeric_limits<int>::min();
  for (const auto& [first, last] : spans) {
    const int from = std::max(first, reached);
    if (last > from) instants += last - from;
    reached = std::max(reached, last);
  }
  return instants * substeps;
}

SceneTrajectories simulateRecordedScene(const RecordedScene& scene, const RealismOptions& o) {
  checkRealismOptions(o);
  checkRecordedScene(scene);
  const glm::dvec2 origin = middleOf(scene);
  Simulator sim(simulatorConfig(o));

  // Which tracks enter and leave at each instant.
  std::vector<std::vector<std::size_t>> entering(static_cast<std::size_t>(scene.instants));
  std::vector<std::vector<std::size_t>> leaving(static_cast<std::size_t>(scene.instants));
  std::vector<AgentDef> defs;
  for (std::size_t t = 0; t < scene.tracks.size(); ++t) {
    const RecordedTrack& track = scene.tracks[t];
    entering[static_cast<std::size_t>(track.points.front().instant)].push_back(t);
    leaving[static_cast<std::size_t>(track.points.back().instant)].push_back(t);
    defs.push_back(pedestrianAgent(track, o, origin));  // Every pedestrian checked before any step.
  }
  SceneTrajectories out(scene.tracks.size());
  std::vector<AgentId> agent(scene.tracks.size());
  std::vector<std::size_t> next(scene.tracks.size(), 0);  // Each track's next annotation.
  std::vector<std::size_t> present;                       // Tracks in the simulation.
  for (int instant = 0; instant < scene.instants; ++instant) {
    const auto k = static_cast<std::size_t>(instant);
    for (const std::size_t t : entering[k]) {
      try {
        agent[t] = sim.addAgent(defs[t]);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(
            "pedestrian " + std::to_string(scene.tracks[t].pedestrian) + ": " + e.what() +
            " (positions are taken from the middle of the scene, the velocity from the "
            "first two annotations)");
      }
      present.push_back(t);
    }
    for (const std::size_t t : present) {
      const RecordedTrack& track = scene.tracks[t];
      if (next[t] < track.points.size() && track.points[next[t]].instant == instant) {
        const Vec2 p = sim.position(agent[t]);
        out[t].push_back(origin + glm::dvec2{p.x, p.y});
        ++next[t];
      }
    }
    for (const std::size_t t : leaving[k]) {
      sim.removeAgent(agent[t]);
      present.erase(std::find(present.begin(), present.end(), t));
    }
    if (present.empty()) continue;
    if (o.pace == Pace::Schedule) {
      for (const std::size_t t : present) keepToSchedule(sim, agent[t], scene.tracks[t], instant, o, origin);
    }
    throwIfStopRequested("while re-enacting the recording");
    for (int s = 0; s < o.substeps; ++s) sim.step();
  }
  return out;
}

Distribution distributionOf(std::vector<double> values) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  d.min = values.front();
  d.p5 = percentile(values, 5.0);
  d.p50 = percentile(values, 50.0);
  d.p95 = percentile(values, 95.0);
  return d;
}

SceneStats measureScene(const RecordedScene& scene, const SceneTrajectories& positions, double frameTime,
                        double contactDistance, const SceneTrajectories* recorded) {
  checkRecordedScene(scene);
  if (positions.size() != scene.tracks.size() ||
      (recorded != nullptr && recorded->size() != positions.size())) {
    throw std::invalid_argument("the trajectories are of another scene");
  }
  SceneStats stats;
  std::vector<double> speeds;
  std::vector<std::vector<glm::dvec2>> atInstant(static_cast<std::size_t>(scene.instants));
  double errorSum = 0.0;
  double finalSum = 0.0;
  std::size_t errors = 0;
  std::size_t finals = 0;
  for (std::size_t t = 0; t < scene.tracks.size(); ++t) {
    const std::vector<RecordedPoint>& points = scene.tracks[t].points;
    const std::vector<glm::dvec2>& p = positions[t];
    if (p.size() != points.size() || (recorded != nullptr && (*recorded)[t].size() != p.size())) {
      throw std::invalid_argument("the trajectories are of another scene");
    }
    for (std::size_t j = 0; j < p.size(); ++j) {
      atInstant[static_cast<std::size_t>(points[j].instant)].push_back(p[j]);
      if (j > 0 && points[j].instant == points[j - 1].instant + 1) {
        speeds.push_back(glm::distance(p[j], p[j - 1]) / frameTime);
      }
      if (recorded == nullptr || j == 0) continue;
      const double error = glm::distance(p[j], (*recorded)[t][j]);
      errorSum += error;
      ++errors;
      if (j + 1 == p.size()) {
        finalSum += error;
        ++finals;
      }
    }
  }
  std::vector<double> closest;
  for (const std::vector<glm::dvec2>& people : atInstant) {
    if (people.size() < 2) continue;
    double nearest = INFINITY;
    for (std::size_t a = 0; a < people.size(); ++a) {
      for (std::size_t b = a + 1; b < people.size(); ++b)
        nearest = std::min(nearest, glm::distance(people[a], people[b]));
    }
    closest.push_back(nearest);
    if (nearest < contactDistance) ++stats.closeInstants;
  }
  stats.speed = distributionOf(std::move(speeds));
  stats.closestPair = distributionOf(std::move(closest));
  if (recorded != nullptr && errors > 0) {  // -1 (not compared) where nobody was annotated twice.
    stats.ade = errorSum / static_cast<double>(errors);
    stats.fde = finalSum / static_cast<double>(finals);
  }
  return stats;
}

}  // namespace crowd
