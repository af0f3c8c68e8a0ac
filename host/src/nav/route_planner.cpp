// Route planning for a crowd (see route_planner.hpp), as a pipeline:
//   1. radius classes: one ClearanceMap per distinct radius (cached by the planner);
//   2. snap: starts and goals onto free planning cells; group agents by (class, goal cells);
//   3. fields: one GoalField per group of sharedFieldThreshold agents or more;
//   4. A*: one search per agent (per exit, for a set of exits) of the smaller groups;
//   5. smoothing: waypoints by clear-line checks, packed into one CSR array.
// Every phase writes per-agent results only, and blocks of agents are fixed in size, so the
// output is the same on any number of threads.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <crowd/route_planner.hpp>
#include <crowd/stop_request.hpp>
#include <crowd/work_progress.hpp>

#include "nav/route_planner_state.hpp"

namespace crowd {
namespace {

using namespace routing;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// Where a start or goal is planned from: its own cell when that is free for planning, else a
// free one nearby (kNoCell when there is none). The route's first (or last) leg joins the point
// to that cell's centre unchecked at the agent's clearance (the point has none), so from a
// free map cell only a cell in straight sight will do: the nearest by distance may lie beyond
// a wall. A point inside a wall or outside the map sees nothing and is warned about anyway: it
// goes to the nearest free cell.
SnappedPoint snapPoint(const ClearanceMap& clearance, Vec2 p) {
  const GridMap& map = clearance.map();
  SnappedPoint snapped;
  const std::optional<GridCell> own = map.cellAt(p);
  if (own && clearance.free(*own)) {
    snapped.cell = static_cast<std::uint32_t>(map.index(*own));
    return snapped;
  }
  snapped.moved = true;
  snapped.outside = !own;
  snapped.inWall = own && !map.passable(*own);
  const bool inOpen = own && !snapped.inWall;
  const std::optional<GridCell> nearest = inOpen ? clearance.nearestFreeInSight(p) : clearance.nearestFree(p);
  if (nearest) {
    snapped.cell = static_cast<std::uint32_t>(map.index(*nearest));
  } else {
    snapped.cramped = inOpen;
  }
  return snapped;
}

// Radius class `radiusClass`'s planning map as A* reads it, built on first use and kept by the
// planner. Built outside parallel regions only: runAstar makes every graph its threads read.
const GridGraph& graphOf(PlanState& s, int radiusClass) {
  std::unique_ptr<GridGraph>& graph = *s.graphs[static_cast<std::size_t>(radiusClass)];
  if (!graph) {
    const GridMap& planning = s.classes[static_cast<std::size_t>(radiusClass)]->planning();
    graph = std::make_unique<GridGraph>(planning, GridMoveRules{true, s.options.cornerCutting});
  }
  return *graph;
}

// Thread `thread`'s A* workspace, for any radius class, built on first use and kept by the
// planner. The pool must hold an entry for the thread (planWithin sizes it).
AstarWorkspace& workspaceOf(PlanState& s, std::size_t thread) {
  std::unique_ptr<AstarWorkspace>& workspace = (*s.workspaces)[thread];
  if (!workspace) workspace = std::make_unique<AstarWorkspace>(s.map.cellCount());
  return *workspace;
}

// Octile distance between two cells, in cells: the length of a route on open ground.
double octile(GridCell a, GridCell b) {
  const double dx = std::abs(a.x - b.x);
  const double dy = std::abs(a.y - b.y);
  return std::max(dx, dy) + (kSqrt2 - 1.0) * std::min(dx, dy);
}

// What a goal field costs per free planning cell, against one A* expansion: about 1 on
// maze512-1-0, 2 on open 1024 x 1024 and 4096 x 4096 maps (a field's Dijkstra, and its arrays
// over every cell of the map).
constexpr double kFieldCellCost = 2.0;

// Whether one goal field is cheaper than the group's A* searches. A field costs the whole map;
// a search costs the cells it expands, about its octile distance on open ground and many times
// that in a maze. The group's first agent is searched to measure the expansions per unit of
// octile distance on this map, and the others are assumed alike: a fixed agent and a search
// whose result depends on nothing else, so the choice is the same for any thread count.
bool fieldPays(PlanState& s, const Group& group, std::size_t firstAgent, double groupDistance) {
  const ClearanceMap& clearance = *s.classes[static_cast<std::size_t>(group.radiusClass)];
  const auto freeCells = static_cast<double>(clearance.freeCount());
  // A search expands at least the cells of its route, one per sqrt(2) of octile distance or
  // more: a group whose distances alone outweigh the field needs no measuring (a million agents
  // to 224 exits measured for minutes, each search crossing the whole floor).
  if (groupDistance / kSqrt2 > kFieldCellCost * freeCells) return true;
  const GridGraph& graph = graphOf(s, group.radiusClass);
  AstarWorkspace& search = workspaceOf(s, 0);
  const GridCell start = s.map.cellOf(s.startCell[firstAgent]);
  double expanded = 0.0;
  double distance = 0.0;
  for (const std::uint32_t goal : group.goals) {
    expanded +=
        static_cast<double>(search.findPath(graph, s.options.heuristic, start, s.map.cellOf(goal)).expanded) +
        1.0;
    distance += octile(start, s.map.cellOf(goal)) + 1.0;
  }
  return expanded / distance * groupDistance > kFieldCellCost * freeCells;
}

// Phase 2a: each agent's start and goals onto free planning cells, with status bits.
void snapAgents(PlanState& s, RouteSet& out) {
  const std::size_t n = s.size();
  s.goalBegin.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    s.goalBegin[i + 1] = s.goalBegin[i] + static_cast<std::int64_t>(s.requests[i].goals.size());
  }
  s.goalCell.assign(static_cast<std::size_t>(s.goalBegin[n]), kNoCell);
  s.goalInWall.assign(static_cast<std::size_t>(s.goalBegin[n]), 0);
  s.startCell.assign(n, kNoCell);
  s.notes.assign(n, 0);
  // Nothing here allocates: no exception to carry out of the region.
#pragma omp parallel for schedule(static) num_threads(s.threads)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
    const auto a = static_cast<std::size_t>(i);
    const RouteRequest& request = s.requests[a];
    std::uint8_t& status = out.status[a];
    bool bad = s.agentClass[a] < 0 || !isFinite(request.start) || request.goals.empty();
    for (const Vec2 goal : request.goals) bad = bad || !isFinite(goal);
    if (bad) {
      status = route_status::kUnreachable | route_status::kBadRequest;
      continue;
    }
    const ClearanceMap& clearance = *s.classes[static_cast<std::size_t>(s.agentClass[a])];
    const SnappedPoint start = snapPoint(clearance, request.start);
    s.startCell[a] = start.cell;
    if (start.moved) status |= route_status::kStartMoved;
    if (start.inWall || start.outside) status |= route_status::kStartInWall;
    if (start.outside) s.notes[a] |= kStartOutside;
    if (start.cramped) {
      status |= route_status::kCramped;
      s.notes[a] |= kStartCramped;
    }
    bool anyGoal = false;
    for (std::size_t k = 0; k < request.goals.size(); ++k) {
      const SnappedPoint goal = snapPoint(clearance, request.goals[k]);
      const auto slot = static_cast<std::size_t>(s.goalBegin[a]) + k;
      s.goalCell[slot] = goal.cell;
      anyGoal = anyGoal || goal.cell != kNoCell;
      if (goal.moved) status |= route_status::kGoalMoved;
      if (goal.inWall || goal.outside) {
        status |= route_status::kGoalInWall;
        s.goalInWall[slot] = 1;
      }
      if (goal.outside) s.notes[a] |= kGoalOutside;
      if (goal.cramped) {
        status |= route_status::kCramped;
        s.notes[a] |= kGoalCramped;
      }
    }
    if (start.cell == kNoCell || !anyGoal) status |= route_status::kUnreachable;
  }
}

