// Checks run on every scenario before a simulation starts (agents that start overlapping each
// other or an obstacle) and the step from a Scenario to a Simulator.
//
// The overlap checks must stay cheap for millions of agents, so both use uniform grids stored as
// sorted (cell, item) lists: no per-cell allocation, and memory proportional to what is binned
// rather than to the area the scenario spans. About 0.2 s per million agents.
#include <crowd/scenario.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace crowd {
namespace {

using CellKey = std::uint64_t;

// Far enough from the int32 limits that a neighbour cell (+-1) still fits.
constexpr double kCellCoordinateLimit = 2.0e9;

// More pair tests than this means agents are piled up in a few cells (a whole group on one
// point, say). The count is then reported as a lower bound rather than spending minutes on it.
constexpr std::uint64_t kMaxPairTests = 200'000'000;

// Edges are binned piece by piece; this caps the pieces over all edges by growing the cells
// for very long walls.
constexpr double kMaxEdgePieces = 2.0e5;

// Polygon bounding boxes are binned into cells at least this coarse a share of their area.
constexpr double kMaxPolygonCells = 1.0e6;

struct Point {
  double x;
  double y;
};

Point toPoint(Vec2 v) { return Point{v.x, v.y}; }

std::int32_t cellCoordinate(double value, double cellSize) {
  const double cell = std::floor(value / cellSize);
  return static_cast<std::int32_t>(std::clamp(cell, -kCellCoordinateLimit, kCellCoordinateLimit));
}

// Flipping the sign bits makes keys sort as (x, y) pairs of signed numbers would, so a sorted
// list holds each column's cells together, bottom to top.
constexpr std::uint32_t kSignBit = 0x80000000u;

CellKey cellKey(std::int32_t x, std::int32_t y) {
  return (static_cast<CellKey>(static_cast<std::uint32_t>(x) ^ kSignBit) << 32) |
         (static_cast<std::uint32_t>(y) ^ kSignBit);
}

CellKey cellKeyOf(Point p, double cellSize) {
  return cellKey(cellCoordinate(p.x, cellSize), cellCoordinate(p.y, cellSize));
}

std::int32_t cellX(CellKey key) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(key >> 32) ^ kSignBit);
}
std::int32_t cellY(CellKey key) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(key) ^ kSignBit);
}

/// Items (agent, edge or polygon numbers) binned by grid cell: the (cell, item) pairs sorted,
/// plus an open-addressing hash table from each occupied cell to its run of pairs, so a lookup
/// costs a probe or two instead of a binary search through millions of pairs.
class CellIndex {
 public:
  struct Entry {
    CellKey cell;
    std::uint32_t item;
    auto operator<=>(const Entry&) const = default;
  };

  void reserve(std::size_t count) { entries_.reserve(count); }
  void add(CellKey cell, std::uint32_t item) { entries_.push_back(Entry{cell, item}); }

