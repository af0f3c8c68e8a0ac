// What the phases of one RoutePlanner::plan() share (route_planner.cpp runs the phases up to
// smoothing, route_planner_output.cpp writes the routes and the warnings).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <vector>

#include <crowd/route_planner.hpp>

#include "nav/route_planner_waypoints.hpp"

namespace crowd::routing {

// Agents per output block and per A* work item: fixed, not per thread, so the blocks (and the
// output) are the same for any thread count; big enough that scheduling them costs nothing.
constexpr std::size_t kRouteBlock = 1024;
constexpr std::size_t kAstarBlock = 16;

// Why an agent was moved, beyond its status bits: for the wording of warnings.
enum Note : std::uint8_t { kStartOutside = 1, kGoalOutside = 2, kStartCramped = 4, kGoalCramped = 8 };

// Agents with equal keys share a goal field (or, below the threshold, just a group count).
struct GoalSetKey {
  int radiusClass = 0;
  std::vector<std::uint32_t> cells;  // Goal cell indices, sorted, without repeats.
  bool operator==(const GoalSetKey&) const = default;
};

struct GoalSetHash {
  std::size_t operator()(const GoalSetKey& key) const {
    std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(key.radiusClass);
    for (const std::uint32_t cell : key.cells) h = (h ^ cell) * 1099511628211ull;
    return static_cast<std::size_t>(h);
  }
};

struct Group {
  int radiusClass = 0;
  std::vector<std::uint32_t> goals;
  std::int64_t agents = 0;
  int field = -1;  // Index into the shared fields; -1: A* per agent.
};

// Where a start or goal is planned from: its own cell when that is free for planning, else
// the nearest free one (kNoCell when there is none).
struct SnappedPoint {
  std::uint32_t cell = kNoCell;
  bool moved = false;
  bool inWall = false;
  bool outside = false;
  bool cramped = false;  // In a free map cell, with no free planning cell in sight.
};

// Paths (then chains of waypoints) of kAstarBlock A* agents: path k is cells [ends[k - 1], ends[k]).
struct PathBlock {
  std::vector<std::uint32_t> cells;
  std::vector<std::size_t> ends;

  std::span<const std::uint32_t> path(std::size_t k) const {
    return std::span<const std::uint32_t>(cells).subspan(k == 0 ? 0 : ends[k - 1],
                                                         ends[k] - (k == 0 ? 0 : ends[k - 1]));
  }
};

// What the phases of one plan() share. Per-agent vectors are indexed by request.
struct PlanState {
  PlanState(std::span<const RouteRequest> requestList, const GridMap& planMap,
            const RouteOptions& planOptions, int threadCount)
      : requests(requestList), map(planMap), options(planOptions), threads(threadCount) {}

  std::span<const RouteRequest> requests;
  const GridMap& map;
  const RouteOptions& options;
  int threads = 1;
  int searchThreads = 1;  // Threads running A* (each holds a workspace): within the memory budget.
  std::vector<const ClearanceMap*> classes;  // Per radius class.
  // Per radius class: the planner's slot for its search graph (kept between plan() calls).
  std::vector<std::unique_ptr<GridGraph>*> graphs;
  // The planner's A* workspaces, one per thread, for every class (kept between plan() calls).
  std::vector<std::unique_ptr<AstarWorkspace>>* workspaces = nullptr;
  std::vector<int> agentClass;           // -1: a bad radius.
  std::vector<std::int64_t> goalBegin;   // Agent i's goals are slots [goalBegin[i], goalBegin[i + 1]).
  std::vector<std::uint32_t> goalCell;   // Per goal slot: its planning cell; kNoCell when none is free.
  std::vector<std::uint8_t> goalInWall;  // Per goal slot.
  std::vector<std::uint32_t> startCell;
  std::vector<std::uint8_t> notes;       // Note bits.
  std::vector<std::int32_t> agentGroup;  // -1: no route to plan (bad request, nothing free).
  std::vector<Group> groups;
  std::vector<SharedField> fields;
  std::vector<std::uint32_t> astarAgents;  // Agents of groups without a field, in order.
  std::vector<PathBlock> paths;            // Per kAstarBlock of astarAgents.
  std::vector<double> astarLength;         // Per A* agent, cells; -1 when unreachable.

  std::size_t size() const { return requests.size(); }
  const ClearanceMap& clearanceOf(std::size_t agent) const {
    return *classes[static_cast<std::size_t>(
        groups[static_cast<std::size_t>(agentGroup[agent])].radiusClass)];
  }
};

// The first exception thrown in an OpenMP region, rethrown after it: one must not leave the
// region itself (the program would terminate, as it did on running out of memory).
class RegionErrors {
 public:
  template <class Work>
  void guard(Work&& work) noexcept {
    try {
      work();
    } catch (...) {
#pragma omp critical(crowd_route_region_errors)
      if (!first_) first_ = std::current_exception();
    }
  }
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::exception_ptr first_;
};

/// The most threads, at most `wanted`, whose A* workspaces keep `memory` (its clearance maps,
/// search graphs and fields) within memoryBudget(): one workspace per thread, of which the
/// planner holds `kept` already; with `searching` false no thread searches, and only the kept
/// ones count. Throws MemoryBudgetError when one thread does not fit; `wanted` when there is no
/// budget.
int searchThreadsWithin(RouteMemory memory, std::uint64_t kept, bool searching, int wanted,
                        const GridMap& map);

/// Phase 5b: every route's chain of waypoint cells, packed into `out` (points and offsets).
void writeRoutes(PlanState& s, RouteSet& out);
/// One warning line per kind of problem, with a count and the first agent.
void addWarnings(const PlanState& s, RouteSet& out);

}  // namespace crowd::routing
