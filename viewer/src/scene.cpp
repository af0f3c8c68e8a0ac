// Snapshots of a simulator for drawing (scene.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>
#include <utility>

#include <glm/common.hpp>

#include <crowd/kernels/orca_agents.hpp>
#include <crowd/viewer/scene.hpp>

namespace crowd::viewer {
namespace {

constexpr float kCategories = 16.0f;  // Categorical keys are k / 16 (the palette's size).

// Per agent, how many others lie within two radii of it, through a hashed grid of cells two
// of the largest radii wide.
std::vector<int> crowding(std::span<const Vec2> positions, const std::vector<float>& radii) {
  std::vector<int> count(positions.size(), 0);
  if (positions.empty()) return count;
  const float reach = 2.0f * std::max(*std::max_element(radii.begin(), radii.end()), 1e-3f);
  auto key = [reach](Vec2 p) {
    const auto x = static_cast<std::int64_t>(std::floor(p.x / reach));
    const auto y = static_cast<std::int64_t>(std::floor(p.y / reach));
    return (x * 73856093) ^ (y * 19349663);
  };
  std::unordered_map<std::int64_t, std::vector<std::uint32_t>> cells;
  for (std::size_t i = 0; i < positions.size(); ++i)
    cells[key(positions[i])].push_back(static_cast<std::uint32_t>(i));
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Vec2 p = positions[i];
    const float r = 2.0f * radii[i];
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const auto found =
            cells.find(key(p + Vec2(static_cast<float>(dx) * reach, static_cast<float>(dy) * reach)));
        if (found == cells.end()) continue;
        for (const std::uint32_t j : found->second) {
          if (j != i && absSq(positions[j] - p) <= r * r) ++count[i];
        }
      }
    }
  }
  return count;
}

// The agents' common maximum speed and the categorical keys present (StaticScene).
void addLegendFacts(const Simulator& sim, StaticScene& scene) {
  const std::vector<float> maxSpeeds = sim.maxSpeeds();
  const bool common = !maxSpeeds.empty() && std::all_of(maxSpeeds.begin(), maxSpeeds.end(),
                                                        [&](float v) { return v == maxSpeeds.front(); });
  scene.commonMaxSpeed = common ? maxSpeeds.front() : 0.0f;
  scene.profiles = sim.profileCount();
  std::set<int> profiles, behaviors;
  for (const AgentId id : sim.ids()) {
    profiles.insert(static_cast<int>(sim.profileIndex(id) % 16u));
    const Behavior& b = sim.behavior(id);
    behaviors.insert(b.behaviors.empty() ? 0 : (static_cast<int>(b.behaviors.front().kind) + 1) % 16);
  }
  scene.profileKeys.assign(profiles.begin(), profiles.end());
  scene.behaviorKeys.assign(behaviors.begin(), behaviors.end());
}

}  // namespace

