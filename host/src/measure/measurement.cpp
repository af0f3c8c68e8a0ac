// Measurements (crowd/measurement.hpp): areas sampled by the even-odd test and the Voronoi raster
// (voronoi_raster.hpp), lines by each agent's step between consecutive observations; the flows
// and fundamental diagrams read from the series. The plan's checks are in measurement_plan.cpp.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include <crowd/errors.hpp>
#include <crowd/measurement.hpp>

#include "geometry/geometry.hpp"
#include "measure/voronoi_raster.hpp"
#include "params/number_text.hpp"

namespace crowd {

double weidmannSpeed(double density) {
  if (!(density > 0.0)) return 1.34;
  if (density >= 5.4) return 0.0;
  return 1.34 * (1.0 - std::exp(-1.913 * (1.0 / density - 1.0 / 5.4)));
}

struct Measurements::State {
  MeasurementPlan plan;
  std::vector<VoronoiRaster> rasters;  ///< One per area.
  std::vector<Box> bounds;             ///< Each area's bounding box.
  /// Where an agent (by AgentId::index) was last observed, and in which observation (1, 2, ...).
  struct Seen {
    std::uint32_t generation = 0;
    std::uint64_t observation = 0;
    Vec2 position{0.0f, 0.0f};
  };
  std::vector<Seen> seen;
  std::vector<std::uint64_t> listed;  ///< By index: the last check that listed the id (repeats).
  std::uint64_t checks = 0;
  std::uint64_t observations = 0;
  double lastTime = 0;
  // Scratch, kept between samples so that sampling does not allocate.
  std::vector<std::uint32_t> local;
  std::vector<Vec2> localPositions;
  std::vector<VoronoiRaster::Share> shares;
  std::vector<std::vector<LineCrossing>> found;
};

namespace {

std::string idText(AgentId id) {
  return std::to_string(id.index) + " (generation " + std::to_string(id.generation) + ")";
}

bool idBefore(AgentId a, AgentId b) {
  return a.index != b.index ? a.index < b.index : a.generation < b.generation;
}

double speedOf(Vec2 velocity) {
  return std::hypot(static_cast<double>(velocity.x), static_cast<double>(velocity.y));
}

struct Crossing {
  double fraction;  ///< Of the step, where it meets the line.
  int direction;
};

// Whether the step p0 -> p1 crosses `line`, and where. A side is decided by the sign of the
// point's offset along the left normal: positive is the forward side, zero or negative the other,
// so an agent standing on the line counts as behind it and is counted once it leaves forward.
std::optional<Crossing> crossingOf(const MeasurementLine& line, Point p0, Point p1) {
  const Point a = toPoint(line.from);
  const double dx = static_cast<double>(line.to.x) - a.x;
  const double dy = static_cast<double>(line.to.y) - a.y;
  const double side0 = dx * (p0.y - a.y) - dy * (p0.x - a.x);
  const double side1 = dx * (p1.y - a.y) - dy * (p1.x - a.x);
  if ((side0 > 0.0) == (side1 > 0.0)) return std::nullopt;
  const double fraction = side0 / (side0 - side1);
  const double cx = p0.x + fraction * (p1.x - p0.x);
  const double cy = p0.y + fraction * (p1.y - p0.y);
  const double along = ((cx - a.x) * dx + (cy - a.y) * dy) / (dx * dx + dy * dy);
  if (!(along >= 0.0 && along <= 1.0)) return std::nullopt;  // Passed beside the line's ends.
  return Crossing{fraction, side1 > 0.0 ? +1 : -1};
}

// The N-t curve at sample k in the given direction.
std::int64_t crossedBy(const LineSeries& line, std::size_t k, FlowDirection direction) {
  switch (direction) {
    case FlowDirection::Forward:
      return line.forward[k];
    case FlowDirection::Backward:
      return line.backward[k];
    case FlowDirection::Net:
      break;
  }
  return line.forward[k] - line.backward[k];
}

}  // namespace

Measurements::Measurements(MeasurementPlan plan) : state_(std::make_unique<State>()) {
  if (std::string problem = checkMeasurementPlan(plan); !problem.empty()) throw InputError(problem);
  State& s = *state_;
  s.plan = std::move(plan);
  for (const MeasurementArea& area : s.plan.areas) {
    s.rasters.emplace_back(area.polygon, s.plan.voronoiCutOff, s.plan.voronoiResolution);
    s.bounds.push_back(boundsOf(area.polygon));
    AreaSeries series;
    series.name = area.name;
    series.area = polygonArea(area.polygon);
    areas_.push_back(std::move(series));
  }
  for (const MeasurementLine& line : s.plan.lines) {
    LineSeries series;
    series.name = line.name;
    series.length = std::hypot(static_cast<double>(line.to.x) - line.from.x,
                               static_cast<double>(line.to.y) - line.from.y);
    lines_.push_back(std::move(series));
  }
  s.found.resize(lines_.size());
}

Measurements::~Measurements() = default;
Measurements::Measurements(Measurements&&) noexcept = default;
Measurements& Measurements::operator=(Measurements&&) noexcept = default;

const MeasurementPlan& Measurements::plan() const {
  return state_->plan;
}

void Measurements::observe(double time, std::span<const AgentId> ids, std::span<const Vec2> positions,
                           std::span<const Vec2> velocities) {
  State& s = *state_;
  // Everything is checked before anything is recorded, so a refused observation leaves no trace.
  if (ids.size() != positions.size() || ids.size() != velocities.size()) {
    throw InputError("measurements: " + std::to_string(ids.size()) + " ids, " +
                     std::to_string(positions.size()) + " positions and " +
                     std::to_string(velocities.size()) + " velocities; there must be one of each per agent");
  }
  if (!std::isfinite(time)) throw InputError("measurements: the observation's time is not finite");
  if (s.observations > 0 && !(time > s.lastTime)) {
    throw InputError("measurements: an observation at " + formatNumber(time) +
                     " s does not come after the previous one, at " + formatNumber(s.lastTime) + " s");
  }
  ++s.checks;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const AgentId id = ids[i];
    if (id.index == UINT32_MAX) throw InputError("measurements: agent " + std::to_string(i) + " has no id");
    if (!isFinite(positions[i]) || !isFinite(velocities[i])) {
      throw InputError("measurements: agent " + idText(id) +
                       " has a position or velocity that is not finite");
    }
    if (s.listed.size() <= id.index) s.listed.resize(static_cast<std::size_t>(id.index) + 1, 0);
    if (s.listed[id.index] == s.checks)
      throw InputError("measurements: agent " + idText(id) + " is listed twice");
    s.listed[id.index] = s.checks;
  }
  observeLines(time, ids, positions);
  for (std::size_t a = 0; a < areas_.size(); ++a) observeArea(a, time, ids, positions, velocities);
  s.lastTime = time;
  ++s.observations;
}

