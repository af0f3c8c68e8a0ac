// Choosing exits (crowd/exit_choice.hpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include <crowd/exit_choice.hpp>

namespace crowd {
namespace {

// Where agent `options` stands in the queue of option k's exit: its route length there.
float lengthTo(const ExitOptions& options, std::int32_t exit) {
  for (std::size_t k = 0; k < options.exits.size(); ++k) {
    if (options.exits[k] == exit) return options.lengths[k];
  }
  return -1.0f;
}

}  // namespace

std::vector<std::int32_t> pickExits(std::span<const ExitOptions> agents, std::size_t exitCount,
                                    const ExitChoice& rule) {
  // Each exit's queue: the route lengths of those heading for it, sorted.
  std::vector<std::vector<float>> queues(exitCount);
  std::vector<std::int32_t> chosen(agents.size(), -1);
  for (std::size_t a = 0; a < agents.size(); ++a) {
    const ExitOptions& options = agents[a];
    const float length = options.current >= 0 ? lengthTo(options, options.current) : -1.0f;
    if (length >= 0.0f) {
      queues[static_cast<std::size_t>(options.current)].push_back(length);
      chosen[a] = options.current;
    }
  }
  for (std::vector<float>& queue : queues) std::sort(queue.begin(), queue.end());

  const double infinity = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < agents.size(); ++a) {
    const ExitOptions& options = agents[a];
    const auto cost = [&](std::size_t k) {
      const float length = options.lengths[k];
      if (!(length >= 0.0f)) return infinity;
      double seconds = static_cast<double>(length) / static_cast<double>(options.speed);
      if (rule.byQueue) {
        const std::vector<float>& queue = queues[static_cast<std::size_t>(options.exits[k])];
        const auto ahead = std::lower_bound(queue.begin(), queue.end(), length) - queue.begin();
        seconds += static_cast<double>(ahead) / static_cast<double>(rule.exitFlow);
      }
      return seconds;
    };
    double currentCost = infinity, bestCost = infinity;
    std::int32_t best = -1;
    for (std::size_t k = 0; k < options.exits.size(); ++k) {
      const double c = cost(k);
      if (options.exits[k] == chosen[a]) currentCost = c;
      if (c < bestCost || (c == bestCost && best >= 0 && options.exits[k] < best)) {
        bestCost = c;
        best = options.exits[k];
      }
    }
    if (best < 0 || best == chosen[a]) continue;
    if (currentCost < infinity && !(bestCost < currentCost - static_cast<double>(rule.margin))) continue;
    // Leaves its queue for the other.
    if (chosen[a] >= 0) {
      std::vector<float>& old = queues[static_cast<std::size_t>(chosen[a])];
      const auto at = std::lower_bound(old.begin(), old.end(), lengthTo(options, chosen[a]));
      if (at != old.end()) old.erase(at);
    }
    std::vector<float>& joined = queues[static_cast<std::size_t>(best)];
    const float length = lengthTo(options, best);
    joined.insert(std::upper_bound(joined.begin(), joined.end(), length), length);
    chosen[a] = best;
  }
  return chosen;
}

}  // namespace crowd
