// crowd's 3D step beside RVO2-3D's, built by benchmarks/compare_rvo2.sh --3d against an RVO2-3D
// checkout (never part of this repository). Three checks:
//   rvo2_3d_compare agreement CASES  one-step velocities on CASES random worlds (2 to 31 agents,
//                                    dense to sparse, overlapping, mixed parameters), with
//                                    exactRvo2 and with the default settings
//   rvo2_3d_compare sphere STEPS     RVO2-3D's Sphere example step by step: how long the two
//                                    stay bit-identical, and why they part
//   rvo2_3d_compare time SCENARIO N STEPS THREADS
//                                    ms per step of both on a 3D built-in's agents (median after
//                                    3 untimed steps), as a Markdown table row
// RVO2-3D is given crowd's agents, parameters and preferred velocities (the built-ins' goal rule:
// toward the goal, at most prefSpeed 1); its doStep and crowd's step are timed alone.
#include <RVO.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <crowd/scenario3.hpp>
#include <crowd/simulator3.hpp>

namespace {

using crowd::Vec3;

RVO::Vector3 toRvo(Vec3 v) {
  return RVO::Vector3(v.x, v.y, v.z);
}
Vec3 fromRvo(const RVO::Vector3& v) {
  return Vec3(v.x(), v.y(), v.z());
}
bool sameBits(Vec3 a, Vec3 b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

Vec3 inBall(std::mt19937& rng, float radius) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (;;) {
    const Vec3 v(unit(rng), unit(rng), unit(rng));
    if (crowd::absSq(v) <= 1.0f) return v * radius;
  }
}

void addToRvo(RVO::RVOSimulator& rvo, const crowd::AgentDef3& def) {
  const crowd::AgentParams& p = def.params;
  rvo.addAgent(toRvo(def.position), p.neighborDist, static_cast<std::size_t>(p.maxNeighbors), p.timeHorizon,
               p.radius, p.maxSpeed, toRvo(def.velocity));
}

int agreement(int cases) {
  for (const bool exact : {true, false}) {
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    long long total = 0, within = 0, identical = 0;
    double worst = 0.0;
    for (int c = 0; c < cases; ++c) {
      const int n = 2 + static_cast<int>(unit(rng) * 30.0f);
      const float side = 0.5f + unit(rng) * 20.0f;  // From a heap of overlapping agents to a sparse box.
      crowd::SimulatorConfig config;
      config.timeStep = 0.05f + unit(rng) * 0.45f;
      config.threads = 1;
      config.exactRvo2 = exact;
      crowd::Simulator3 sim(config);
      RVO::RVOSimulator rvo;
      rvo.setTimeStep(config.timeStep);
      auto drawParams = [&] {
        crowd::AgentParams p;
        p.radius = 0.2f + unit(rng) * 1.8f;
        p.neighborDist = 2.0f * p.radius + unit(rng) * 20.0f;
        p.maxNeighbors = 1 + static_cast<int>(unit(rng) * 20.0f);
        p.timeHorizon = 0.5f + unit(rng) * 10.0f;
        p.maxSpeed = 0.5f + unit(rng) * 2.5f;
        return p;
      };
      const bool shared = unit(rng) < 0.5f;
      const crowd::AgentParams common = drawParams();
      std::vector<crowd::AgentId> ids;
      for (int i = 0; i < n; ++i) {
        crowd::AgentDef3 def;
        def.params = shared ? common : drawParams();
        def.position = inBall(rng, side);
        def.velocity = inBall(rng, def.params.maxSpeed * (unit(rng) < 0.2f ? 1.3f : 1.0f));
        def.prefVelocity = inBall(rng, def.params.maxSpeed * 1.5f);
        ids.push_back(sim.addAgent(def));
        addToRvo(rvo, def);
        rvo.setAgentPrefVelocity(static_cast<std::size_t>(i), toRvo(def.prefVelocity));
      }
      sim.step();
      rvo.doStep();
      for (int i = 0; i < n; ++i) {
        const Vec3 ours = sim.velocity(ids[static_cast<std::size_t>(i)]);
        const Vec3 theirs = fromRvo(rvo.getAgentVelocity(static_cast<std::size_t>(i)));
        const double d = crowd::length(ours - theirs);
        ++total;
        within += d <= 1e-4 ? 1 : 0;
        identical += sameBits(ours, theirs) ? 1 : 0;
        if (!(d <= 1e-4)) worst = std::max(worst, std::isnan(d) ? INFINITY : d);
      }
    }
    std::printf(
        "%-8s %lld agent-steps in %d worlds: %lld within 1e-4 (%.4f%%), %lld bit-identical, largest other "
        "difference %.3g\n",
        exact ? "exact" : "default", total, cases, within,
        100.0 * static_cast<double>(within) / static_cast<double>(total), identical, worst);
  }
  return 0;
}

// RVO2-3D's preferred velocities by the built-ins' goal rule (prefSpeed 1).
void steerRvo(const crowd::Scenario3& scenario, RVO::RVOSimulator& rvo) {
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    RVO::Vector3 toGoal = toRvo(*scenario.agents[i].goal) - rvo.getAgentPosition(i);
    if (RVO::absSq(toGoal) > 1.0f) toGoal = RVO::normalize(toGoal);
    rvo.setAgentPrefVelocity(i, toGoal);
  }
}