// Phase 2b: groups by (radius class, goal cells), in order of first appearance; a field for
// each group of sharedFieldThreshold agents or more, A* for the agents of the others.
void groupAgents(PlanState& s, const RouteSet& out) {
  const std::size_t n = s.size();
  s.agentGroup.assign(n, -1);
  std::unordered_map<GoalSetKey, std::int32_t, GoalSetHash> groupOf;
  std::vector<std::size_t> firstAgent;  // Per group.
  std::vector<double> distance;         // Per group: octile distances to each goal, summed.
  GoalSetKey key;
  for (std::size_t i = 0; i < n; ++i) {
    if ((out.status[i] & route_status::kUnreachable) != 0) continue;
    key.radiusClass = s.agentClass[i];
    key.cells.clear();
    for (auto slot = static_cast<std::size_t>(s.goalBegin[i]);
         slot < static_cast<std::size_t>(s.goalBegin[i + 1]); ++slot) {
      if (s.goalCell[slot] != kNoCell) key.cells.push_back(s.goalCell[slot]);
    }
    std::sort(key.cells.begin(), key.cells.end());
    key.cells.erase(std::unique(key.cells.begin(), key.cells.end()), key.cells.end());
    const auto [entry, added] = groupOf.try_emplace(key, static_cast<std::int32_t>(s.groups.size()));
    if (added) {
      s.groups.push_back(Group{key.radiusClass, key.cells, 0, -1});
      firstAgent.push_back(i);
      distance.push_back(0.0);
    }
    s.agentGroup[i] = entry->second;
    ++s.groups[static_cast<std::size_t>(entry->second)].agents;
    const GridCell start = s.map.cellOf(s.startCell[i]);
    for (const std::uint32_t goal : key.cells) {
      distance[static_cast<std::size_t>(entry->second)] += octile(start, s.map.cellOf(goal)) + 1.0;
    }
  }
  int fields = 0;
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    Group& group = s.groups[g];
    if (group.agents < s.options.sharedFieldThreshold) continue;
    if (!s.options.sharedFieldByCost || fieldPays(s, group, firstAgent[g], distance[g])) {
      group.field = fields++;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (s.agentGroup[i] >= 0 && s.groups[static_cast<std::size_t>(s.agentGroup[i])].field < 0) {
      s.astarAgents.push_back(static_cast<std::uint32_t>(i));
    }
  }
}

