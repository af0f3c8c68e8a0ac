// The seeds of an ensemble as `--seeds` writes them: ranges and single seeds, comma separated
// ("1-1000", "3,7,11", "1-10,100,200-209"), each run of the ensemble taking one of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace crowd::cli {

/// More seeds than any ensemble is run with: a typo such as 1-1000000000 is refused instead of
/// filling memory with run records.
inline constexpr std::size_t kMaxEnsembleSeeds = 10'000'000;

/// The seeds `text` lists, in the order written; a range A-B runs from A up to B, both included.
/// Throws std::invalid_argument, naming the part at fault, for an empty text or part, something
/// other than whole numbers 0 to 2^64 - 1, a range that runs backwards, a seed listed twice (two
/// runs of one seed are the same run) or more than kMaxEnsembleSeeds seeds.
std::vector<std::uint64_t> parseSeedList(std::string_view text);

}  // namespace crowd::cli
