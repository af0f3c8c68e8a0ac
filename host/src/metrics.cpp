#include <crowd/metrics.hpp>

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <nlohmann/json.hpp>

#include <crowd/kernels/uniform_grid.hpp>

namespace crowd {
namespace {

// Pairs are looked for out to this many combined radii; the separation ratio is reported below it.
constexpr float kSeparationReach = 1.5f;
constexpr float kContactFraction = 0.99f;

// Crossing-number test; boundary points may go either way, which the edge test covers.
bool insidePolygon(std::span<const Vec2> poly, Vec2 p) {
  bool inside = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const Vec2 a = poly[i];
    const Vec2 b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

struct Box {
  Vec2 lo;
  Vec2 hi;
};

}  // namespace

ContactStats measureContacts(std::span<const Vec2> positions, std::span<const float> radii,
                             const ObstacleSet& obstacles) {
  ContactStats stats;
  const int n = static_cast<int>(positions.size());
  if (n == 0) return stats;

  float maxRadius = 0.0f;
  Vec2 lo(INFINITY, INFINITY);
  Vec2 hi(-INFINITY, -INFINITY);
  for (int i = 0; i < n; ++i) {
    maxRadius = std::max(maxRadius, radii[i]);
    lo = glm::min(lo, positions[i]);
    hi = glm::max(hi, positions[i]);
  }
  // Every pair closer than kSeparationReach combined radii lies in adjacent cells.
  float cellSize = std::max(2.0f * kSeparationReach * maxRadius, 1e-3f);
  const double maxCells = 4.0 * n + 1024.0;
  const Vec2 extent = hi - lo;
  while ((std::floor(extent.x / cellSize) + 1.0) * (std::floor(extent.y / cellSize) + 1.0) > maxCells) {
    cellSize *= 2.0f;
  }
  GridGeometry grid{lo, cellSize, 1.0f / cellSize, static_cast<int>(std::floor(extent.x / cellSize)) + 1,
                    static_cast<int>(std::floor(extent.y / cellSize)) + 1};
  const int cellCount = grid.columns * grid.rows;

  std::vector<int> cellStart(static_cast<std::size_t>(cellCount) + 1, 0);
  std::vector<int> cellOfAgent(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    cellOfAgent[i] = cellIndexOf(grid, positions[i]);
    ++cellStart[cellOfAgent[i] + 1];
  }
  for (int c = 0; c < cellCount; ++c) cellStart[c + 1] += cellStart[c];
  std::vector<int> sorted(static_cast<std::size_t>(n));
  {
    std::vector<int> fill(cellStart.begin(), cellStart.end() - 1);
    for (int i = 0; i < n; ++i) sorted[fill[cellOfAgent[i]]++] = i;
  }

  // Obstacle edges binned into the same cells (clamped into the grid; far edges cannot touch).
  const std::vector<ObstacleEdge>& edges = obstacles.edges();
  std::vector<int> edgeCellStart(static_cast<std::size_t>(cellCount) + 1, 0);
  std::vector<int> edgeCells;
  if (!edges.empty()) {
    auto cellsOfEdge = [&](const ObstacleEdge& e) {
      const Vec2 b = edges[static_cast<std::size_t>(e.next)].point;
      return CellRange{cellOf(grid, glm::min(e.point, b)), cellOf(grid, glm::max(e.point, b))};
    };
    for (const ObstacleEdge& e : edges) {
      const CellRange r = cellsOfEdge(e);
      for (int y = r.lo.y; y <= r.hi.y; ++y)
        for (int x = r.lo.x; x <= r.hi.x; ++x) ++edgeCellStart[cellIndex(grid, CellCoord{x, y}) + 1];
    }
    for (int c = 0; c < cellCount; ++c) edgeCellStart[c + 1] += edgeCellStart[c];
    edgeCells.resize(static_cast<std::size_t>(edgeCellStart[cellCount]));
    std::vector<int> fill(edgeCellStart.begin(), edgeCellStart.end() - 1);
    for (std::size_t e = 0; e < edges.size(); ++e) {
      const CellRange r = cellsOfEdge(edges[e]);
      for (int y = r.lo.y; y <= r.hi.y; ++y)
        for (int x = r.lo.x; x <= r.hi.x; ++x) edgeCells[fill[cellIndex(grid, CellCoord{x, y})]++] = static_cast<int>(e);
    }
  }
  // Solid polygons (counter-clockwise, 3+ vertices) with their bounding boxes.
  std::vector<std::size_t> solids;
  std::vector<Box> solidBoxes;
  for (std::size_t p = 0; p < obstacles.polygonCount(); ++p) {
    const auto poly = obstacles.polygon(p);
    if (poly.size() < 3 || signedArea(poly) <= 0.0f) continue;
    Box box{poly[0], poly[0]};
    for (const Vec2& v : poly) {
      box.lo = glm::min(box.lo, v);
      box.hi = glm::max(box.hi, v);
    }
    solids.push_back(p);
    solidBoxes.push_back(box);
  }

  std::int64_t collisions = 0;
  std::int64_t penetrations = 0;
  double minRatio = std::numeric_limits<double>::infinity();
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : collisions, penetrations) reduction(min : minRatio)
  for (int i = 0; i < n; ++i) {
    const Vec2 p = positions[i];
    const CellCoord c = cellOf(grid, p);
    const int x0 = std::max(c.x - 1, 0), x1 = std::min(c.x + 1, grid.columns - 1);
    const int y0 = std::max(c.y - 1, 0), y1 = std::min(c.y + 1, grid.rows - 1);
    bool penetrating = false;
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const int cell = cellIndex(grid, CellCoord{x, y});
        for (int k = cellStart[cell]; k < cellStart[cell + 1]; ++k) {
          const int j = sorted[k];
          if (j <= i) continue;  // Each pair once.
          const double combined = static_cast<double>(radii[i]) + radii[j];
          const double dist = std::sqrt(static_cast<double>(absSq(p - positions[j])));
          if (dist < kContactFraction * combined) ++collisions;
          if (combined > 0 && dist < kSeparationReach * combined) minRatio = std::min(minRatio, dist / combined);
        }
        if (!edges.empty()) {
          for (int k = edgeCellStart[cell]; k < edgeCellStart[cell + 1] && !penetrating; ++k) {
            const ObstacleEdge& e = edges[static_cast<std::size_t>(edgeCells[k])];
            const float distSq = distSqPointSegment(e.point, edges[static_cast<std::size_t>(e.next)].point, p);
            penetrating = distSq < sqr(kContactFraction * radii[i]);
          }
        }
      }
    }
    for (std::size_t s = 0; s < solids.size() && !penetrating; ++s) {
      const Box& box = solidBoxes[s];
      if (p.x < box.lo.x || p.x > box.hi.x || p.y < box.lo.y || p.y > box.hi.y) continue;
      penetrating = insidePolygon(obstacles.polygon(solids[s]), p);
    }
    if (penetrating) ++penetrations;
  }
  stats.collisions = collisions;
  stats.penetrations = penetrations;
  stats.minSeparationRatio = minRatio;
  return stats;
}