void Measurements::observeLines(double time, std::span<const AgentId> ids, std::span<const Vec2> positions) {
  State& s = *state_;
  for (std::vector<LineCrossing>& found : s.found) found.clear();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const AgentId id = ids[i];
    if (s.seen.size() <= id.index) s.seen.resize(static_cast<std::size_t>(id.index) + 1);
    State::Seen& seen = s.seen[id.index];
    // Only a step between two consecutive observations of the same agent: one that appeared or
    // left in between (or whose slot was reused) has no step to cross with.
    if (s.observations > 0 && seen.observation == s.observations && seen.generation == id.generation) {
      // Where it was, as seen from where it is: one period back if it came in at the other end.
      const Vec2 before = s.plan.periodic.imageNear(seen.position, positions[i]);
      for (std::size_t l = 0; l < lines_.size(); ++l) {
        const std::optional<Crossing> c = crossingOf(s.plan.lines[l], toPoint(before), toPoint(positions[i]));
        if (c)
          s.found[l].push_back(
              LineCrossing{s.lastTime + c->fraction * (time - s.lastTime), id, c->direction});
      }
    }
    seen = State::Seen{id.generation, s.observations + 1, positions[i]};
  }
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    LineSeries& line = lines_[l];
    std::vector<LineCrossing>& found = s.found[l];
    // In time order whatever order the agents came in; ties by id.
    std::sort(found.begin(), found.end(), [](const LineCrossing& a, const LineCrossing& b) {
      return a.time != b.time ? a.time < b.time : idBefore(a.id, b.id);
    });
    std::int64_t forward = line.forward.empty() ? 0 : line.forward.back();
    std::int64_t backward = line.backward.empty() ? 0 : line.backward.back();
    for (const LineCrossing& c : found) {
      (c.direction > 0 ? forward : backward) += 1;
      line.crossings.push_back(c);
    }
    line.time.push_back(time);
    line.forward.push_back(forward);
    line.backward.push_back(backward);
  }
}