// One group's goal field, with its waypoint anchors.
void buildField(PlanState& s, const Group& group, const GridMoveRules& rules) {
  const ClearanceMap& clearance = *s.classes[static_cast<std::size_t>(group.radiusClass)];
  std::vector<GridCell> goals;
  for (const std::uint32_t cell : group.goals) goals.push_back(clearance.map().cellOf(cell));
  SharedField& shared = s.fields[static_cast<std::size_t>(group.field)];
  shared.field = GoalField(clearance.planning(), goals, rules);
  const std::span<const float> distances = shared.field.distances();
  shared.cells.resize(distances.size());
  for (std::size_t c = 0; c < distances.size(); ++c) {
    shared.cells[c] = routing::FieldCell{kNoCell, distances[c]};
  }
}

// Phase 3: the goal fields, several at once.
void buildFields(PlanState& s) {
  std::vector<const Group*> owners;
  for (const Group& group : s.groups) {
    if (group.field >= 0) owners.push_back(&group);
  }
  s.fields.resize(owners.size());
  const GridMoveRules rules{true, s.options.cornerCutting};
  RegionErrors errors;
#pragma omp parallel for schedule(dynamic, 1) num_threads(s.threads)
  for (std::int64_t f = 0; f < static_cast<std::int64_t>(owners.size()); ++f) {
    errors.guard([&] { buildField(s, *owners[static_cast<std::size_t>(f)], rules); });
  }
  errors.rethrow();
}

// Phase 4: A* per agent of the groups without a field, to each of its goal cells, keeping the
// shortest (the first of equal ones). Returns the number of searches.
std::int64_t runAstar(PlanState& s) {
  const std::size_t blocks = (s.astarAgents.size() + kAstarBlock - 1) / kAstarBlock;
  s.paths.assign(blocks, PathBlock{});
  s.astarLength.assign(s.astarAgents.size(), -1.0);
  std::int64_t searches = 0;
  // Every graph and workspace a thread may take is made here, outside the region: the large
  // allocations fail (if they do) where the error can be said.
  const int threads = s.searchThreads;  // At most one per block (plan()).
  bool searching = false;
  for (const Group& group : s.groups) {
    if (group.field >= 0 || group.agents == 0) continue;
    (void)graphOf(s, group.radiusClass);
    searching = true;
  }
  for (int t = 0; searching && t < threads; ++t) (void)workspaceOf(s, static_cast<std::size_t>(t));
  RegionErrors errors;
  // Agents routed so far, for the progress reports (thread 0 makes them, between its blocks).
  std::atomic<std::uint64_t> routed{0};
  const auto total = static_cast<std::uint64_t>(s.astarAgents.size());
#pragma omp parallel num_threads(threads) reduction(+ : searches)
  {
    // Which thread runs which search changes nothing: a query's result depends on the query alone.
    const auto thread = static_cast<std::size_t>(omp_get_thread_num());
    std::vector<GridCell> path;
    std::vector<GridCell> bestPath;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(blocks); ++b) {
      if (stopRequested() != 0) continue;  // No exception may leave the loop.
      errors.guard([&] {
        PathBlock& block = s.paths[static_cast<std::size_t>(b)];
        const std::size_t first = static_cast<std::size_t>(b) * kAstarBlock;
        for (std::size_t slot = first; slot < std::min(first + kAstarBlock, s.astarAgents.size()); ++slot) {
          const std::size_t agent = s.astarAgents[slot];
          const Group& group = s.groups[static_cast<std::size_t>(s.agentGroup[agent])];
          const GridGraph& graph = graphOf(s, group.radiusClass);
          AstarWorkspace& search = workspaceOf(s, thread);
          const GridCell start = s.map.cellOf(s.startCell[agent]);
          double best = -1.0;
          bestPath.clear();
          for (const std::uint32_t goal : group.goals) {
            const GridPathResult result =
                search.findPath(graph, s.options.heuristic, start, s.map.cellOf(goal), &path);
            ++searches;
            if (result.found() && (best < 0.0 || result.length < best)) {
              best = result.length;
              std::swap(path, bestPath);
            }
          }
          s.astarLength[slot] = best;
          for (const GridCell c : bestPath) block.cells.push_back(static_cast<std::uint32_t>(s.map.index(c)));
          block.ends.push_back(block.cells.size());
        }
        const std::uint64_t done =
            routed.fetch_add(block.ends.size(), std::memory_order_relaxed) + block.ends.size();
        if (thread == 0) reportProgress("planning routes", done, total);
      });
    }
  }
  errors.rethrow();
  throwIfStopRequested("while planning routes");
  reportProgress("planning routes", total, total);
  return searches;
}

