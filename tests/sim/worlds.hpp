// The planar and the 3D world side by side, for tests written once for both: typed tests run
// over Worlds (TYPED_TEST_SUITE(Suite, test::Worlds, test::WorldNames) names them Suite/Planar
// and Suite/Spatial), and helpers templated on a simulator or a world reach its types and
// functions through these traits.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

namespace crowd::test {

/// A world's types and functions: World<Vec2> is the plane's, World<Vec3> 3D's.
template <class V>
struct World {
  static constexpr bool kPlanar = std::is_same_v<V, Vec2>;
  static constexpr int kDimensions = kPlanar ? 2 : 3;
  static constexpr const char* kName = kPlanar ? "Planar" : "Spatial";
  /// The built-in most runs start from: RVO2's Circle, RVO2-3D's Sphere.
  static constexpr const char* kDefaultBuiltin = kPlanar ? "circle" : "sphere";
  using Vector = V;
  using AgentDef = AgentDefOf<V>;
  using Simulator = std::conditional_t<kPlanar, crowd::Simulator, Simulator3>;
  using Scenario = std::conditional_t<kPlanar, crowd::Scenario, Scenario3>;

  /// builtinScenario or builtinScenario3.
  static Scenario builtin(const std::string& name, std::optional<std::size_t> agents = std::nullopt,
                          std::uint64_t seed = 1) {
    if constexpr (kPlanar) {
      return builtinScenario(name, agents, seed);
    } else {
      return builtinScenario3(name, agents, seed);
    }
  }
  /// makeSimulator or makeSimulator3.
  static Simulator make(const Scenario& scenario, int threads = 0, BackendKind backend = BackendKind::Cpu) {
    if constexpr (kPlanar) {
      return makeSimulator(scenario, threads, backend);
    } else {
      return makeSimulator3(scenario, threads, backend);
    }
  }
};

using Planar = World<Vec2>;
using Spatial = World<Vec3>;
using Worlds = ::testing::Types<Planar, Spatial>;

/// Names a typed test's instances after their world: Suite/Planar, Suite/Spatial.
struct WorldNames {
  template <class W>
  static std::string GetName(int) {
    return W::kName;
  }
};

/// What a test uses in world W: `planar` in the plane, `spatial` in 3D (the figures a test
/// checks differ by world where its built-ins do).
template <class W, class T>
T byWorld(T planar, T spatial) {
  return W::kPlanar ? std::move(planar) : std::move(spatial);
}

/// The point `x` along the first axis.
template <class Vector>
Vector onAxis(float x) {
  Vector v(0.0f);
  v.x = x;
  return v;
}

/// The state hash after `steps` steps of `scenario` on `threads` threads, with the grid's cell
/// size configured to `cellSize` when one is given (0 asks for the automatic size).
template <class W>
std::uint64_t hashAfter(const typename W::Scenario& scenario, int threads, int steps,
                        std::optional<float> cellSize = std::nullopt) {
  typename W::Simulator sim = W::make(scenario, threads);
  if (cellSize) {
    SimulatorConfig config = sim.config();
    config.cellSize = *cellSize;
    sim.setConfig(config);
  }
  for (int s = 0; s < steps; ++s) sim.step();
  return sim.stateHash();
}

/// Adds two agents made from `def` head on: one at `from` heading for `to`, one at `to` heading
/// for `from`.
template <class Sim>
std::pair<AgentId, AgentId> addHeadOnPair(Sim& sim, typename Sim::Def def, decltype(def.position) from,
                                          decltype(def.position) to) {
  def.position = from;
  def.goal = to;
  const AgentId a = sim.addAgent(def);
  def.position = to;
  def.goal = from;
  return {a, sim.addAgent(def)};
}

/// Steps up to `steps` times, or until both agents have arrived when `untilBothArrive`, and
/// returns the closest the two came after a step.
template <class Sim>
float closestApproach(Sim& sim, AgentId a, AgentId b, int steps, bool untilBothArrive) {
  float closest = INFINITY;
  for (int s = 0; s < steps && !(untilBothArrive && sim.hasArrived(a) && sim.hasArrived(b)); ++s) {
    sim.step();
    closest = std::min(closest, length(sim.position(a) - sim.position(b)));
  }
  return closest;
}

}  // namespace crowd::test
