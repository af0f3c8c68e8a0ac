#include "scenario/risks.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include <crowd/memory_budget.hpp>
#include <crowd/simulator3.hpp>

#include "params/number_text.hpp"

namespace crowd {
namespace {

// A pile denser than this, in one body-sized cell, is more than any agent's neighbour list
// holds: ORCA then sees only part of the crowd around it.
constexpr std::size_t kPileAgents = kMaxNeighbors + 1;

std::string seconds(float value) {
  return formatFloat(value) + " s";
}

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
      scenario.warnings.push_back("timeHorizon " + seconds(p.timeHorizon) +
                                  " is shorter than the time step " + seconds(step) +
                                  ": agents look less than one step ahead for each other and will collide");
    }
    if (scenario.obstacles.empty()) continue;
    if (!obstaclesWarned && p.timeHorizonObst < step) {
      obstaclesWarned = true;
      scenario.warnings.push_back(
          "timeHorizonObst " + seconds(p.timeHorizonObst) + " is shorter than the time step " +
          seconds(step) + ": agents look less than one step ahead for walls and can pass through them");
    }
    const double stride = static_cast<double>(p.maxSpeed) * static_cast<double>(step);
    if (!tunnelWarned && stride > p.radius) {
      tunnelWarned = true;
      scenario.warnings.push_back(
          "an agent at maxSpeed " + formatFloat(p.maxSpeed) + " moves " + formatNumber(stride) +
          " per step, more than its radius " + formatFloat(p.radius) +
          ": near a wall it can cross an edge between two steps; shorten the time step");
    }
  }
}

// The most crowded body-sized cell: agents within about one body of each other.
void addPileWarning(Scenario& scenario) {
  if (scenario.agents.size() <= kPileAgents) return;
  double maxRadius = 0.0;
  for (const AgentDef& agent : scenario.agents)
    maxRadius = std::max(maxRadius, static_cast<double>(agent.params.radius));
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
  scenario.warnings.push_back(std::to_string(most) + " agents start within " + formatNumber(cell) +
                              " of each other near " + formatVec2(where) +
                              ", more than a neighbour list holds (" + std::to_string(kMaxNeighbors) +
                              "): ORCA sees only part of the pile, it spreads slowly, and each step costs "
                              "about the square of its size");
}

// ---- steering ------------------------------------------------------------------------------------

// Whether one of `b`'s behaviours reads `field` (kernels/steering.hpp). A goal-only agent takes
// RVO2's rule and integrates no force at all.
bool readsField(const Behavior& b, const BehaviorField& field) {
  const auto member = field.value;
  if (member == &Behavior::maxForce || member == &Behavior::mass) return !b.goalOnly();
  if (member == &Behavior::slowingRadius)
    return b.has(BehaviorKind::Arrive) || b.has(BehaviorKind::FollowPath);
  if (member == &Behavior::pathRadius || member == &Behavior::lookAhead)
    return b.has(BehaviorKind::FollowPath);
  if (member == &Behavior::wanderRadius || member == &Behavior::wanderDistance ||
      member == &Behavior::wanderJitter) {
    return b.has(BehaviorKind::Wander);
  }
  if (member == &Behavior::boxLength) return b.has(BehaviorKind::AvoidObstacles);
  if (member == &Behavior::separationRadius) return b.has(BehaviorKind::Separation);
  return true;
}

// Seek, flee and arrive head for the target instead of the goal, and so does goal itself once
// the agent steers (a goal-only agent keeps RVO2's rule, which knows no targets).
bool usesTarget(const Behavior& b) {
  for (const BehaviorKind kind : {BehaviorKind::Seek, BehaviorKind::Flee, BehaviorKind::Arrive,
                                  BehaviorKind::Pursue, BehaviorKind::Evade}) {
    if (b.has(kind)) return true;
  }
  return b.has(BehaviorKind::Goal) && !b.goalOnly();
}

std::string behaviorList(const Behavior& b) {
  std::string list;
  for (const WeightedBehavior& w : b.behaviors)
    list += (list.empty() ? "" : ", ") + std::string(behaviorName(w.kind));
  return list;
}

// "agent 3" or "12 agents (first: agent 3)".
std::string whichAgents(std::size_t count, std::size_t first) {
  return count == 1 ? "agent " + std::to_string(first)
                    : std::to_string(count) + " agents (first: agent " + std::to_string(first) + ")";
}

