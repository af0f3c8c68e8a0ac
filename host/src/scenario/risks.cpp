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

// A body-sized cell of either world, for counting the agents in it.
struct PileCell {
  std::int64_t x, y, z;
  bool operator==(const PileCell&) const = default;
};
struct PileCellHash {
  std::size_t operator()(const PileCell& c) const {
    const auto mix = [](std::uint64_t h, std::int64_t v) {
      return (h ^ static_cast<std::uint64_t>(v)) * 0x100000001b3ULL;
    };
    return static_cast<std::size_t>(mix(mix(mix(0xcbf29ce484222325ULL, c.x), c.y), c.z));
  }
};
std::string formatPoint(Vec2 p) {
  return formatVec2(p);
}
std::string formatPoint(Vec3 p) {
  // Piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + std::string.
  std::string text(1, '[');
  text += formatNumber(p.x);
  text += ", ";
  text += formatNumber(p.y);
  text += ", ";
  text += formatNumber(p.z);
  text += ']';
  return text;
}
PileCell pileCellOf(Vec2 p, double cell) {
  return {static_cast<std::int64_t>(std::floor(p.x / cell)),
          static_cast<std::int64_t>(std::floor(p.y / cell)), 0};
}
PileCell pileCellOf(Vec3 p, double cell) {
  return {static_cast<std::int64_t>(std::floor(p.x / cell)),
          static_cast<std::int64_t>(std::floor(p.y / cell)),
          static_cast<std::int64_t>(std::floor(p.z / cell))};
}

// The most crowded body-sized cell (square or cube): agents within about one body of each
// other. Its agents each examine the whole pile in every neighbour search, so a step costs about
// the square of its size; the warning gives that figure.
template <class World>
void addPileWarningTo(World& scenario) {
  if (scenario.agents.size() <= kPileAgents) return;
  double maxRadius = 0.0;
  for (const auto& agent : scenario.agents)
    maxRadius = std::max(maxRadius, static_cast<double>(agent.params.radius));
  const double cell = std::max(2.0 * maxRadius, 1e-3);
  std::unordered_map<PileCell, std::uint32_t, PileCellHash> counts;
  counts.reserve(scenario.agents.size());
  std::uint32_t most = 0;
  auto where = scenario.agents.front().position;
  for (const auto& agent : scenario.agents) {
    const std::uint32_t count = ++counts[pileCellOf(agent.position, cell)];
    if (count > most) {
      most = count;
      where = agent.position;
    }
  }
  if (most <= kPileAgents) return;
  char pairs[32];
  std::snprintf(pairs, sizeof pairs, "%.1e", static_cast<double>(most) * static_cast<double>(most));
  scenario.warnings.push_back(std::to_string(most) + " agents start within " + formatNumber(cell) +
                              " of each other near " + formatPoint(where) +
                              ", more than a neighbour list holds (" + std::to_string(kMaxNeighbors) +
                              "): ORCA sees only part of the pile, it spreads slowly, and each step costs "
                              "about the square of its size (" +
                              pairs + " candidate pairs a step at first)");
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

void addPileWarning(Scenario3& scenario) {
  addPileWarningTo(scenario);
}

void addRiskWarnings(Scenario& scenario) {
  addHorizonWarnings(scenario);
  addPileWarningTo(scenario);
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
