// How much memory the library lets one input take before refusing it: big scenarios, route
// planning on big maps. An input whose estimate passes the budget is refused before a byte of it
// is allocated, with the estimate and the budget, instead of running out of memory part way.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <crowd/errors.hpp>

namespace crowd {

/// An input refused because the memory it needs, by estimate, passes memoryBudget(): bad input
/// for the machine (crowdsim's exit code 2), said with the estimate and the budget.
class MemoryBudgetError : public InputError {
 public:
  using InputError::InputError;
};

/// The bytes one input may take: CROWD_MEMORY_LIMIT when set (bytes, or with a K, M or G suffix
/// for powers of 1024: "512M"), else 90% of the memory available (MemAvailable in
/// /proc/meminfo); 0 where neither can be read (no budget: nothing is refused). Throws
/// std::invalid_argument for a CROWD_MEMORY_LIMIT that is not such a size.
std::uint64_t memoryBudget();

/// Where memoryBudget() comes from, for messages: "CROWD_MEMORY_LIMIT" or "90% of the 7.6 GiB
/// available".
std::string memoryBudgetSource();

/// Bytes as people read them: "512 B", "3.4 MiB", "5.6 GiB".
std::string formatBytes(double bytes);

}  // namespace crowd