StaticScene StaticScene::fromSimulator(const Simulator& sim, bool goals) {
  StaticScene scene;
  const ObstacleSet& obstacles = sim.obstacles();
  // Circles stand in the polygon list as 16-gons; they are drawn as discs instead.
  std::vector<bool> circlePolygon(obstacles.polygonCount(), false);
  for (std::size_t c = 0; c < obstacles.circles().size(); ++c) {
    circlePolygon[static_cast<std::size_t>(obstacles.circlePolygon(c))] = true;
  }
  bool first = true;
  auto grow = [&](Vec2 p) {
    if (first) {
      scene.lo = scene.hi = p;
      first = false;
    }
    scene.lo = glm::min(scene.lo, p);
    scene.hi = glm::max(scene.hi, p);
  };
  for (std::size_t p = 0; p < obstacles.polygonCount(); ++p) {
    if (circlePolygon[p]) continue;
    const std::span<const Vec2> polygon = obstacles.polygon(p);
    scene.polygons.emplace_back(polygon.begin(), polygon.end());
    for (const Vec2 v : polygon) grow(v);
  }
  for (const CircleObstacle& c : obstacles.circles()) {
    scene.circles.push_back({c.center.x, c.center.y, c.radius});
    grow(c.center - Vec2(c.radius));
    grow(c.center + Vec2(c.radius));
  }
  const std::span<const Vec2> positions = sim.positions();
  const std::vector<float> radii = sim.radii();
  std::set<std::pair<float, float>> distinctGoals;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    grow(positions[i] - Vec2(radii[i]));
    grow(positions[i] + Vec2(radii[i]));
    const std::optional<Vec2> goal = sim.goal(sim.ids()[i]);
    if (!goal) continue;
    if (distinctGoals.size() <= Marks::kMaxGoals) distinctGoals.emplace(goal->x, goal->y);
    if (goals) grow(*goal);
  }
  if (distinctGoals.size() <= Marks::kMaxGoals) {
    for (const auto& [x, y] : distinctGoals) scene.marks.goals.emplace_back(x, y);
  }
  addLegendFacts(sim, scene);
  return scene;
}

Marks scenarioMarks(const Scenario& scenario, glm::dvec2 origin) {
  auto inFrame = [origin](Vec2 p) { return Vec2(glm::dvec2(p) - origin); };
  Marks marks;
  std::set<std::pair<float, float>> exits;
  for (const ExitSpec& set : scenario.exits) {
    for (const Vec2 p : set.points) exits.emplace(p.x, p.y);
  }
  for (const auto& [x, y] : exits) marks.exits.push_back(inFrame(Vec2(x, y)));
  if (scenario.measure) {
    for (const MeasurementArea& area : scenario.measure->areas) {
      std::vector<Vec2>& polygon = marks.areas.emplace_back();
      for (const Vec2 p : area.polygon) polygon.push_back(inFrame(p));
    }
    for (const MeasurementLine& line : scenario.measure->lines)
      marks.lines.push_back({inFrame(line.from), inFrame(line.to)});
  }
  return marks;
}

void captureAgents(const Simulator& sim, ColorBy colorBy, Frame& frame) {
  frame.step = sim.stepCount();
  frame.time = sim.time();
  const std::span<const Vec2> positions = sim.positions();
  const std::span<const Vec2> velocities = sim.velocities();
  const std::span<const AgentId> ids = sim.ids();
  const std::vector<float> radii = sim.radii();
  const std::vector<float> maxSpeeds = sim.maxSpeeds();
  const std::vector<int> near = colorBy == ColorBy::Density ? crowding(positions, radii) : std::vector<int>{};
  frame.ids.assign(ids.begin(), ids.end());
  frame.agents.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    AgentInstance& a = frame.agents[i];
    a.x = positions[i].x;
    a.y = positions[i].y;
    const float speed = length(velocities[i]);
    const Vec2 heading = speed > 1e-6f ? velocities[i] / speed : Vec2(0.0f, 0.0f);
    a.hx = heading.x;
    a.hy = heading.y;
    a.radius = radii[i];
    switch (colorBy) {
      case ColorBy::Speed:
        a.value = maxSpeeds[i] > 0.0f ? std::min(speed / maxSpeeds[i], 1.0f) : 0.0f;
        break;
      case ColorBy::Group:
        a.value = static_cast<float>(sim.profileIndex(ids[i]) % 16u) / kCategories;
        break;
      case ColorBy::Behavior: {
        const Behavior& b = sim.behavior(ids[i]);
        const auto kind = b.behaviors.empty() ? 0u : static_cast<unsigned>(b.behaviors.front().kind) + 1u;
        a.value = static_cast<float>(kind % 16u) / kCategories;
        break;
      }
      case ColorBy::Density:
        a.value = std::min(static_cast<float>(near[i]) / 6.0f, 1.0f);
        break;
    }
  }
}

