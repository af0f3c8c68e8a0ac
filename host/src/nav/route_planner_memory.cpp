// Route planning's memory (RouteMemory in crowd/route_planner.hpp): the estimate, what a
// planner holds between calls, and the thread count that keeps the searches within the budget.
#include <algorithm>
#include <string>

#include <crowd/memory_budget.hpp>
#include <crowd/route_planner.hpp>

#include "nav/route_planner_state.hpp"

namespace crowd {

std::string RouteMemory::describe(int width, int height) const {
  return formatBytes(static_cast<double>(bytes())) + " for a " + std::to_string(width) + " x " +
         std::to_string(height) + " map: " + std::to_string(radii) + " clearance map" +
         (radii == 1 ? "" : "s") + " (one per agent radius), " + std::to_string(graphs) + " search graph" +
         (graphs == 1 ? "" : "s") + " (one per radius searched, " + std::to_string(kGraphBytesPerCell) +
         " byte a cell), " + std::to_string(searches) + " A* search" + (searches == 1 ? "" : "es") +
         " (one per thread, shared by every radius, " + std::to_string(kSearchBytesPerCell) +
         " bytes a cell), " + std::to_string(fields) + " goal field" + (fields == 1 ? "" : "s");
}

std::uint64_t RoutePlanner::graphsWith(std::span<const std::size_t> searched) const {
  std::uint64_t held = 0;
  for (std::size_t k = 0; k < graphs_.size(); ++k) {
    if (graphs_[k] || std::find(searched.begin(), searched.end(), k) != searched.end()) ++held;
  }
  // Radii not added yet (searched holds each index once).
  for (const std::size_t k : searched) held += k >= graphs_.size() ? 1 : 0;
  return held;
}

std::uint64_t RoutePlanner::keptWorkspaces() const {
  return static_cast<std::uint64_t>(
      std::count_if(workspaces_.begin(), workspaces_.end(),
                    [](const std::unique_ptr<AstarWorkspace>& workspace) { return workspace != nullptr; }));
}

RouteMemory RoutePlanner::heldMemory() const {
  RouteMemory memory;
  memory.cells = map_.cellCount();
  memory.radii = radii_.size();
  memory.graphs = graphsWith({});
  memory.searches = keptWorkspaces();
  return memory;
}

namespace routing {

int searchThreadsWithin(RouteMemory memory, std::uint64_t kept, bool searching, int wanted,
                        const GridMap& map) {
  const std::uint64_t budget = memoryBudget();
  if (budget == 0) return wanted;
  // Fewer threads hold fewer workspaces; the routes are the same on any count. The graphs are
  // per radius: the thread count does not change them.
  for (int threads = wanted; threads >= 1; --threads) {
    memory.searches = searching ? std::max(kept, static_cast<std::uint64_t>(threads)) : kept;
    if (memory.bytes() <= budget) return threads;
  }
  throw MemoryBudgetError("planning routes needs about " + memory.describe(map.width(), map.height()) +
                          ", more than the memory budget of " + formatBytes(static_cast<double>(budget)) +
                          " (" + memoryBudgetSource() + "); fewer agent radii or a smaller map would fit");
}

}  // namespace routing
}  // namespace crowd