// Phase 5a: the A* paths become chains of waypoints (when smoothing).
void smoothAstarPaths(PlanState& s) {
  if (!s.options.smooth) return;
  RegionErrors errors;
#pragma omp parallel num_threads(s.threads)
  {
    std::vector<std::uint32_t> chain;
    PathBlock chains;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(s.paths.size()); ++b) {
      errors.guard([&] {
        PathBlock& block = s.paths[static_cast<std::size_t>(b)];
        chains.cells.clear();
        chains.ends.clear();
        for (std::size_t k = 0; k < block.ends.size(); ++k) {
          chain.clear();
          const std::size_t agent = s.astarAgents[static_cast<std::size_t>(b) * kAstarBlock + k];
          if (!block.path(k).empty()) smoothCellPath(s.clearanceOf(agent), block.path(k), chain);
          chains.cells.insert(chains.cells.end(), chain.begin(), chain.end());
          chains.ends.push_back(chains.cells.size());
        }
        std::swap(block, chains);
      });
    }
  }
  errors.rethrow();
}

}  // namespace

RoutePlanner::RoutePlanner(const GridMap& map, const RouteOptions& options) : map_(map), options_(options) {
  if (map.width() == 0 || map.height() == 0) {
    throw std::invalid_argument("routes need a map of at least one cell");
  }
  if (options.sharedFieldThreshold < 1) {
    throw std::invalid_argument("sharedFieldThreshold must be at least 1");
  }
  if (!std::isfinite(options.clearanceMargin) || options.clearanceMargin < 0.0f) {
    throw std::invalid_argument("clearanceMargin must be a finite distance >= 0");
  }
}

std::size_t RoutePlanner::radiusIndex(float radius) {
  if (!std::isfinite(radius) || radius < 0.0f) {
    throw std::invalid_argument("an agent radius is a finite distance >= 0, got " + std::to_string(radius));
  }
  for (std::size_t k = 0; k < radii_.size(); ++k) {
    if (radii_[k] == radius) return k;
  }
  clearance_.push_back(
      std::make_unique<ClearanceMap>(map_, radius + options_.clearanceMargin, options_.wallAtMapEdge));
  radii_.push_back(radius);
  graphs_.emplace_back();
  return radii_.size() - 1;
}

const ClearanceMap& RoutePlanner::clearanceFor(float radius) {
  return *clearance_[radiusIndex(radius)];
}

RouteSet RoutePlanner::plan(std::span<const RouteRequest> requests, int threads) {
  const std::string where = std::to_string(requests.size()) + " agents on a " + std::to_string(map_.width()) +
                            " x " + std::to_string(map_.height()) + " map";
  try {
    return planWithin(requests, threads);
  } catch (const std::bad_alloc&) {
    // Past the estimate (RouteMemory): said, not an abort.
    throw RouteMemoryError("ran out of memory planning routes for " + where + " (" + phase_ + ")");
  }
}

