// crowd_soak: runs built-in scenarios to the end and checks every step of every agent: no
// non-finite position or velocity, no speed above maxSpeed, no jump longer than a step at
// maxSpeed (a teleport), and, where ORCA's guarantee holds (walls are hard constraints) or the
// detection box keeps agents off circular posts, no agent inside an obstacle. Prints what it
// checked and exits with 1 on any violation.
//
//   crowd_soak [NAME:AGENTS ...] [--threads N]
//
// Default: runs where ORCA's guarantees hold (no crush against a wall), together more than
// 10^8 agent-steps, and the steering built-ins: the forest's agents keep off its posts with the
// detection box alone (ORCA off), the mix's with ORCA. The bottleneck's door is a crush: its
// agents' programs are infeasible there, and contact with the door frame is ORCA's known limit,
// so it is left out by default (name it to see its figures).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include <crowd/crowd.hpp>

namespace {

using namespace crowd;

struct Run {
  std::string scenario;
  std::size_t agents;
};

struct Tally {
  long long agentSteps = 0;
  long long nonFinite = 0;
  long long overSpeed = 0;
  long long teleports = 0;
  long long penetrations = 0;
  double maxSpeedRatio = 0.0;
};

// One scenario to full arrival (or its step budget), every step checked.
Tally soak(const Run& run, int threads) {
  const Scenario scenario = builtinScenario(run.scenario, run.agents, 11);
  Simulator sim = makeSimulator(scenario, threads);
  Tally tally;
  std::vector<Vec2> before;
  std::vector<AgentId> idsBefore;
  const float stepTime = scenario.timeStep;
  std::size_t arrived = 0;
  for (std::int64_t s = 0; s < scenario.steps && arrived < scenario.agents.size(); ++s) {
    before.assign(sim.positions().begin(), sim.positions().end());
    idsBefore.assign(sim.ids().begin(), sim.ids().end());
    sim.step();
    arrived += sim.lastArrivals().size();
    const auto ids = sim.ids();
    const auto positions = sim.positions();
    const auto velocities = sim.velocities();
    const std::vector<float> maxSpeeds = sim.maxSpeeds();
    // Removed agents close the gaps in order, so walk both lists by id.
    std::size_t j = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      ++tally.agentSteps;
      const Vec2 p = positions[i];
      const Vec2 v = velocities[i];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(v.x) || !std::isfinite(v.y)) {
        ++tally.nonFinite;
        continue;
      }
      const double speed = std::sqrt(static_cast<double>(absSq(v)));
      tally.maxSpeedRatio = std::max(tally.maxSpeedRatio, speed / maxSpeeds[i]);
      if (speed > maxSpeeds[i]) ++tally.overSpeed;
      while (j < idsBefore.size() && !(idsBefore[j] == ids[i])) ++j;
      if (j < idsBefore.size()) {
        // A step moves an agent by velocity * time step: allow only the rounding of that sum, a few
        // units in the last place of the coordinates.
        const Vec2 a = before[j];
        const double rounding = 5e-7 * (std::fabs(a.x) + std::fabs(a.y) + std::fabs(p.x) + std::fabs(p.y));
        const double jump = std::sqrt(absSq(glm::dvec2(p) - glm::dvec2(a)));
        if (jump > static_cast<double>(maxSpeeds[i]) * stepTime * (1.0 + 1e-6) + rounding) ++tally.teleports;
      }
    }
    if (!scenario.obstacles.empty() || !scenario.circles.empty()) {
      const std::vector<float> radii = sim.radii();
      tally.penetrations += measureContacts(positions, radii, sim.obstacles(), threads).penetrations;
    }
  }
  return tally;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Run> runs;
  int threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (const auto colon = arg.find(':'); colon != std::string::npos) {
      runs.push_back(Run{arg.substr(0, colon),
                         static_cast<std::size_t>(std::strtoull(arg.c_str() + colon + 1, nullptr, 10))});
    } else {
      std::fprintf(stderr, "usage: crowd_soak [NAME:AGENTS ...] [--threads N]\n");
      return 2;
    }
  }
  if (runs.empty()) {
    runs = {{"circle", 2000}, {"crossing", 2000}, {"corridor", 2000}, {"random", 5000},
            {"forest", 500},  {"pursuit", 400},   {"pathloop", 120},  {"mix", 2000}};
  }
  Tally total;
  std::printf("%-12s %8s %14s %9s %10s %9s %12s %14s\n", "scenario", "agents", "agent-steps", "nonfinite",
              "overspeed", "teleports", "penetrations", "max |v|/max");
  for (const Run& run : runs) {
    const Tally t = soak(run, threads);
    std::printf("%-12s %8zu %14lld %9lld %10lld %9lld %12lld %14.6f\n", run.scenario.c_str(), run.agents,
                t.agentSteps, t.nonFinite, t.overSpeed, t.teleports, t.penetrations, t.maxSpeedRatio);
    std::fflush(stdout);
    total.agentSteps += t.agentSteps;
    total.nonFinite += t.nonFinite;
    total.overSpeed += t.overSpeed;
    total.teleports += t.teleports;
    total.penetrations += t.penetrations;
    total.maxSpeedRatio = std::max(total.maxSpeedRatio, t.maxSpeedRatio);
  }
  std::printf("%-12s %8s %14lld %9lld %10lld %9lld %12lld %14.6f\n", "total", "", total.agentSteps,
              total.nonFinite, total.overSpeed, total.teleports, total.penetrations, total.maxSpeedRatio);
  const bool clean =
      total.nonFinite == 0 && total.overSpeed == 0 && total.teleports == 0 && total.penetrations == 0;
  return clean ? 0 : 1;
}
