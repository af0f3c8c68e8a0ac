// Generating agents, shared by scenario files and the built-in scenarios: a random source that
// gives the same numbers with every standard library, and the groups (agents on a circle or in
// a rectangle, GroupSpec) that both of them make.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include <crowd/kernels/vec2.hpp>
#include <crowd/scenario_spec.hpp>
#include <crowd/simulator.hpp>
#include <crowd/stop_request.hpp>

namespace crowd::scenario_detail {

/// Uniform doubles from std::mt19937_64, whose output sequence the standard fixes exactly.
/// std::uniform_real_distribution is left unspecified, so it would differ between libraries.
class ScenarioRandom {
 public:
  /// `stream` separates independent uses of one seed (one per group, say), so that two groups
  /// with the same settings do not land on the same spots.
  ScenarioRandom(std::uint64_t seed, std::uint64_t stream) : engine_(mix(seed, stream)) {}

  /// In [0, 1), with all 53 bits of a double's mantissa random.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  /// In [lo, hi); lo when the range is empty.
  double between(double lo, double hi) { return lo + (hi - lo) * unit(); }

  /// A float in [lo, hi]: clamped, as lo + (hi - lo) * u can round up to hi or past it.
  float floatBetween(float lo, float hi) { return std::min(static_cast<float>(between(lo, hi)), hi); }

 private:
  // SplitMix64's finaliser: nearby (seed, stream) pairs give unrelated engine seeds.
  static std::uint64_t mix(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t z = seed + (stream + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::mt19937_64 engine_;
};

/// Agent `index` of `count` on a circle, as RVO2's Circle example places it:
///   200.0f * Vector2(std::cos(i * 2.0f * M_PI / 250.0f), std::sin(...)).
/// There the angle is (float(i) * 2.0f) in double, times pi, over float(count) in double; the
/// cosine and sine are taken in double, rounded to float, then scaled by the float radius. Doing
/// the integer-to-double conversions directly gives the same bits whenever i and count are below
/// 2^24 (where float holds them exactly) and keeps larger circles evenly spaced.
inline Vec2 circleOffset(std::size_t index, std::size_t count, float radius) {
  const double angle = static_cast<double>(index) * 2.0 * std::numbers::pi / static_cast<double>(count);
  return radius * Vec2(static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle)));
}

/// Columns and rows of a lattice that holds `count` points in a `width` x `height` box with
/// roughly square spacing, filled row by row. A box with no width (or height) gets a single
/// column (or row).
struct LatticeShape {
  std::size_t columns = 1;
  std::size_t rows = 1;
};

inline LatticeShape latticeShape(std::size_t count, double width, double height) {
  if (count <= 1) return {};
  LatticeShape shape;
  if (height <= 0.0) {
    shape.columns = width <= 0.0 ? 1 : count;
  } else if (width > 0.0) {
    const double ideal = std::ceil(std::sqrt(static_cast<double>(count) * width / height));
    shape.columns = static_cast<std::size_t>(std::clamp(ideal, 1.0, static_cast<double>(count)));
  }
  shape.rows = (count + shape.columns - 1) / shape.columns;
  return shape;
}

/// Position of lattice point `k` (0-based) along an axis of `n` points spread evenly over
/// [lo, hi]: the ends when n > 1, the middle when n == 1.
inline double latticeCoordinate(std::size_t k, std::size_t n, double lo, double hi) {
  if (n <= 1) return 0.5 * (lo + hi);
  return lo + (hi - lo) * static_cast<double>(k) / static_cast<double>(n - 1);
}

/// Appends the group's agents. Circle agents head for the antipodal point. The random stream
/// is (seed, spec.stream), so each group draws the same numbers whatever else the scenario holds.
inline void appendGroup(const GroupSpec& spec, std::uint64_t seed, std::vector<AgentDef>& agents) {
  ScenarioRandom random(seed, spec.stream);
  agents.reserve(agents.size() + spec.count);
  const LatticeShape lattice = latticeShape(spec.count, static_cast<double>(spec.max.x) - spec.min.x,
                                            static_cast<double>(spec.max.y) - spec.min.y);
  for (std::size_t i = 0; i < spec.count; ++i) {
    throwIfStopRequested("while placing agents");
    AgentDef agent;
    agent.params = spec.params;
    agent.behavior = spec.behavior;
    if (spec.target) agent.target = AgentId{static_cast<std::uint32_t>(*spec.target), 0};
    if (spec.shape == GroupSpec::Shape::circle) {
      const Vec2 offset = circleOffset(i, spec.count, spec.circleRadius);
      agent.position = spec.center + offset;
      agent.goal = spec.center - offset;
      agents.push_back(agent);
      continue;
    }
    if (spec.randomPlacement) {
      const float x = random.floatBetween(spec.min.x, spec.max.x);
      agent.position = Vec2(x, random.floatBetween(spec.min.y, spec.max.y));
    } else {
      const double x = latticeCoordinate(i % lattice.columns, lattice.columns, spec.min.x, spec.max.x);
      const double y = latticeCoordinate(i / lattice.columns, lattice.rows, spec.min.y, spec.max.y);
      agent.position = Vec2(static_cast<float>(x), static_cast<float>(y));
    }
    switch (spec.goal) {
      case GroupSpec::Goal::none:
        break;
      case GroupSpec::Goal::point:
        agent.goal = spec.goalVector;
        break;
      case GroupSpec::Goal::offset:
        agent.goal = agent.position + spec.goalVector;
        break;
      case GroupSpec::Goal::box: {
        const float x = random.floatBetween(spec.goalMin.x, spec.goalMax.x);
        agent.goal = Vec2(x, random.floatBetween(spec.goalMin.y, spec.goalMax.y));
        break;
      }
      case GroupSpec::Goal::prefVelocity:
        agent.prefVelocity = spec.goalVector;
        break;
    }
    agents.push_back(agent);
  }
}

}  // namespace crowd::scenario_detail
