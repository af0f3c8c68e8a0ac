// Route planning's last phase (see route_planner.cpp): each agent's chain of waypoint cells,
// packed into one CSR array of points, and the warnings.
#include <algorithm>
#include <string>

#include "nav/route_planner_state.hpp"

namespace crowd::routing {
namespace {

// "12 agents start" / "1 agent starts".
std::string agentsDo(std::int64_t count, const char* singularVerb, const char* pluralVerb) {
  return std::to_string(count) + (count == 1 ? " agent " : " agents ") +
         (count == 1 ? singularVerb : pluralVerb);
}

// The chain of waypoint cells of agent i's route (empty when it has none) and, with `length`,
// its grid length in cells. From a field, the chain follows the anchors (filling them on first
// use).
void findChain(PlanState& s, std::size_t i, std::vector<std::uint32_t>& pending,
               std::vector<std::uint32_t>& chain, double* length) {
  chain.clear();
  const Group& group = s.groups[static_cast<std::size_t>(s.agentGroup[i])];
  if (group.field < 0) {
    const auto slot = static_cast<std::size_t>(
        std::lower_bound(s.astarAgents.begin(), s.astarAgents.end(), static_cast<std::uint32_t>(i)) -
        s.astarAgents.begin());
    const std::span<const std::uint32_t> path = s.paths[slot / kAstarBlock].path(slot % kAstarBlock);
    chain.assign(path.begin(), path.end());
    if (length != nullptr) *length = s.astarLength[slot];
    return;
  }
  SharedField& shared = s.fields[static_cast<std::size_t>(group.field)];
  std::uint32_t c = s.startCell[i];
  if (length != nullptr) *length = shared.cells[c].distance;
  if (shared.field.direction(c) == GoalField::kUnreachable) return;
  chain.push_back(c);
  if (s.options.smooth) {
    const ClearanceMap& clearance = s.clearanceOf(i);
    // A goal cell is its own anchor.
    while (true) {
      std::uint32_t next = knownAnchor(shared, c);
      if (next == kNoCell) next = anchorOf(shared, clearance, c, pending);
      if (next == c) break;
      c = next;
      chain.push_back(c);
    }
  } else {
    for (std::uint8_t move; (move = shared.field.direction(c)) != GoalField::kAtGoal;) {
      c = stepCell(c, move, s.map.width());
      chain.push_back(c);
    }
  }
}

// Calls visit(agent, pending, chain) for every agent in `order`, in fixed blocks of kRouteBlock
// spread over the threads, each thread with its own scratch: the same blocks for any thread count.
template <class Visit>
void forEachRouteBlock(const PlanState& s, const std::vector<std::uint32_t>& order, Visit&& visit) {
  const std::size_t n = order.size();
  const std::size_t blocks = (n + kRouteBlock - 1) / kRouteBlock;
  RegionErrors errors;
#pragma omp parallel num_threads(s.threads)
  {
    std::vector<std::uint32_t> pending;
    std::vector<std::uint32_t> chain;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(blocks); ++b) {
      errors.guard([&] {
        const std::size_t first = static_cast<std::size_t>(b) * kRouteBlock;
        for (std::size_t k = first; k < std::min(first + kRouteBlock, n); ++k)
          visit(order[k], pending, chain);
      });
    }
  }
  errors.rethrow();
}

}  // namespace