void captureSelection(const Simulator& sim, AgentId selected, Frame& frame) {
  frame.route.clear();
  frame.links.clear();
  frame.halfPlanes.clear();
  if (!sim.contains(selected)) return;
  const int own = sim.route(selected);
  const int path = own >= 0 ? own : sim.behavior(selected).path;
  if (path >= 0 && path < sim.pathCount()) {
    const std::span<const Vec2> points = sim.pathPoints(path);
    frame.route.assign(points.begin(), points.end());
    if (sim.pathLoops(path)) frame.route.push_back(points.front());
  }
  // The maxNeighbors nearest within neighborDist, as ORCA sees them (ties aside).
  const AgentParams& params = sim.params(selected);
  const Vec2 p = sim.position(selected);
  const std::span<const Vec2> positions = sim.positions();
  std::vector<std::pair<float, std::size_t>> near;  // Squared distance, dense index.
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const float d = absSq(positions[i] - p);
    if (d > 0.0f && d < params.neighborDist * params.neighborDist) near.emplace_back(d, i);
  }
  const auto keep = std::min<std::size_t>(near.size(), static_cast<std::size_t>(params.maxNeighbors));
  std::partial_sort(near.begin(), near.begin() + static_cast<std::ptrdiff_t>(keep), near.end(),
                    [](const auto& a, const auto& b) { return a.first < b.first; });
  const Vec2 v = sim.velocity(selected);
  const float invTau = 1.0f / params.timeHorizon;
  const float invStep = 1.0f / sim.config().timeStep;
  const float span = 2.0f * std::max(params.maxSpeed, 1e-3f);
  for (std::size_t k = 0; k < keep; ++k) {
    frame.links.push_back(p);
    const Vec2 q = positions[near[k].second];
    frame.links.push_back(q);
    const AgentId other = sim.ids()[near[k].second];
    const OrcaLine line = agentOrcaLine(p, v, params.radius, q, sim.velocity(other), sim.params(other).radius,
                                        invTau, invStep, Vec2(1.0f, 0.0f));
    const Vec2 at = p + line.point;
    frame.halfPlanes.push_back(at - line.direction * span);
    frame.halfPlanes.push_back(at + line.direction * span);
    frame.halfPlanes.push_back(at);
    frame.halfPlanes.push_back(at + perpLeft(line.direction) * (0.25f * span));  // The allowed side.
  }
  frame.halfPlanes.push_back(p);
  frame.halfPlanes.push_back(p + v);
}

void Trails::update(Frame& frame) {
  frame.trails.clear();
  if (frame.agents.size() > kMaxAgents) return;
  for (std::size_t i = 0; i < frame.agents.size(); ++i) {
    const AgentId id = frame.ids[i];
    if (history_.size() <= id.index) history_.resize(id.index + 1);
    History& h = history_[id.index];
    if (h.generation != id.generation) h = History{id.generation, 0, 0, {}};
    h.points[static_cast<std::size_t>(h.next)] = Vec2(frame.agents[i].x, frame.agents[i].y);
    h.next = (h.next + 1) % kLength;
    h.count = std::min(h.count + 1, kLength);
    for (int k = 1; k < h.count; ++k) {
      const int newer = (h.next - k + 2 * kLength) % kLength;
      const int older = (newer - 1 + kLength) % kLength;
      frame.trails.push_back(h.points[static_cast<std::size_t>(older)]);
      frame.trails.push_back(h.points[static_cast<std::size_t>(newer)]);
    }
  }
}

AgentId agentAt(const Frame& frame, Vec2 p) {
  AgentId best{};
  float bestDist = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < frame.agents.size(); ++i) {
    const AgentInstance& a = frame.agents[i];
    const float d = absSq(Vec2(a.x, a.y) - p);
    if (d <= a.radius * a.radius && d < bestDist) {
      bestDist = d;
      best = frame.ids[i];
    }
  }
  return best;
}

}  // namespace crowd::viewer