  void finish() {
    std::sort(entries_.begin(), entries_.end());
    std::size_t runs = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      runs += i == 0 || entries_[i].cell != entries_[i - 1].cell;
    }
    std::size_t slots = 16;
    while (slots < 2 * runs) slots *= 2;
    mask_ = slots - 1;
    table_.assign(slots, Slot{});
    for (std::size_t begin = 0; begin < entries_.size();) {
      std::size_t end = begin;
      while (end < entries_.size() && entries_[end].cell == entries_[begin].cell) ++end;
      std::size_t s = slotOf(entries_[begin].cell);
      while (table_[s].end != 0) s = (s + 1) & mask_;
      table_[s] = Slot{entries_[begin].cell, static_cast<std::uint32_t>(begin),
                       static_cast<std::uint32_t>(end)};
      begin = end;
    }
  }

  /// The entries of one cell, in item order.
  std::span<const Entry> find(CellKey cell) const {
    if (table_.empty()) return {};
    for (std::size_t s = slotOf(cell);; s = (s + 1) & mask_) {
      const Slot& slot = table_[s];
      if (slot.end == 0) return {};
      if (slot.cell == cell) return {entries_.data() + slot.begin, slot.end - slot.begin};
    }
  }

  const std::vector<Entry>& entries() const { return entries_; }

 private:
  struct Slot {
    CellKey cell = 0;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;  // 0 marks an empty slot: a run always ends past 0.
  };

  // Fibonacci hashing: the multiply spreads neighbouring cells over the table.
  std::size_t slotOf(CellKey cell) const {
    return static_cast<std::size_t>((cell * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }

  std::vector<Entry> entries_;
  std::vector<Slot> table_;
  std::size_t mask_ = 0;
};

float largestRadius(const std::vector<AgentDef>& agents) {
  float largest = 0.0f;
  for (const AgentDef& agent : agents) {
    if (std::isfinite(agent.params.radius)) largest = std::max(largest, agent.params.radius);
  }
  return largest;
}

bool finitePosition(const AgentDef& agent) {
  return std::isfinite(agent.position.x) && std::isfinite(agent.position.y);
}

// ---- agent against agent ------------------------------------------------------------------------

struct PairOverlaps {
  std::uint64_t count = 0;
  bool isLowerBound = false;  // The test budget ran out before every pair was seen.
  std::uint32_t firstA = 0;   // The pair with the smallest agent numbers, firstA < firstB.
  std::uint32_t firstB = 0;
};

PairOverlaps findPairOverlaps(const std::vector<AgentDef>& agents) {
  PairOverlaps result;
  const double maxRadius = largestRadius(agents);
  if (agents.size() < 2 || !(maxRadius > 0.0)) return result;  // Zero discs never overlap.

  // Cells as wide as the largest possible contact distance: overlapping agents are in the same
  // or adjacent cells.
  const double cellSize = 2.0 * maxRadius;
  using Entry = CellIndex::Entry;
  std::vector<Entry> entries;
  entries.reserve(agents.size());
  for (std::size_t i = 0; i < agents.size(); ++i) {
    if (finitePosition(agents[i])) {
      entries.push_back(
          Entry{cellKeyOf(toPoint(agents[i].position), cellSize), static_cast<std::uint32_t>(i)});
    }
  }
  std::sort(entries.begin(), entries.end());

  std::uint64_t tests = 0;
  const auto test = [&](std::uint32_t a, std::uint32_t b) {
    ++tests;
    const AgentDef& first = agents[a];
    const AgentDef& second = agents[b];
    const double dx = static_cast<double>(first.position.x) - second.position.x;
    const double dy = static_cast<double>(first.position.y) - second.position.y;
    const double contact = static_cast<double>(first.params.radius) + second.params.radius;
    if (!(dx * dx + dy * dy < contact * contact)) return;
    if (a > b) std::swap(a, b);
    if (result.count == 0 || a < result.firstA || (a == result.firstA && b < result.firstB)) {
      result.firstA = a;
      result.firstB = b;
    }
    ++result.count;
  };

  // Each pair of cells is visited once: a cell with itself, with the cell above it and with the
  // three cells of the next column beside it. In key order the cell above is the next run, and
  // the three beside it are one stretch that only moves forward, so no lookups are needed.
  std::size_t east = 0;
  for (std::size_t begin = 0; begin < entries.size();) {
    const CellKey cell = entries[begin].cell;
    std::size_t end = begin;
    while (end < entries.size() && entries[end].cell == cell) ++end;
    const std::int32_t x = cellX(cell);
    const std::int32_t y = cellY(cell);
    std::size_t aboveEnd = end;
    while (aboveEnd < entries.size() && entries[aboveEnd].cell == cellKey(x, y + 1)) ++aboveEnd;
    east = std::max(east, end);
    while (east < entries.size() && entries[east].cell < cellKey(x + 1, y - 1)) ++east;
    std::size_t eastEnd = east;
    while (eastEnd < entries.size() && entries[eastEnd].cell <= cellKey(x + 1, y + 1)) ++eastEnd;
    for (std::size_t i = begin; i < end; ++i) {
      for (std::size_t j = i + 1; j < aboveEnd; ++j) test(entries[i].item, entries[j].item);
      for (std::size_t j = east; j < eastEnd; ++j) test(entries[i].item, entries[j].item);
      if (tests > kMaxPairTests) {
        result.isLowerBound = true;
        return result;
      }
    }
    begin = end;
  }
  return result;
}

// ---- agent against obstacle ---------------------------------------------------------------------

struct Edge {
  Point a;
  Point b;
  std::uint32_t polygon;
};

double distSqToSegment(Point p, const Edge& edge) {
  const double ex = edge.b.x - edge.a.x;
  const double ey = edge.b.y - edge.a.y;
  const double lengthSq = ex * ex + ey * ey;
  const double along =
      lengthSq > 0.0 ? ((p.x - edge.a.x) * ex + (p.y - edge.a.y) * ey) / lengthSq : 0.0;
  const double t = std::clamp(along, 0.0, 1.0);
  const double dx = p.x - (edge.a.x + t * ex);
  const double dy = p.y - (edge.a.y + t * ey);
  return dx * dx + dy * dy;
}

// Even-odd crossing test along a ray towards +x.
bool insidePolygon(Point p, std::span<const Vec2> polygon) {
  bool inside = false;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const Point a = toPoint(polygon[i]);
    const Point b = toPoint(polygon[j]);
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

struct Box {
  Point min;
  Point max;
  bool contains(Point p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y;
  }
};

Box boundsOf(std::span<const Vec2> polygon) {
  Box box{toPoint(polygon[0]), toPoint(polygon[0])};
  for (const Vec2 v : polygon) {
    box.min = Point{std::min(box.min.x, double{v.x}), std::min(box.min.y, double{v.y})};
    box.max = Point{std::max(box.max.x, double{v.x}), std::max(box.max.y, double{v.y})};
  }
  return box;
}

struct ObstacleOverlaps {
  std::uint64_t count = 0;
  std::uint32_t firstAgent = 0;
  std::uint32_t firstObstacle = 0;
};

// Bins each edge into the cells that points within `reach` of it can lie in. The edge is cut
// into pieces about a cell long; points within `reach` of a piece lie in the piece's bounding box
// grown by `reach`. The pieces advance steadily along the edge, so a cell that a box shares with
// any earlier box it also shares with the previous one: skipping those lists each edge once per
// cell.
CellIndex binEdges(const std::vector<Edge>& edges, double cellSize, double reach) {
  CellIndex index;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const Edge& edge = edges[e];
    const double length = std::hypot(edge.b.x - edge.a.x, edge.b.y - edge.a.y);
    const double pieces = std::max(1.0, std::ceil(length / cellSize));
    const auto pointAt = [&](double t) {
      return Point{edge.a.x + t * (edge.b.x - edge.a.x), edge.a.y + t * (edge.b.y - edge.a.y)};
    };
    std::int32_t previous[4] = {1, 0, 1, 0};  // x0, x1, y0, y1 of the previous box; empty.
    for (double k = 0.0; k < pieces; k += 1.0) {
      const Point p = pointAt(k / pieces);
      const Point q = pointAt((k + 1.0) / pieces);
      const std::int32_t x0 = cellCoordinate(std::min(p.x, q.x) - reach, cellSize);
      const std::int32_t x1 = cellCoordinate(std::max(p.x, q.x) + reach, cellSize);
      const std::int32_t y0 = cellCoordinate(std::min(p.y, q.y) - reach, cellSize);
      const std::int32_t y1 = cellCoordinate(std::max(p.y, q.y) + reach, cellSize);
      for (std::int32_t x = x0; x <= x1; ++x) {
        for (std::int32_t y = y0; y <= y1; ++y) {
          const bool seen =
              x >= previous[0] && x <= previous[1] && y >= previous[2] && y <= previous[3];
          if (!seen) index.add(cellKey(x, y), static_cast<std::uint32_t>(e));
        }
      }
      previous[0] = x0;
      previous[1] = x1;
      previous[2] = y0;
      previous[3] = y1;
    }
  }
  index.finish();
  return index;
}

ObstacleOverlaps findObstacleOverlaps(const Scenario& scenario) {
  ObstacleOverlaps result;
  if (scenario.obstacles.empty() || scenario.agents.empty()) return result;

  std::vector<Edge> edges;
  std::vector<std::uint32_t> solids;  // Counter-clockwise polygons: agents must be outside.
  std::vector<Box> solidBounds;
  double totalLength = 0.0;
  double solidArea = 0.0;
  for (std::size_t p = 0; p < scenario.obstacles.size(); ++p) {
    const std::vector<Vec2>& polygon = scenario.obstacles[p];
    if (polygon.size() < 2) continue;
    const std::size_t edgeCount = polygon.size() == 2 ? 1 : polygon.size();
    for (std::size_t i = 0; i < edgeCount; ++i) {
      const Edge edge{toPoint(polygon[i]), toPoint(polygon[(i + 1) % polygon.size()]),
                      static_cast<std::uint32_t>(p)};
      totalLength += std::hypot(edge.b.x - edge.a.x, edge.b.y - edge.a.y);
      edges.push_back(edge);
    }
    if (polygon.size() >= 3 && signedArea(polygon) > 0.0f) {
      solids.push_back(static_cast<std::uint32_t>(p));
      solidBounds.push_back(boundsOf(polygon));
      const Box& box = solidBounds.back();
      solidArea += (box.max.x - box.min.x) * (box.max.y - box.min.y);
    }
  }
  if (!std::isfinite(totalLength)) return result;  // Unchecked input; nothing sensible to say.

  const double maxRadius = largestRadius(scenario.agents);
  double edgeCell = std::max(2.0 * maxRadius, totalLength / kMaxEdgePieces);
  if (!(edgeCell > 0.0)) edgeCell = 1.0;
  const CellIndex edgeIndex = maxRadius > 0.0 ? binEdges(edges, edgeCell, maxRadius) : CellIndex{};

  const double solidCell = std::max(edgeCell, std::sqrt(solidArea / kMaxPolygonCells));
  CellIndex solidIndex;
  for (std::size_t s = 0; s < solids.size(); ++s) {
    const Box& box = solidBounds[s];
    const std::int32_t x1 = cellCoordinate(box.max.x, solidCell);
    const std::int32_t y1 = cellCoordinate(box.max.y, solidCell);
    for (std::int32_t x = cellCoordinate(box.min.x, solidCell); x <= x1; ++x) {
      for (std::int32_t y = cellCoordinate(box.min.y, solidCell); y <= y1; ++y) {
        solidIndex.add(cellKey(x, y), static_cast<std::uint32_t>(s));
      }
    }
  }
  solidIndex.finish();

  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    const AgentDef& agent = scenario.agents[i];
    if (!finitePosition(agent)) continue;
    const Point p = toPoint(agent.position);
    const double radius = agent.params.radius;
    std::uint32_t touched = kNone;  // The lowest-numbered obstacle this agent overlaps.
    if (radius > 0.0) {
      for (const CellIndex::Entry& entry : edgeIndex.find(cellKeyOf(p, edgeCell))) {
        const Edge& edge = edges[entry.item];
        if (edge.polygon < touched && distSqToSegment(p, edge) < radius * radius) {
          touched = edge.polygon;
        }
      }
    }
    for (const CellIndex::Entry& entry : solidIndex.find(cellKeyOf(p, solidCell))) {
      const std::uint32_t polygon = solids[entry.item];
      if (polygon < touched && solidBounds[entry.item].contains(p) &&
          insidePolygon(p, scenario.obstacles[polygon])) {
        touched = polygon;
      }
    }
    if (touched == kNone) continue;
    if (result.count == 0) {
      result.firstAgent = static_cast<std::uint32_t>(i);
      result.firstObstacle = touched;
    }
    ++result.count;
  }
  return result;
}

}  // namespace

