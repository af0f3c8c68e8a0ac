// Reading the values scenario keys are made of (json_value_reader.hpp).
#include "scenario/json_value_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <crowd/nearest_name.hpp>

#include "params/number_text.hpp"
#include "scenario/scenario_paths.hpp"

namespace crowd::scenario_detail {

using nlohmann::json;

void JsonValueReader::fail(const std::string& path, const std::string& problem) const {
  failAt(source_, path, problem);
}

std::string JsonValueReader::show(const json& value) {
  if (value.is_number_float()) return formatNumber(value.get<double>());
  return value.dump();
}

std::string JsonValueReader::didYouMean(std::string_view word, std::span<const std::string_view> known) {
  const std::string_view closest = nearestName(word, known);
  return closest.empty() ? "" : " (did you mean '" + std::string(closest) + "'?)";
}

void JsonValueReader::checkKeys(const json& object, const std::string& path,
                                std::initializer_list<std::span<const std::string_view>> allowedSets) const {
  // Runs once per agent of a file that lists millions: no allocation unless a key is unknown.
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    const bool known =
        std::any_of(allowedSets.begin(), allowedSets.end(), [&](std::span<const std::string_view> set) {
          return std::find(set.begin(), set.end(), key) != set.end();
        });
    if (known) continue;
    std::vector<std::string_view> names;
    for (const auto allowed : allowedSets) names.insert(names.end(), allowed.begin(), allowed.end());
    fail(childPath(path, key), "unknown key '" + key + "'" + didYouMean(key, names));
  }
}

void JsonValueReader::requireKey(const json& object, const std::string& path, const char* key) const {
  if (!object.contains(key)) fail(path, std::string("missing required key '") + key + "'");
}

const json& JsonValueReader::objectAt(const json& value, const std::string& path) const {
  if (!value.is_object()) fail(path, "expected an object, got " + typeOf(value));
  return value;
}

const json& JsonValueReader::arrayAt(const json& value, const std::string& path) const {
  if (!value.is_array()) fail(path, "expected an array, got " + typeOf(value));
  return value;
}

std::string JsonValueReader::text(const json& value, const std::string& path) const {
  if (!value.is_string()) fail(path, "expected a string, got " + typeOf(value));
  return value.get<std::string>();
}

bool JsonValueReader::boolean(const json& value, const std::string& path) const {
  if (!value.is_boolean()) fail(path, "expected true or false, got " + typeOf(value));
  return value.get<bool>();
}

double JsonValueReader::number(const json& value, const std::string& path) const {
  if (!value.is_number()) fail(path, "expected a number, got " + typeOf(value));
  const double result = value.get<double>();
  if (!std::isfinite(result)) fail(path, "must be a finite number, got " + show(value));
  return result;
}

float JsonValueReader::floatNumber(const json& value, const std::string& path) const {
  const float result = static_cast<float>(number(value, path));
  if (!std::isfinite(result)) {
    fail(path, "must be a finite number within 32-bit float range, got " + show(value));
  }
  return result;
}

std::int64_t JsonValueReader::integer(const json& value, const std::string& path) const {
  if (value.is_number_unsigned()) {
    const auto result = value.get<std::uint64_t>();
    if (result > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      fail(path, "is too large, got " + show(value));
    }
    return static_cast<std::int64_t>(result);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  const double result = number(value, path);  // Whole-valued floats such as 1e3 are fine.
  if (result != std::floor(result)) fail(path, "must be an integer, got " + show(value));
  if (std::fabs(result) >= 0x1.0p63) fail(path, "is too large, got " + show(value));
  return static_cast<std::int64_t>(result);
}

std::uint64_t JsonValueReader::unsignedInteger(const json& value, const std::string& path) const {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer()) fail(path, "must be >= 0, got " + show(value));
  const double result = number(value, path);
  if (result != std::floor(result)) fail(path, "must be an integer, got " + show(value));
  if (result < 0.0) fail(path, "must be >= 0, got " + show(value));
  if (result >= 0x1.0p64) fail(path, "is too large, got " + show(value));
  return static_cast<std::uint64_t>(result);
}

Vec2 JsonValueReader::vector2(const json& value, const std::string& path) const {
  if (!value.is_array() || value.size() != 2) {
    const std::string got =
        value.is_array() ? "an array of " + std::to_string(value.size()) + " elements" : typeOf(value);
    fail(path, "expected an array of 2 numbers [x, y], got " + got);
  }
  return Vec2(floatNumber(value[0], childPath(path, 0)), floatNumber(value[1], childPath(path, 1)));
}

int readDimensions(const JsonValueReader& reader, const json& value) {
  const std::int64_t dimensions = reader.integer(value, "/dimensions");
  if (dimensions != 2 && dimensions != 3)
    reader.fail("/dimensions", "must be 2 or 3, got " + std::to_string(dimensions));
  return static_cast<int>(dimensions);
}

Vec3 JsonValueReader::vector3(const json& value, const std::string& path) const {
  if (!value.is_array() || value.size() != 3) {
    const std::string got =
        value.is_array() ? "an array of " + std::to_string(value.size()) + " elements" : typeOf(value);
    fail(path, "expected an array of 3 numbers [x, y, z], got " + got);
  }
  return Vec3(floatNumber(value[0], childPath(path, 0)), floatNumber(value[1], childPath(path, 1)),
              floatNumber(value[2], childPath(path, 2)));
}

AgentParams JsonValueReader::applyParams(const json& object, const std::string& path, AgentParams params,
                                         std::string_view radiusKey) const {
  for (const AgentParamField& field : kAgentParamFields) {
    const std::string key(field.real == &AgentParams::radius ? radiusKey : field.key);
    if (!object.contains(key)) continue;
    const std::string at = childPath(path, key);
    if (field.real != nullptr) {
      params.*field.real = floatNumber(object[key], at);
      continue;
    }
    // The one integer: checked before it is narrowed to an int.
    const std::int64_t value = integer(object[key], at);
    if (const std::string problem = limitProblem(static_cast<double>(value), field.limit); !problem.empty()) {
      fail(at, problem + ", got " + std::to_string(value));
    }
    params.maxNeighbors = static_cast<int>(value);
  }
  return params;
}

}  // namespace crowd::scenario_detail
