// The Simulator's choice of exits (crowd/navigation.hpp, ExitChoice and ExitHours): routes to
// every open exit of each deciding agent from one planner call (one goal field per exit), then
// crowd/exit_choice.hpp's choice, and the new route for each agent that changes its exit.
#include <cmath>
#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include <crowd/exit_choice.hpp>
#include <crowd/kernels/agent_columns.hpp>
#include <crowd/simulator.hpp>

#include "nav/navigator.hpp"
#include "sim/planar_world.hpp"
#include "sim/simulator_core.hpp"

namespace crowd {

void Simulator::chooseExits() {
  Navigator& nav = *world_->navigator;
  const NavigationOptions& options = nav.options();
  std::vector<Navigator::Agent>& agents = nav.agents();

  // Exits numbered in the order first met, by position (crowds share their exit points).
  std::map<std::pair<float, float>, std::int32_t> numbers;
  const auto numberOf = [&](Vec2 p) {
    return numbers.try_emplace({p.x, p.y}, static_cast<std::int32_t>(numbers.size())).first->second;
  };

  // Who decides: agents with a choice of exits, or whose exits keep hours. One request per open
  // exit of each; `first[a]` is deciding agent a's first request.
  std::vector<std::uint32_t> deciding;
  std::vector<std::size_t> first;
  std::vector<RouteRequest> requests;
  std::vector<std::int32_t> exitOf;     // Per request: the exit's number.
  std::vector<std::int32_t> indexOf;    // Per request: the point's index in the agent's goal set.
  std::vector<std::int32_t> currentOf;  // Per deciding agent: its exit's number, or -1.
  std::vector<float> speedOf;
  for (std::uint32_t slot = 0; slot < agents.size(); ++slot) {
    Navigator::Agent& agent = agents[slot];
    if (agent.goalSet < 0 || !contains(agent.id)) continue;
    const std::span<const Vec2> goals = nav.goalSet(agent.goalSet);
    if (goals.size() < 2 && !nav.keepsHours(agent.goalSet)) continue;
    const std::size_t d = denseOf(agent.id);
    if ((core_->agents.flags[d] & kArrived) != 0) continue;
    // Its exit: the one recorded when routed, else the point of its set its goal is nearest to.
    std::int32_t current = agent.exit;
    if (current < 0) {
      if (const std::optional<Vec2> goal = this->goal(agent.id)) {
        float nearest = INFINITY;
        for (std::size_t k = 0; k < goals.size(); ++k) {
          const float distance = length(goals[k] - *goal);
          if (distance < nearest) {
            nearest = distance;
            current = static_cast<std::int32_t>(k);
          }
        }
      }
    }
    deciding.push_back(slot);
    first.push_back(requests.size());
    currentOf.push_back(current >= 0 ? numberOf(goals[static_cast<std::size_t>(current)]) : -1);
    const AgentParams& params = this->params(agent.id);
    speedOf.push_back(params.prefSpeed > 0.0f ? params.prefSpeed : std::max(params.maxSpeed, 1e-3f));
    for (std::size_t k = 0; k < goals.size(); ++k) {
      const std::int32_t number = numberOf(goals[k]);  // Closed exits are numbered too.
      if (!nav.isOpen(goals[k])) continue;
      RouteRequest request;
      request.start = core_->agents.position[d];
      request.goals = {goals[k]};
      request.radius = options.radius.value_or(core_->profiles[core_->agents.profile[d]].radius);
      requests.push_back(std::move(request));
      exitOf.push_back(number);
      indexOf.push_back(static_cast<std::int32_t>(k));
    }
  }
  first.push_back(requests.size());
  if (deciding.empty()) return;

  const RouteSet routes = nav.planner().plan(requests, core_->config.threads);
  std::vector<ExitOptions> choices(deciding.size());
  for (std::size_t a = 0; a < deciding.size(); ++a) {
    const std::size_t begin = first[a], count = first[a + 1] - first[a];
    choices[a].current = currentOf[a];
    choices[a].speed = speedOf[a];
    choices[a].exits = std::span<const std::int32_t>(exitOf).subspan(begin, count);
    choices[a].lengths = std::span<const float>(routes.lengths).subspan(begin, count);
  }
  const std::vector<std::int32_t> chosen = pickExits(choices, numbers.size(), options.exitChoice);

  for (std::size_t a = 0; a < deciding.size(); ++a) {
    if (chosen[a] < 0 || chosen[a] == currentOf[a]) continue;
    for (std::size_t r = first[a]; r < first[a + 1]; ++r) {
      if (exitOf[r] != chosen[a]) continue;
      Navigator::Agent& agent = agents[deciding[a]];
      takeRoute(agent.id, routes.route(r));
      agent.exit = indexOf[r];
      nav.routed(deciding[a], core_->stepCount, false);
      ++nav.stats().exitChanges;
      break;
    }
  }
}

}  // namespace crowd
