#include "scenario_risks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "number_text.hpp"

namespace crowd {
namespace {

// A pile denser than this, in one body-sized cell, is more than any agent's neighbour list
// holds: ORCA then sees only part of the crowd around it.
constexpr std::size_t kPileAgents = kMaxNeighbors + 1;

std::string seconds(float value) { return formatFloat(value) + " s"; }

// Every distinct parameter set once (scenarios have a handful).
std::vector<AgentParams> distinctParams(const Scenario& scenario) {
  std::vector<AgentParams> distinct;
  for (const AgentDef& agent : scenario.agents) {
    if (distinct.size() < 64 && std::find(distinct.begin(), distinct.end(), agent.params) == distinct.end()) {
      distinct.push_back(agent.params);
    }
  }
  return distinct;
}

void addHorizonWarnings(Scenario& scenario) {
  const float step = scenario.timeStep;
  bool agentsWarned = false;
  bool obstaclesWarned = false;
  bool tunnelWarned = false;
  for (const AgentParams& p : distinctParams(scenario)) {
    if (!agentsWarned && p.timeHorizon < step) {
      agentsWarned = true;
      scenario.warnings.push_back("timeHorizon " + seconds(p.timeHorizon) + " is shorter than the time step " +
                                  seconds(step) +
                                  ": agents look less than one step ahead for each other and will collide");
    }
    if (scenario.obstacles.empty()) continue;
    if (!obstaclesWarned && p.timeHorizonObst < step) {
      obstaclesWarned = true;
      scenario.warnings.push_back("timeHorizonObst " + seconds(p.timeHorizonObst) + " is shorter than the time step " +
                                  seconds(step) +
                                  ": agents look less than one step ahead for walls and can pass through them");
    }
    const double stride = static_cast<double>(p.maxSpeed) * static_cast<double>(step);
    if (!tunnelWarned && stride > p.radius) {
      tunnelWarned = true;
      scenario.warnings.push_back("an agent at maxSpeed " + formatFloat(p.maxSpeed) + " moves " + formatNumber(stride) +
                                  " per step, more than its radius " + formatFloat(p.radius) +
                                  ": near a wall it can cross an edge between two steps; shorten the time step");
    }
  }
}

// The most crowded body-sized cell: agents within about one body of each other.
void addPileWarning(Scenario& scenario) {
  if (scenario.agents.size() <= kPileAgents) return;
  double maxRadius = 0.0;
  for (const AgentDef& agent : scenario.agents) maxRadius = std::max(maxRadius, static_cast<double>(agent.params.radius));
  const double cell = std::max(2.0 * maxRadius, 1e-3);
  std::unordered_map<std::uint64_t, std::uint32_t> counts;
  counts.reserve(scenario.agents.size());
  std::uint32_t most = 0;
  Vec2 where{0.0f, 0.0f};
  for (const AgentDef& agent : scenario.agents) {
    const auto x = static_cast<std::int64_t>(std::floor(agent.position.x / cell));
    const auto y = static_cast<std::int64_t>(std::floor(agent.position.y / cell));
    const std::uint64_t key = (static_cast<std::uint64_t>(x) << 32) ^ static_cast<std::uint32_t>(y);
    const std::uint32_t count = ++counts[key];
    if (count > most) {
      most = count;
      where = agent.position;
    }
  }
  if (most <= kPileAgents) return;
  scenario.warnings.push_back(std::to_string(most) + " agents start within " + formatNumber(cell) + " of each other near " +
                              formatVec2(where) + ", more than a neighbour list holds (" +
                              std::to_string(kMaxNeighbors) +
                              "): ORCA sees only part of the pile, it spreads slowly, and each step costs "
                              "about the square of its size");
}

// MemAvailable from /proc/meminfo, in bytes; 0 where it cannot be read.
std::uint64_t availableMemory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (meminfo >> key >> value >> unit) {
    if (key == "MemAvailable:") return value * 1024;
  }
  return 0;
}

std::string gibibytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

}  // namespace

void addRiskWarnings(Scenario& scenario) {
  addHorizonWarnings(scenario);
  addPileWarning(scenario);
}

std::uint64_t bytesPerAgentEstimate() { return sizeof(AgentDef) + 320; }

void checkMemoryFor(std::uint64_t agents, const std::string& source) {
  const std::uint64_t available = availableMemory();
  if (available == 0) return;
  const double needed = static_cast<double>(agents) * static_cast<double>(bytesPerAgentEstimate());
  if (needed <= 0.9 * static_cast<double>(available)) return;
  throw ScenarioError(source + ": " + std::to_string(agents) + " agents need about " + gibibytes(needed) + " (" +
                      std::to_string(bytesPerAgentEstimate()) + " bytes each), but " + gibibytes(static_cast<double>(available)) +
                      " of memory is available");
}

}  // namespace crowd