RouteSet RoutePlanner::planWithin(std::span<const RouteRequest> requests, int threads) {
  const Clock::time_point begin = Clock::now();
  const std::size_t n = requests.size();
  phase_ = "the routes' arrays";
  RouteSet out;
  out.status.assign(n, route_status::kOk);
  out.lengths.assign(n, -1.0f);
  out.goalIndex.assign(n, -1);
  out.offsets.assign(n + 1, 0);
  PlanState s(requests, map_, options_, threads > 0 ? threads : omp_get_max_threads());

  // 1. Radius classes, a clearance map each (inflated here the first time a radius is seen),
  // once the memory they and the searches take is known to fit.
  Clock::time_point phase = Clock::now();
  s.agentClass.assign(n, -1);
  std::vector<float> classRadius;
  for (std::size_t i = 0; i < n; ++i) {
    const float radius = requests[i].radius;
    if (!std::isfinite(radius) || radius < 0.0f) continue;
    const auto known = std::find(classRadius.begin(), classRadius.end(), radius);
    s.agentClass[i] = static_cast<int>(known - classRadius.begin());
    if (known == classRadius.end()) classRadius.push_back(radius);
  }
  RouteMemory memory;
  memory.cells = map_.cellCount();
  memory.radii = radii_.size();
  // Each class is searched at least once (its first agent, or its field's cost test): a graph
  // each, and one workspace.
  std::vector<std::size_t> searched;
  for (const float radius : classRadius) {
    const auto known = std::find(radii_.begin(), radii_.end(), radius);
    searched.push_back(known != radii_.end() ? static_cast<std::size_t>(known - radii_.begin())
                                             : memory.radii++);
  }
  memory.graphs = graphsWith(searched);
  (void)routing::searchThreadsWithin(memory, keptWorkspaces(), !searched.empty(), 1, map_);
  phase_ = "the clearance maps";
  std::vector<std::size_t> classIndex;  // The planner's index of each class's radius.
  for (const float radius : classRadius) classIndex.push_back(radiusIndex(radius));
  // Pointers only once every class is in: adding a radius moves graphs_.
  for (const std::size_t k : classIndex) {
    s.classes.push_back(clearance_[k].get());
    s.graphs.push_back(&graphs_[k]);
  }
  const auto threadCount = static_cast<std::size_t>(s.threads);
  if (workspaces_.size() < threadCount) workspaces_.resize(threadCount);
  s.workspaces = &workspaces_;
  out.times.inflate = secondsSince(phase);

  // 2. Starts and goals onto free cells; groups by goal set.
  phase = Clock::now();
  phase_ = "snapping starts and goals";
  snapAgents(s, out);
  groupAgents(s, out);
  out.times.snap = secondsSince(phase);

  // A graph per class with A* agents, a workspace per thread, and the fields: as many threads
  // search as the budget holds.
  searched.clear();
  for (const Group& group : s.groups) {
    const std::size_t k = classIndex[static_cast<std::size_t>(group.radiusClass)];
    if (group.field < 0 && std::find(searched.begin(), searched.end(), k) == searched.end())
      searched.push_back(k);
    memory.fields += group.field >= 0 ? 1 : 0;
  }
  memory.radii = radii_.size();
  memory.graphs = graphsWith(searched);
  // No more threads than blocks of A* agents: a thread without work holds no workspace.
  const std::size_t astarBlocks = (s.astarAgents.size() + kAstarBlock - 1) / kAstarBlock;
  const int wanted =
      static_cast<int>(std::clamp<std::size_t>(astarBlocks, 1, static_cast<std::size_t>(s.threads)));
  s.searchThreads = routing::searchThreadsWithin(memory, keptWorkspaces(), !searched.empty(), wanted, map_);
  out.threads = s.searchThreads;
  if (s.searchThreads < wanted) {
    out.threadsWarning = "routes searched on " + std::to_string(s.searchThreads) + " of " +
                         std::to_string(wanted) + " threads: each thread holds an A* search of " +
                         std::to_string(RouteMemory::kSearchBytesPerCell) +
                         " bytes a cell, shared by every agent radius, and more would pass the memory budget";
    out.warnings.push_back(out.threadsWarning);
  }

  // 3. A goal field per large group.
  phase = Clock::now();
  phase_ = "the goal fields";
  buildFields(s);
  out.fieldsBuilt = static_cast<int>(s.fields.size());
  out.times.fields = secondsSince(phase);

  // 4. A* for the rest.
  phase = Clock::now();
  phase_ = "the A* searches";
  out.astarSearches = runAstar(s);
  out.times.astar = secondsSince(phase);

  // 5. Waypoints into the CSR arrays.
  phase = Clock::now();
  phase_ = "the waypoints";
  smoothAstarPaths(s);
  writeRoutes(s, out);
  out.times.smoothing = secondsSince(phase);

  addWarnings(s, out);
  out.times.total = secondsSince(begin);
  return out;
}

RouteSet planRoutes(const GridMap& map, std::span<const RouteRequest> requests, const RouteOptions& options,
                    int threads) {
  return RoutePlanner(map, options).plan(requests, threads);
}

}  // namespace crowd