void addOverlapWarnings(Scenario& scenario) {
  const PairOverlaps pairs = findPairOverlaps(scenario.agents);
  if (pairs.count > 0) {
    const std::string agents =
        "agents " + std::to_string(pairs.firstA) + " and " + std::to_string(pairs.firstB);
    std::string warning = pairs.isLowerBound ? "at least " : "";
    warning += pairs.count == 1 ? "1 agent pair starts overlapping (" + agents + ")"
                                : std::to_string(pairs.count) +
                                      " agent pairs start overlapping (first: " + agents + ")";
    scenario.warnings.push_back(warning + "; ORCA will push them apart");
  }
  const ObstacleOverlaps obstacles = findObstacleOverlaps(scenario);
  if (obstacles.count > 0) {
    const std::string which = "agent " + std::to_string(obstacles.firstAgent) + ", obstacle " +
                              std::to_string(obstacles.firstObstacle);
    scenario.warnings.push_back(
        obstacles.count == 1 ? "1 agent starts overlapping an obstacle (" + which + ")"
                             : std::to_string(obstacles.count) +
                                   " agents start overlapping an obstacle (first: " + which + ")");
  }
}

Simulator makeSimulator(const Scenario& scenario, int threads, BackendKind backend) {
  SimulatorConfig config;
  config.backend = backend;
  config.timeStep = scenario.timeStep;
  config.removeArrived = scenario.removeArrived;
  config.threads = threads;
  // A scenario built in code skips the reader's checks; say which item the simulator refused.
  try {
    Simulator simulator(config);
    for (std::size_t p = 0; p < scenario.obstacles.size(); ++p) {
      try {
        simulator.addObstacle(scenario.obstacles[p]);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": /obstacles/" + std::to_string(p) + ": " +
                            error.what());
      }
    }
    for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
      try {
        simulator.addAgent(scenario.agents[i]);
      } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.name + ": agent " + std::to_string(i) + ": " + error.what());
      }
    }
    return simulator;
  } catch (const ScenarioError&) {
    throw;
  } catch (const std::invalid_argument& error) {
    throw ScenarioError(scenario.name + ": " + error.what());
  }
}

}  // namespace crowd