crowd::SimulatorConfig configFor(const crowd::Scenario3& scenario, int threads, bool exact) {
  crowd::SimulatorConfig config;
  config.timeStep = scenario.timeStep;
  config.threads = threads;
  config.exactRvo2 = exact;
  return config;
}

// The scenario's agents in both simulators (RVO2-3D's simulator is not copyable: built in place).
struct Pair {
  crowd::Simulator3 sim;
  RVO::RVOSimulator rvo;
  std::vector<crowd::AgentId> ids;

  Pair(const crowd::Scenario3& scenario, int threads, bool exact) : sim(configFor(scenario, threads, exact)) {
    rvo.setTimeStep(scenario.timeStep);
    for (const crowd::AgentDef3& def : scenario.agents) {
      ids.push_back(sim.addAgent(def));
      addToRvo(rvo, def);
    }
  }
};

int sphere(int steps) {
  const crowd::Scenario3 scenario = crowd::builtinScenario3("sphere");
  Pair pair(scenario, 2, true);
  for (int step = 1; step <= steps; ++step) {
    std::vector<Vec3> before;
    for (std::size_t i = 0; i < pair.ids.size(); ++i) before.push_back(fromRvo(pair.rvo.getAgentPosition(i)));
    steerRvo(scenario, pair.rvo);
    pair.rvo.doStep();
    pair.sim.step();
    for (std::size_t i = 0; i < pair.ids.size(); ++i) {
      if (sameBits(pair.sim.velocity(pair.ids[i]), fromRvo(pair.rvo.getAgentVelocity(i))) &&
          sameBits(pair.sim.position(pair.ids[i]), fromRvo(pair.rvo.getAgentPosition(i)))) {
        continue;
      }
      std::printf(
          "sphere (%zu agents, exactRvo2): bit-identical for %d steps; at step %d agent %zu differs\n",
          pair.ids.size(), step - 1, step, i);
      // Equal distances among its neighbours: RVO2-3D keeps them in its k-d tree's visiting
      // order, crowd by id (the rule that makes the list independent of how it was found).
      const std::size_t count = pair.rvo.getAgentNumAgentNeighbors(i);
      for (std::size_t a = 0; a < count; ++a) {
        for (std::size_t b = a + 1; b < count; ++b) {
          const std::size_t j = pair.rvo.getAgentAgentNeighbor(i, a);
          const std::size_t k = pair.rvo.getAgentAgentNeighbor(i, b);
          // RVO2-3D lists j before k; crowd lists the smaller id first.
          if (j > k && crowd::absSq(before[j] - before[i]) == crowd::absSq(before[k] - before[i])) {
            std::printf(
                "  its neighbours %zu and %zu are exactly as far from it; RVO2-3D lists %zu first, crowd the "
                "smaller id\n",
                j, k, j);
          }
        }
      }
      return 0;
    }
  }
  std::printf("sphere (%zu agents, exactRvo2): bit-identical for all %d steps\n", pair.ids.size(), steps);
  return 0;
}

double median(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int timeBoth(const std::string& name, int agents, int steps, int threads) {
  const crowd::Scenario3 scenario = crowd::builtinScenario3(name, static_cast<std::size_t>(agents));
  Pair pair(scenario, threads, false);
  std::vector<double> ours, theirs;
  using Clock = std::chrono::steady_clock;
  for (int step = 0; step < steps + 3; ++step) {
    steerRvo(scenario, pair.rvo);
    const Clock::time_point a = Clock::now();
    pair.rvo.doStep();
    const Clock::time_point b = Clock::now();
    pair.sim.step();
    const Clock::time_point c = Clock::now();
    if (step < 3) continue;
    theirs.push_back(std::chrono::duration<double, std::milli>(b - a).count());
    ours.push_back(std::chrono::duration<double, std::milli>(c - b).count());
  }
  std::printf("| %s | %d | %.3f | %.3f | %.1fx |\n", name.c_str(), agents, median(ours), median(theirs),
              median(theirs) / median(ours));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  try {
    if (what == "agreement" && argc == 3) return agreement(std::atoi(argv[2]));
    if (what == "sphere" && argc == 3) return sphere(std::atoi(argv[2]));
    if (what == "time" && argc == 6)
      return timeBoth(argv[2], std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rvo2_3d_compare: %s\n", e.what());
    return 1;
  }
  std::fprintf(
      stderr, "usage: rvo2_3d_compare agreement CASES | sphere STEPS | time SCENARIO AGENTS STEPS THREADS\n");
  return 2;
}