void Measurements::observeArea(std::size_t a, double time, std::span<const AgentId> ids,
                               std::span<const Vec2> positions, std::span<const Vec2> velocities) {
  State& s = *state_;
  const VoronoiRaster& raster = s.rasters[a];
  // The agents near enough to matter, in id order: the figures (and the raster's ties) then do
  // not depend on the order the caller lists agents in.
  s.local.clear();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (raster.reach().contains(toPoint(positions[i]))) s.local.push_back(static_cast<std::uint32_t>(i));
  }
  std::sort(s.local.begin(), s.local.end(),
            [&](std::uint32_t i, std::uint32_t j) { return idBefore(ids[i], ids[j]); });
  s.localPositions.clear();
  for (const std::uint32_t i : s.local) s.localPositions.push_back(positions[i]);

  const MeasurementArea& area = s.plan.areas[a];
  std::int64_t count = 0;
  double speedSum = 0.0;
  for (const std::uint32_t i : s.local) {
    const Point p = toPoint(positions[i]);
    if (!s.bounds[a].contains(p) || !insidePolygon(p, area.polygon)) continue;
    ++count;
    speedSum += speedOf(velocities[i]);
  }

  raster.measure(s.localPositions, s.plan.threads, s.shares);
  double cellShares = 0.0;   // sum_i |V_i & A| / |V_i|
  double speedPixels = 0.0;  // sum_i |v_i| |V_i & A|, in pixels
  for (std::size_t k = 0; k < s.local.size(); ++k) {
    const VoronoiRaster::Share& share = s.shares[k];
    if (share.inside == 0) continue;
    cellShares += static_cast<double>(share.inside) / static_cast<double>(share.cell);
    speedPixels += speedOf(velocities[s.local[k]]) * static_cast<double>(share.inside);
  }
  const double areaPixels = static_cast<double>(raster.areaPixels());
  const double pixelArea = static_cast<double>(s.plan.voronoiResolution) * s.plan.voronoiResolution;

  AreaSeries& series = areas_[a];
  series.time.push_back(time);
  series.count.push_back(count);
  series.density.push_back(static_cast<double>(count) / series.area);
  series.speed.push_back(count > 0 ? speedSum / static_cast<double>(count) : 0.0);
  series.voronoiDensity.push_back(areaPixels > 0.0 ? cellShares / (areaPixels * pixelArea) : 0.0);
  series.voronoiSpeed.push_back(areaPixels > 0.0 ? speedPixels / areaPixels : 0.0);
}

double flowRate(const LineSeries& line, double t0, double t1, FlowDirection direction) {
  if (!(t1 > t0)) return 0.0;
  std::int64_t crossed = 0;
  for (const LineCrossing& c : line.crossings) {
    if (c.time <= t0 || c.time > t1) continue;
    switch (direction) {
      case FlowDirection::Forward:
        crossed += c.direction > 0;
        break;
      case FlowDirection::Backward:
        crossed += c.direction < 0;
        break;
      case FlowDirection::Net:
        crossed += c.direction;
        break;
    }
  }
  return static_cast<double>(crossed) / (t1 - t0);
}

double specificFlow(const LineSeries& line, double t0, double t1, FlowDirection direction) {
  return line.length > 0.0 ? flowRate(line, t0, t1, direction) / line.length : 0.0;
}

std::vector<double> flowPerInterval(const LineSeries& line, FlowDirection direction) {
  std::vector<double> flows;
  for (std::size_t k = 1; k < line.time.size(); ++k) {
    const std::int64_t crossed = crossedBy(line, k, direction) - crossedBy(line, k - 1, direction);
    flows.push_back(static_cast<double>(crossed) / (line.time[k] - line.time[k - 1]));
  }
  return flows;
}

std::vector<FundamentalPoint> fundamentalDiagram(const AreaSeries& area, bool voronoi) {
  std::vector<FundamentalPoint> points;
  for (std::size_t k = 0; k < area.time.size(); ++k) {
    const double density = voronoi ? area.voronoiDensity[k] : area.density[k];
    const double speed = voronoi ? area.voronoiSpeed[k] : area.speed[k];
    if (voronoi ? !(density > 0.0) : area.count[k] == 0) continue;
    points.push_back(FundamentalPoint{area.time[k], density, speed, density * speed});
  }
  return points;
}

std::optional<FundamentalPoint> meanFundamental(const AreaSeries& area, bool voronoi, double t0, double t1) {
  FundamentalPoint sum;
  std::size_t count = 0;
  for (const FundamentalPoint& p : fundamentalDiagram(area, voronoi)) {
    if (p.time < t0 || p.time > t1) continue;
    sum.density += p.density;
    sum.speed += p.speed;
    sum.flow += p.flow;
    ++count;
  }
  if (count == 0) return std::nullopt;
  const double n = static_cast<double>(count);
  return FundamentalPoint{0.5 * (t0 + t1), sum.density / n, sum.speed / n, sum.flow / n};
}

}  // namespace crowd
