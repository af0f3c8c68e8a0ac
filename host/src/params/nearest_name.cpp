#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include <crowd/nearest_name.hpp>

namespace crowd {
namespace {

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string_view nearestName(std::string_view word, std::span<const std::string_view> names) {
  std::string_view closest;
  std::size_t closestDistance = std::numeric_limits<std::size_t>::max();
  for (const std::string_view name : names) {
    const std::size_t distance = editDistance(word, name);
    if (distance < closestDistance) {
      closestDistance = distance;
      closest = name;
    }
  }
  // Only close matches: two edits, and no more than half the word.
  if (closestDistance > 2 || 2 * closestDistance > word.size()) return {};
  return closest;
}

}  // namespace crowd