PhaseTimes RunMetrics::meanMsPerStep() const {
  return totalMs / (steps > 0 ? static_cast<double>(steps) : 1.0);
}

namespace {

// One key per phase, plus "total".
nlohmann::json phaseTimesJson(const PhaseTimes& times) {
  nlohmann::json doc;
  for (int p = 0; p < kPhaseCount; ++p) doc[kPhaseNames[p]] = times.ms[p];
  doc["total"] = times.total();
  return doc;
}

}  // namespace

std::string RunMetrics::toJson(int indent) const {
  using nlohmann::json;
  auto finiteOrNull = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  auto timeOrNull = [](double v) { return v < 0 ? json(nullptr) : json(v); };
  const PhaseTimes mean = meanMsPerStep();
  json doc;
  doc["steps"] = steps;
  doc["agents"] = initialAgents;
  doc["agentsWithGoal"] = agentsWithGoal;
  doc["arrived"] = arrived;
  doc["firstArrivalTime"] = timeOrNull(firstArrivalTime);
  doc["lastArrivalTime"] = timeOrNull(lastArrivalTime);
  doc["meanArrivalTime"] = timeOrNull(meanArrivalTime);
  doc["collisions"] = collisions;
  doc["obstaclePenetrations"] = penetrations;
  doc["minSeparationRatio"] = finiteOrNull(minSeparationRatio);
  doc["meanSpeed"] = meanSpeed;
  doc["msPerStep"] = phaseTimesJson(mean);
  json list = json::array();
  for (const Arrival& a : arrivals) list.push_back({{"agent", a.id.index}, {"step", a.step}});
  doc["arrivals"] = std::move(list);
  return doc.dump(indent);
}

void MetricsCollector::observe(const Simulator& sim) {
  if (!started_) {
    started_ = true;
    metrics_.initialAgents = sim.agentCount();
    for (AgentId id : sim.ids()) metrics_.agentsWithGoal += sim.goal(id).has_value();
    return;  // The initial state: starting overlaps are reported as scenario warnings instead.
  }
  metrics_.steps = sim.stepCount();
  metrics_.totalMs += sim.lastStepTimes();
  const double timeStep = sim.config().timeStep;
  for (const Arrival& a : sim.lastArrivals()) {
    const double t = static_cast<double>(a.step) * timeStep;
    if (metrics_.arrived == 0) metrics_.firstArrivalTime = t;
    metrics_.lastArrivalTime = t;
    metrics_.meanArrivalTime = (metrics_.meanArrivalTime * static_cast<double>(metrics_.arrived) + t) /
                               static_cast<double>(metrics_.arrived + 1);
    ++metrics_.arrived;
    metrics_.arrivals.push_back(a);
  }
  for (const Vec2& v : sim.velocities()) speedSum_ += std::sqrt(static_cast<double>(absSq(v)));
  speedSamples_ += static_cast<double>(sim.agentCount());
  metrics_.meanSpeed = speedSamples_ > 0 ? speedSum_ / speedSamples_ : 0.0;
  if (contacts_) {
    const std::vector<float> radii = sim.radii();
    const ContactStats c = measureContacts(sim.positions(), radii, sim.obstacles());
    metrics_.collisions += c.collisions;
    metrics_.penetrations += c.penetrations;
    metrics_.minSeparationRatio = std::min(metrics_.minSeparationRatio, c.minSeparationRatio);
  }
}

}  // namespace crowd
