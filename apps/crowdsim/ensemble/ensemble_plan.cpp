// The runs of an ensemble (ensemble_plan.hpp).
#include "ensemble/ensemble_plan.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <crowd/limits.hpp>

#include "ensemble/seed_list.hpp"
#include "model_override.hpp"

namespace crowd::cli {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

bool isWholeNumber(std::string_view text, std::uint64_t least, std::uint64_t most) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return !text.empty() && error == std::errc() && stop == end && value >= least && value <= most;
}

// Why `value` is no value of `key`, or empty when it is one.
std::string valueProblem(const std::string& key, const std::string& value) {
  if (key == "agents") {
    if (!isWholeNumber(value, 1, limits::kMaxScenarioAgents)) {
      return "is not an agent count (a whole number from 1 to " + std::to_string(limits::kMaxScenarioAgents) +
             ")";
    }
  } else if (key == "steps") {
    if (!isWholeNumber(value, 0, static_cast<std::uint64_t>(INT64_MAX)))
      return "is not a whole number of steps";
  } else {
    const std::vector<std::string> names =
        key == "model" ? modelOverrideNames() : std::vector<std::string>{"orca", "none"};
    if (std::find(names.begin(), names.end(), value) == names.end()) return "is not one of " + joined(names);
  }
  return {};
}

}  // namespace

std::vector<std::string> variationKeys() {
  return {"agents", "model", "avoidance", "steps"};
}

Variation parseVariation(std::string_view text) {
  const std::string written(text);
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    throw std::invalid_argument("--vary " + written +
                                ": expected KEY=V1,V2,... (keys: " + joined(variationKeys()) + ")");
  }
  Variation variation{std::string(text.substr(0, equals)), {}};
  const std::vector<std::string> keys = variationKeys();
  if (std::find(keys.begin(), keys.end(), variation.key) == keys.end()) {
    throw std::invalid_argument("--vary: unknown key '" + variation.key + "'; the keys it takes are " +
                                joined(keys));
  }
  const std::string_view values = text.substr(equals + 1);
  std::size_t begin = 0;
  while (begin <= values.size()) {
    const std::size_t comma = std::min(values.find(',', begin), values.size());
    const std::string value(values.substr(begin, comma - begin));
    if (value.empty()) throw std::invalid_argument("--vary " + written + ": an empty value");
    if (const std::string problem = valueProblem(variation.key, value); !problem.empty()) {
      throw std::invalid_argument("--vary " + written + ": '" + value + "' " + problem);
    }
    if (std::find(variation.values.begin(), variation.values.end(), value) != variation.values.end()) {
      throw std::invalid_argument("--vary " + written + ": '" + value + "' is listed twice");
    }
    variation.values.push_back(value);
    begin = comma + 1;
  }
  return variation;
}

std::vector<PlannedRun> planRuns(const std::vector<std::uint64_t>& seeds,
                                 const std::vector<Variation>& variations) {
  std::size_t combinations = 1;
  for (std::size_t v = 0; v < variations.size(); ++v) {
    for (std::size_t w = 0; w < v; ++w) {
      if (variations[w].key == variations[v].key) {
        throw std::invalid_argument("--vary " + variations[v].key +
                                    " is given twice; list its values in one --vary");
      }
    }
    combinations *= variations[v].values.size();
    if (combinations * seeds.size() > kMaxEnsembleSeeds) {
      throw std::invalid_argument("the seeds and --vary values make more than " +
                                  std::to_string(kMaxEnsembleSeeds) + " runs");
    }
  }
  std::vector<PlannedRun> runs;
  runs.reserve(combinations * seeds.size());
  for (std::size_t c = 0; c < combinations; ++c) {
    // The combination's values: its number written in the mixed radix of the value counts, the
    // last variation the lowest digit.
    std::vector<std::string> values(variations.size());
    std::size_t rest = c;
    for (std::size_t v = variations.size(); v-- > 0;) {
      values[v] = variations[v].values[rest % variations[v].values.size()];
      rest /= variations[v].values.size();
    }
    for (const std::uint64_t seed : seeds) runs.push_back({runs.size(), seed, c, values});
  }
  return runs;
}

}  // namespace crowd::cli
