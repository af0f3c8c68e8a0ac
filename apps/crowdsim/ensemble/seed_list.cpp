// --seeds (seed_list.hpp).
#include "ensemble/seed_list.hpp"

#include <charconv>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace crowd::cli {
namespace {

std::invalid_argument badSeeds(std::string_view part, const std::string& why) {
  return std::invalid_argument("--seeds: '" + std::string(part) + "' " + why +
                               " (expected seeds and ranges such as 1-100,200,300-310)");
}

// A whole number, digits only: no sign, space or exponent, which from_chars alone would partly take.
std::uint64_t wholeSeed(std::string_view digits, std::string_view part) {
  std::uint64_t value = 0;
  const char* end = digits.data() + digits.size();
  const auto [stop, error] = std::from_chars(digits.data(), end, value);
  if (digits.empty() || error == std::errc::invalid_argument || stop != end) {
    throw badSeeds(part, "is not a seed or a range of seeds");
  }
  if (error == std::errc::result_out_of_range) throw badSeeds(part, "is past the largest seed, 2^64 - 1");
  return value;
}

}  // namespace

std::vector<std::uint64_t> parseSeedList(std::string_view text) {
  if (text.empty()) throw badSeeds(text, "lists no seed");
  std::vector<std::uint64_t> seeds;
  std::unordered_set<std::uint64_t> seen;
  const auto add = [&](std::uint64_t seed, std::string_view part) {
    if (!seen.insert(seed).second) {
      throw badSeeds(part,
                     "repeats seed " + std::to_string(seed) + ": two runs of one seed are the same run");
    }
    if (seeds.size() == kMaxEnsembleSeeds) {
      throw badSeeds(part, "takes the ensemble past " + std::to_string(kMaxEnsembleSeeds) + " seeds");
    }
    seeds.push_back(seed);
  };
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view part = text.substr(begin, comma - begin);
    if (part.empty()) throw badSeeds(text, "has an empty part");
    const std::size_t dash = part.find('-');
    if (dash == std::string_view::npos) {
      add(wholeSeed(part, part), part);
    } else {
      const std::uint64_t first = wholeSeed(part.substr(0, dash), part);
      const std::uint64_t last = wholeSeed(part.substr(dash + 1), part);
      if (last < first) throw badSeeds(part, "runs backwards");
      if (last - first >= kMaxEnsembleSeeds) {
        throw badSeeds(part, "holds more than " + std::to_string(kMaxEnsembleSeeds) + " seeds");
      }
      for (std::uint64_t seed = first;; ++seed) {
        add(seed, part);
        if (seed == last) break;  // Also where last is 2^64 - 1 and ++ would wrap.
      }
    }
    begin = comma + 1;
  }
  return seeds;
}

}  // namespace crowd::cli