// Phase 5b: per fixed block of agents, each route's chain is found and its points counted;
// once the offsets are known, it is found again (from filled anchors: a few steps each) and
// written in place.
void writeRoutes(PlanState& s, RouteSet& out) {
  const std::size_t n = s.size();
  // Agents are visited group by group (a counting sort, stable): one field's anchors at a time
  // stay in the core's cache. (Sorting by start cell too, so that routes share more of their
  // anchors, is slower: the agents' own arrays and the output are then visited at random.)
  std::vector<std::uint32_t> order(n);
  std::vector<std::size_t> groupStart(s.groups.size() + 2, 0);
  for (std::size_t i = 0; i < n; ++i) ++groupStart[static_cast<std::size_t>(s.agentGroup[i] + 2)];
  for (std::size_t g = 1; g < groupStart.size(); ++g) groupStart[g] += groupStart[g - 1];
  for (std::size_t i = 0; i < n; ++i) {
    order[groupStart[static_cast<std::size_t>(s.agentGroup[i] + 1)]++] = static_cast<std::uint32_t>(i);
  }

  std::vector<std::uint8_t> shapes(n, 0);
  const double cellSize = s.map.placement().cellSize;
  // Pass 1: each route's chain, shape and point count.
  forEachRouteBlock(
      s, order, [&](std::size_t i, std::vector<std::uint32_t>& pending, std::vector<std::uint32_t>& chain) {
        std::uint8_t& status = out.status[i];
        std::size_t pointCount = 1;  // Unreachable: the agent stays at its start.
        if ((status & route_status::kUnreachable) == 0) {
          double length = -1.0;
          findChain(s, i, pending, chain, &length);
          if (chain.empty()) {
            status |= route_status::kUnreachable;
          } else {
            const auto goals = static_cast<std::size_t>(s.goalBegin[i]);
            std::size_t goal = 0;
            while (s.goalCell[goals + goal] != chain.back()) ++goal;
            shapes[i] = routeShape(
                s.clearanceOf(i), s.requests[i].start, (status & route_status::kStartMoved) == 0, chain,
                s.requests[i].goals[goal], s.goalInWall[goals + goal] == 0, s.options.smooth);
            pointCount = routePointCount(chain.size(), shapes[i]);
            out.lengths[i] = static_cast<float>(length * cellSize);
            out.goalIndex[i] = static_cast<std::int32_t>(goal);
          }
        }
        out.offsets[i + 1] = static_cast<std::int64_t>(pointCount);
      });
  for (std::size_t i = 0; i < n; ++i) out.offsets[i + 1] += out.offsets[i];
  out.points.resize(static_cast<std::size_t>(out.offsets[n]));
  // Pass 2: the points, written in place.
  forEachRouteBlock(
      s, order, [&](std::size_t i, std::vector<std::uint32_t>& pending, std::vector<std::uint32_t>& chain) {
        Vec2* at = out.points.data() + out.offsets[i];
        if ((out.status[i] & route_status::kUnreachable) != 0) {
          *at = s.requests[i].start;
          return;
        }
        findChain(s, i, pending, chain, nullptr);
        writeRoute(s.map, s.requests[i].start, chain,
                   s.requests[i].goals[static_cast<std::size_t>(out.goalIndex[i])], shapes[i], at);
      });
}

void addWarnings(const PlanState& s, RouteSet& out) {
  struct Tally {
    std::int64_t count = 0;
    std::size_t first = 0;
    void add(std::size_t agent) {
      if (count++ == 0) first = agent;
    }
  };
  Tally bad, startWall, startOutside, goalWall, goalOutside, startCramped, goalCramped, unreachable;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::uint8_t status = out.status[i];
    if ((status & route_status::kBadRequest) != 0) {
      bad.add(i);
      continue;
    }
    if ((s.notes[i] & kStartOutside) != 0) {
      startOutside.add(i);
    } else if ((status & route_status::kStartInWall) != 0) {
      startWall.add(i);
    }
    if ((s.notes[i] & kGoalOutside) != 0) goalOutside.add(i);
    if ((status & route_status::kGoalInWall) != 0 && (s.notes[i] & kGoalOutside) == 0) goalWall.add(i);
    if ((s.notes[i] & kStartCramped) != 0) startCramped.add(i);
    if ((s.notes[i] & kGoalCramped) != 0) goalCramped.add(i);
    if ((status & route_status::kUnreachable) != 0) unreachable.add(i);
  }
  const auto warn = [&](const Tally& t, const std::string& what, const char* outcome) {
    if (t.count > 0) {
      out.warnings.push_back(what + " (agent " + std::to_string(t.first) + (t.count > 1 ? " first" : "") +
                             "); " + outcome);
    }
  };
  const char* moved = "moved to the nearest free cell";
  warn(bad,
       agentsDo(bad.count, "has", "have") +
           " a start, goal or radius that is not finite, a negative radius or no goal",
       "left in place");
  warn(startWall, agentsDo(startWall.count, "starts", "start") + " inside a wall", moved);
  warn(startOutside, agentsDo(startOutside.count, "starts", "start") + " outside the map", moved);
  warn(goalWall, agentsDo(goalWall.count, "has", "have") + " a goal inside a wall", moved);
  warn(goalOutside, agentsDo(goalOutside.count, "has", "have") + " a goal outside the map", moved);
  const char* cramped =
      " in a spot too narrow for the agent, with no free cell in straight sight (moving it to the nearest "
      "would take the route through a wall)";
  warn(startCramped, agentsDo(startCramped.count, "starts", "start") + cramped, "left in place");
  warn(goalCramped, agentsDo(goalCramped.count, "has", "have") + " a goal" + cramped,
       "that goal is not used");
  warn(unreachable, agentsDo(unreachable.count, "cannot", "cannot") + " reach a goal", "left in place");
}

}  // namespace crowd::routing
