#include "nav/route_planner_waypoints.hpp"

#include <atomic>

namespace crowd::routing {

// Threads filling the same cell at once store the same number (the value is a function of the
// field alone); atomic_ref keeps that race defined, and relaxed order is enough: a thread that
// reads kNoCell just works the value out itself.
std::uint32_t anchorOf(SharedField& shared, const ClearanceMap& clearance, std::uint32_t cell,
                       std::vector<std::uint32_t>& pending) {
  const auto load = [&](std::uint32_t c) { return knownAnchor(shared, c); };
  const auto store = [&](std::uint32_t c, std::uint32_t anchor) {
    std::atomic_ref<std::uint32_t>(shared.cells[c].anchor).store(anchor, std::memory_order_relaxed);
  };
  if (const std::uint32_t known = load(cell); known != kNoCell) return known;
  const int width = shared.field.width();
  const GridMap& map = clearance.map();
  pending.clear();
  for (std::uint32_t c = cell; load(c) == kNoCell;) {
    const std::uint8_t move = shared.field.direction(c);
    if (move == GoalField::kAtGoal) {
      store(c, c);
      break;
    }
    pending.push_back(c);
    c = stepCell(c, move, width);
  }
  while (!pending.empty()) {
    const std::uint32_t c = pending.back();
    pending.pop_back();
    const std::uint32_t next = stepCell(c, shared.field.direction(c), width);
    const std::uint32_t ahead = load(next);
    const bool seesAhead = ahead == next || clearance.clearLine(map.cellOf(c), map.cellOf(ahead));
    store(c, seesAhead ? ahead : next);
  }
  return load(cell);
}

void smoothCellPath(const ClearanceMap& clearance, std::span<const std::uint32_t> path,
                    std::vector<std::uint32_t>& chain) {
  const GridMap& map = clearance.map();
  const std::size_t last = path.size() - 1;
  const auto sees = [&](std::size_t from, std::size_t to) {
    return clearance.clearLine(map.cellOf(path[from]), map.cellOf(path[to]));
  };
  chain.push_back(path[0]);
  for (std::size_t i = 0; i != last;) {
    // Cells next to each other on the path always see each other (a move between free planning
    // cells keeps the clearance). Look ahead 2, 4, 8, ... cells while they are seen, then halve
    // the gap to the first one not seen: a leg of D cells costs O(D log D) cell steps of
    // clearLine, where testing every cell of the path against the far end cost O(D^2).
    std::size_t seen = i + 1;
    std::size_t hidden = last + 1;  // The nearest probe known not to be seen.
    for (std::size_t ahead = 2; seen != last && hidden == last + 1; ahead *= 2) {
      const std::size_t probe = std::min(i + ahead, last);
      (sees(i, probe) ? seen : hidden) = probe;
    }
    while (hidden <= last && hidden - seen > 1) {
      const std::size_t mid = seen + (hidden - seen) / 2;
      (sees(i, mid) ? seen : hidden) = mid;
    }
    chain.push_back(path[seen]);
    i = seen;
  }
}

std::uint8_t routeShape(const ClearanceMap& clearance, Vec2 start, bool fromStart,
                        std::span<const std::uint32_t> chain, Vec2 goal, bool toGoal, bool smooth) {
  const GridMap& map = clearance.map();
  const auto centre = [&](std::uint32_t c) { return map.cellCenter(map.cellOf(c)); };
  if (!toGoal) return kEndAtCentre;
  if (!smooth) return kGoalCentre;
  std::uint8_t shape = 0;
  if (fromStart && chain.size() > 1 && clearance.clearLine(start, centre(chain[1]))) {
    shape |= kSkipStartCentre;
  }
  const std::size_t firstCentre = (shape & kSkipStartCentre) != 0 ? 1 : 0;
  const Vec2 beforeGoal = chain.size() >= 2 + firstCentre ? centre(chain[chain.size() - 2]) : start;
  if (!clearance.clearLine(beforeGoal, goal)) shape |= kGoalCentre;
  return shape;
}

std::size_t routePointCount(std::size_t chainSize, std::uint8_t shape) {
  const std::size_t skip = (shape & kSkipStartCentre) != 0 ? 1 : 0;
  const std::size_t end = (shape & kEndAtCentre) != 0 ? 1 : (shape & kGoalCentre) != 0 ? 2 : 1;
  return 1 + (chainSize - 1 - skip) + end;
}

Vec2* writeRoute(const GridMap& map, Vec2 start, std::span<const std::uint32_t> chain, Vec2 goal,
                 std::uint8_t shape, Vec2* out) {
  const auto centre = [&](std::uint32_t c) { return map.cellCenter(map.cellOf(c)); };
  *out++ = start;
  for (std::size_t k = (shape & kSkipStartCentre) != 0 ? 1 : 0; k + 1 < chain.size(); ++k) {
    *out++ = centre(chain[k]);
  }
  if ((shape & (kGoalCentre | kEndAtCentre)) != 0) *out++ = centre(chain.back());
  if ((shape & kEndAtCentre) == 0) *out++ = goal;
  return out;
}

}  // namespace crowd::routing