// Parameters set away from their defaults that none of the agent's behaviours reads: most
// likely a behaviour missing from its list ("pathRadius" without "follow").
void addUnusedParameterWarnings(Scenario& scenario) {
  struct Distinct {
    const Behavior* behavior;
    std::size_t first;
    std::size_t count;
  };
  std::vector<Distinct> distinct;
  std::size_t last = 0;  // Neighbouring agents mostly share a behaviour: tried first.
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    const Behavior& b = scenario.agents[i].behavior;
    if (last < distinct.size() && *distinct[last].behavior == b) {
      ++distinct[last].count;
      continue;
    }
    const auto found =
        std::find_if(distinct.begin(), distinct.end(), [&](const Distinct& d) { return *d.behavior == b; });
    if (found != distinct.end()) {
      ++found->count;
      last = static_cast<std::size_t>(found - distinct.begin());
    } else if (distinct.size() < 64) {
      last = distinct.size();
      distinct.push_back(Distinct{&b, i, 1});
    }
  }
  const Behavior defaults;
  for (const Distinct& d : distinct) {
    const Behavior& b = *d.behavior;
    std::string unused;
    for (const BehaviorField& field : kBehaviorFields) {
      if (b.*field.value != defaults.*field.value && !readsField(b, field)) {
        unused += (unused.empty() ? "" : ", ") + std::string(field.key);
      }
    }
    if (b.pursuit != defaults.pursuit && !b.has(BehaviorKind::Pursue))
      unused += (unused.empty() ? "" : ", ") + std::string("pursuit");
    const bool plans = b.planner != LocalPlanner::None;
    if (b.path >= 0 && !b.has(BehaviorKind::FollowPath) && !plans)
      unused += (unused.empty() ? "" : ", ") + std::string("path");
    if (b.frenet != defaults.frenet && !plans) unused += (unused.empty() ? "" : ", ") + std::string("frenet");
    if (plans && b.behaviors != defaults.behaviors) {
      // The planner replaces the behaviours' forces (steering.hpp).
      scenario.warnings.push_back(whichAgents(d.count, d.first) +
                                  " plan with the frenet planner, which ignores " +
                                  (d.count == 1 ? "its" : "their") + " behaviours (" + behaviorList(b) + ")");
    }
    if (unused.empty()) continue;
    scenario.warnings.push_back(whichAgents(d.count, d.first) + (d.count == 1 ? " sets " : " set ") + unused +
                                ", which none of " + (d.count == 1 ? "its" : "their") + " behaviours (" +
                                behaviorList(b) + ") uses");
  }
}

// Targets that steer nothing, and pursuers or evaders with nothing to pursue or evade.
void addTargetWarnings(Scenario& scenario) {
  std::size_t untargeted = 0;
  std::size_t firstUntargeted = 0;
  std::size_t idle = 0;
  std::size_t firstIdle = 0;
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    const AgentDef& agent = scenario.agents[i];
    if (agent.behavior.goalOnly() && !agent.target) continue;  // The common case, at once.
    const bool chases = agent.behavior.has(BehaviorKind::Pursue) || agent.behavior.has(BehaviorKind::Evade);
    if (chases && !agent.target && untargeted++ == 0) firstUntargeted = i;
    if (agent.target && !usesTarget(agent.behavior) && idle++ == 0) firstIdle = i;
  }
  if (untargeted > 0) {
    scenario.warnings.push_back(
        whichAgents(untargeted, firstUntargeted) +
        (untargeted == 1 ? " pursues or evades but has" : " pursue or evade but have") +
        " no target: no pursuit force");
  }
  if (idle > 0) {
    scenario.warnings.push_back(
        whichAgents(idle, firstIdle) + (idle == 1 ? " has a target" : " have a target") + " that none of " +
        (idle == 1 ? "its" : "their") +
        " behaviours uses (only seek, flee, arrive, pursue, "
        "evade and a steered goal head for one; behaviours of agent " +
        std::to_string(firstIdle) + ": " + behaviorList(scenario.agents[firstIdle].behavior) + ")");
  }
}

}  // namespace

void addRiskWarnings(Scenario& scenario) {
  addHorizonWarnings(scenario);
  addPileWarning(scenario);
  addUnusedParameterWarnings(scenario);
  addTargetWarnings(scenario);
}

std::uint64_t bytesPerAgentEstimate() {
  return sizeof(AgentDef) + 320;
}
std::uint64_t bytesPerAgentEstimate3() {
  return sizeof(AgentDef3) + 400;
}

void checkMemoryFor(std::uint64_t agents, const std::string& source, std::uint64_t bytesPerAgent) {
  const std::uint64_t budget = memoryBudget();
  if (budget == 0) return;
  const double needed = static_cast<double>(agents) * static_cast<double>(bytesPerAgent);
  if (needed <= static_cast<double>(budget)) return;
  throw ScenarioError(source + ": " + std::to_string(agents) + " agents need about " + formatBytes(needed) +
                      " (" + std::to_string(bytesPerAgent) + " bytes each), but " +
                      formatBytes(static_cast<double>(budget)) + " of memory is available (" +
                      memoryBudgetSource() + ")");
}

}  // namespace crowd
