// Route planning's memory (RouteMemory in crowd/route_planner.hpp): the estimate, and the
// thread count that keeps the searches within the memory budget.
#include <algorithm>
#include <string>

#include <crowd/memory_budget.hpp>
#include <crowd/route_planner.hpp>

#include "nav/route_planner_state.hpp"

namespace crowd {

std::string RouteMemory::describe(int width, int height) const {
  return formatBytes(static_cast<double>(bytes())) + " for a " + std::to_string(width) + " x " +
         std::to_string(height) + " map: " + std::to_string(radii) + " clearance map" +
         (radii == 1 ? "" : "s") + " (one per agent radius), " + std::to_string(searches) + " A* search" +
         (searches == 1 ? "" : "es") + " (one per radius and thread, " + std::to_string(kSearchBytesPerCell) +
         " bytes a cell), " + std::to_string(fields) + " goal field" + (fields == 1 ? "" : "s");
}

namespace routing {

int searchThreadsWithin(RouteMemory memory, const std::vector<std::uint64_t>& kept,
                        std::span<const std::size_t> searched, int wanted, const GridMap& map) {
  const std::uint64_t budget = memoryBudget();
  const auto searchesWith = [&](int threads) {
    std::vector<std::uint64_t> held = kept;
    for (const std::size_t k : searched) {
      if (held.size() <= k) held.resize(k + 1, 0);
      held[k] = std::max(held[k], static_cast<std::uint64_t>(threads));
    }
    std::uint64_t total = 0;
    for (const std::uint64_t count : held) total += count;
    return total;
  };
  if (budget == 0) return wanted;
  // Fewer threads hold fewer searches; the routes are the same on any count.
  for (int threads = wanted; threads >= 1; --threads) {
    memory.searches = searchesWith(threads);
    if (memory.bytes() <= budget) return threads;
  }
  throw MemoryBudgetError("planning routes needs about " + memory.describe(map.width(), map.height()) +
                          ", more than the memory budget of " + formatBytes(static_cast<double>(budget)) +
                          " (" + memoryBudgetSource() + "); fewer agent radii or a smaller map would fit");
}

}  // namespace routing
}  // namespace crowd
