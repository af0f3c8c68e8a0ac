// The summary a run prints.
#include "summary.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace crowd::cli {
namespace {

std::string formatSeconds(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f s", s);
  return buffer;
}

// Captures per pursuit rule, path following and planners' deviations, for runs that have
// pursuers, followers or planners.
void printBehaviorSummary(std::FILE* out, const RunMetrics& m) {
  for (int k = 0; k < kPursuitKindCount && m.hasPursuers(); ++k) {
    const CaptureStats& c = m.captures[static_cast<std::size_t>(k)];
    std::fprintf(out, "captures        %-9s %zu/%zu caught", kPursuitNames[k], c.caught, c.pursuers);
    if (c.caught > 0) {
      std::fprintf(out, ", mean %s, max %s", formatSeconds(c.meanTime).c_str(),
                   formatSeconds(c.maxTime).c_str());
    }
    std::fprintf(out, "\n");
  }
  if (m.paths.agentSteps > 0) {
    std::fprintf(out, "path            %zu followers, mean distance %.2f, %.1f%% within radius\n",
                 m.paths.followers, m.paths.meanDistance, 100.0 * m.paths.withinRadius);
  }
  if (m.planners.count > 0) std::fprintf(out, "planners        %s\n", m.planners.summary().c_str());
}

// What both worlds report: the backend, steps, arrivals.
void printProgress(std::FILE* out, const RunMetrics& m, const std::string& backend, int threads,
                   double simulated, double wallSeconds) {
  std::fprintf(out, "backend         %s, %d threads\n", backend.c_str(), threads);
  std::fprintf(out, "steps run       %lld (%s simulated, %.2f s wall)\n", static_cast<long long>(m.steps),
               formatSeconds(simulated).c_str(), wallSeconds);
  if (m.agentsWithGoal > 0) {
    std::fprintf(out, "arrived         %zu of %zu agents with goals", m.arrived, m.agentsWithGoal);
    if (m.arrived > 0) {
      std::fprintf(out, " (first at %s, last at %s, mean %s)", formatSeconds(m.firstArrivalTime).c_str(),
                   formatSeconds(m.lastArrivalTime).c_str(), formatSeconds(m.meanArrivalTime).c_str());
    }
    std::fprintf(out, "\n");
  }
}

// Whether a run's contacts are what its model gives, judged by the deepest overlap: ORCA lets
// pressed agents (a door, a crossing, a crowd pushed by those behind) give a little when its
// linear programs have no feasible answer; deep overlaps are bodies a model of people would keep
// apart; agents that pass through each other point at the run's settings.
std::string contactHint(const RunMetrics& m) {
  if (m.collisions == 0 || m.steps == 0) return "";
  char buffer[256];
  const double perStep = static_cast<double>(m.collisions) / static_cast<double>(m.steps);
  const double deepest = m.minSeparationRatio;
  const char* judgement =
      deepest >= 0.9   ? "shallow: ORCA's usual give where agents press together"
      : deepest >= 0.5 ? "deep: a pressed crowd overlaps under ORCA; the pedestrian models keep bodies apart "
                         "(docs/models.md)"
                       : "agents passed through each other: check the time step against speeds and radii";
  std::snprintf(buffer, sizeof buffer, "; %.2g a step, the deepest at %.2f of the radii, %s", perStep,
                deepest, judgement);
  return buffer;
}

// Contacts between agents, separation, speeds and cost, which both worlds report alike.
void printContacts(std::FILE* out, const RunMetrics& m) {
  std::fprintf(out, "collisions      %lld agent pairs closer than 99%% of their radii, summed over steps%s\n",
               static_cast<long long>(m.collisions), contactHint(m).c_str());
}

void printSeparation(std::FILE* out, const RunMetrics& m) {
  if (std::isfinite(m.minSeparationRatio)) {
    std::fprintf(out, "min separation  %.4f x combined radii\n", m.minSeparationRatio);
  } else {
    std::fprintf(out, "min separation  no pair came within 1.5 combined radii\n");
  }
}

void printSpeedsAndCost(std::FILE* out, const RunMetrics& m) {
  const PhaseTimes mean = m.meanMsPerStep();
  std::fprintf(out, "mean speed      %.4f\n", m.meanSpeed);
  std::fprintf(out,
               "max speed       %.4f x maxSpeed (%lld new velocities pulled back into the maxSpeed disc)\n",
               m.maxSpeedRatio, static_cast<long long>(m.speedClamps));
  std::fprintf(out, "ms per step    ");
  for (int p = 0; p < kPhaseCount; ++p) std::fprintf(out, " %s %.3f |", kPhaseNames[p], mean.ms[p]);
  std::fprintf(out, " total %.3f\n", mean.total());
}

}  // namespace

void printSummary(std::FILE* out, const Scenario& scenario, const Simulator& sim, const RunMetrics& m,
                  int threads, double wallSeconds) {
  std::fprintf(out, "scenario        %s: %zu agents, %zu obstacles, %zu circles, %zu paths, time step %g s\n",
               scenario.name.c_str(), m.initialAgents, scenario.obstacles.size(), scenario.circles.size(),
               scenario.paths.size(), static_cast<double>(scenario.timeStep));
  printProgress(out, m, sim.backendName(), threads, sim.time(), wallSeconds);
  if (m.unreachable > 0) {
    std::fprintf(
        out, "unreachable     %zu agents have no route to their goal through the map (they stand still)\n",
        m.unreachable);
  }
  if (m.navigation) {
    std::fprintf(
        out,
        "routes          %lld planned while running, %lld re-planned after no progress, %lld sent to "
        "another exit (%.3f s)\n",
        static_cast<long long>(m.navigation->planned), static_cast<long long>(m.navigation->replans),
        static_cast<long long>(m.navigation->exitChanges), m.navigation->seconds);
  }
  printContacts(out, m);
  std::fprintf(out, "penetrations    %lld agent-steps inside an obstacle or closer than 99%% of the radius\n",
               static_cast<long long>(m.penetrations));
  printSeparation(out, m);
  printBehaviorSummary(out, m);
  printSpeedsAndCost(out, m);
}

void printSummary(std::FILE* out, const Scenario3& scenario, const Simulator3& sim, const RunMetrics& m,
                  int threads, double wallSeconds) {
  std::fprintf(out, "scenario        %s: %zu agents in 3D, time step %g s\n", scenario.name.c_str(),
               m.initialAgents, static_cast<double>(scenario.timeStep));
  printProgress(out, m, sim.backendName(), threads, sim.time(), wallSeconds);
  printContacts(out, m);
  printSeparation(out, m);
  printSpeedsAndCost(out, m);
}

}  // namespace crowd::cli
