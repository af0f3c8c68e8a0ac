// Micro-benchmarks of the per-agent kernels: the cost of one agent's ORCA solve with K agent
// neighbours (dense crowd, so the LP often falls back to lp3), and of K-nearest selection.
#include <cmath>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include <crowd/kernels/frenet_planner.hpp>
#include <crowd/kernels/k_nearest.hpp>
#include <crowd/kernels/linear_program.hpp>
#include <crowd/kernels/orca_agents.hpp>

#include "nav/reference_line.hpp"

namespace {

using crowd::Vec2;

struct Neighbourhood {
  std::vector<Vec2> positions;
  std::vector<Vec2> velocities;
};

// An agent at the origin and `count` neighbours around it at a given spacing, all heading in.
Neighbourhood makeNeighbourhood(int count, float spacing, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  Neighbourhood n;
  for (int i = 0; i < count; ++i) {
    const Vec2 p(unit(rng) * spacing * 3.0f, unit(rng) * spacing * 3.0f);
    n.positions.push_back(p);
    n.velocities.push_back(-0.3f * p);
  }
  return n;
}

void orcaSolve(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  const float spacing = static_cast<float>(state.range(1));
  const Neighbourhood n = makeNeighbourhood(k, spacing, 7);
  crowd::OrcaLine lines[crowd::kMaxOrcaLines];
  for (auto _ : state) {
    for (int m = 0; m < k; ++m) {
      lines[m] = crowd::agentOrcaLine(Vec2(0.0f), Vec2(1.0f, 0.0f), 1.5f, n.positions[m], n.velocities[m],
                                      1.5f, 0.1f, 4.0f, crowd::coincidentSeparationHint(0, 1));
    }
    benchmark::DoNotOptimize(crowd::solveOrcaProgram(lines, k, 0, 2.0f, Vec2(1.0f, 0.0f)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(orcaSolve)->Args({10, 4})->Args({10, 2})->Args({32, 4});

void kNearest(benchmark::State& state) {
  const int candidates = static_cast<int>(state.range(0));
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(0.0f, 225.0f);
  std::vector<float> distSq(static_cast<std::size_t>(candidates));
  for (float& d : distSq) d = dist(rng);
  for (auto _ : state) {
    crowd::AgentNeighbours nearest;
    nearest.reset(10, 225.0f);
    for (int i = 0; i < candidates; ++i)
      nearest.offer(distSq[static_cast<std::size_t>(i)], static_cast<unsigned>(i), i);
    benchmark::DoNotOptimize(nearest.count);
  }
  state.SetItemsProcessed(state.iterations() * candidates);
}
BENCHMARK(kNearest)->Arg(30)->Arg(100);

}  // namespace

// One agent's whole Frenet candidate set (7 offsets x 5 speeds x 4 horizons) on a bending road
// with a parked car ahead; items are candidates costed, so items_per_second is candidates per
// second on one core.
void frenetCandidates(benchmark::State& state) {
  const std::vector<crowd::Vec2> road = {{0, 0}, {30, 0}, {50, 10}, {80, 10}, {100, 0}};
  const std::vector<crowd::ReferencePoint> points = crowd::buildReferenceLine(road, 0.25);
  const crowd::ReferenceLineView line = crowd::referenceLineView(points, 0.25);
  const crowd::FrenetSettings settings;
  const crowd::ReferencePoint car = crowd::referenceAt(line, 38.0);  // Parked on the centre line.
  const crowd::Vec2 at(static_cast<float>(car.x), static_cast<float>(car.y));
  const auto parked = [&at](double x0, double y0, double x1, double y1, double,
                            double) {  // Swept, as the planner asks.
    const crowd::Vec2 from(static_cast<float>(x0), static_cast<float>(y0)),
        to(static_cast<float>(x1), static_cast<float>(y1));
    return (from == to ? crowd::absSq(at - from) : crowd::distSqPointSegment(from, to, at)) < 1.5f * 1.5f;
  };
  const crowd::FrenetState start{30.0, 2.0, 0.0, 0.2, 0.0, 0.0};
  std::int64_t candidates = 0;
  for (auto _ : state) {
    const crowd::FrenetPlan plan = crowd::planFrenet(line, start, settings, parked);
    benchmark::DoNotOptimize(plan.cost);
    candidates += plan.evaluated;
  }
  state.SetItemsProcessed(candidates);
}
BENCHMARK(frenetCandidates);

BENCHMARK_MAIN();
