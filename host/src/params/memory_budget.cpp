// The memory budget (crowd/memory_budget.hpp): CROWD_MEMORY_LIMIT, or most of what the machine
// has available.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>

#include <crowd/memory_budget.hpp>

namespace crowd {
namespace {

constexpr const char* kLimitVariable = "CROWD_MEMORY_LIMIT";

// What is left for one input of the memory available: the rest goes to what the program
// already holds and to allocations the estimates leave out.
constexpr double kAvailableShare = 0.9;

// MemAvailable from /proc/meminfo, in bytes; 0 where it cannot be read.
std::uint64_t availableMemory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (meminfo >> key >> value >> unit) {
    if (key == "MemAvailable:") return value * 1024;
  }
  return 0;
}

// CROWD_MEMORY_LIMIT in bytes: digits, then at most one of K, M, G (powers of 1024).
std::uint64_t parseLimit(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  std::uint64_t scale = 1;
  const std::string_view suffix(ptr, static_cast<std::size_t>(end - ptr));
  if (suffix == "K" || suffix == "k") scale = 1ull << 10;
  if (suffix == "M" || suffix == "m") scale = 1ull << 20;
  if (suffix == "G" || suffix == "g") scale = 1ull << 30;
  const bool suffixKnown = suffix.empty() || scale > 1;
  if (text.empty() || ec != std::errc() || ptr == text.data() || !suffixKnown || value == 0 ||
      value > std::numeric_limits<std::uint64_t>::max() / scale) {
    throw std::invalid_argument(std::string(kLimitVariable) + " must be a size in bytes above 0, " +
                                "optionally with K, M or G (\"512M\"), got '" + std::string(text) + "'");
  }
  return value * scale;
}

}  // namespace

std::uint64_t memoryBudget() {
  if (const char* limit = std::getenv(kLimitVariable)) return parseLimit(limit);
  return static_cast<std::uint64_t>(kAvailableShare * static_cast<double>(availableMemory()));
}

std::string memoryBudgetSource() {
  if (std::getenv(kLimitVariable) != nullptr) return kLimitVariable;
  return "90% of the " + formatBytes(static_cast<double>(availableMemory())) + " available";
}

std::string formatBytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (bytes >= 1024.0 && unit + 1 < std::size(units)) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

}  // namespace crowd
