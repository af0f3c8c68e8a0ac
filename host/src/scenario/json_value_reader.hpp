// The values scenario files are made of (numbers within float range, whole numbers, points,
// known keys with a did-you-mean, agent parameters), read from a JSON document with every problem
// reported at its JSON pointer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include <crowd/agent_params.hpp>
#include <crowd/kernels/vec2.hpp>
#include <crowd/kernels/vec3.hpp>

namespace crowd::scenario_detail {

/// Reads the values every scenario key is made of, and reports problems as
/// "<source>: <JSON pointer>: <problem>", so that every reader (the planar and 3D files, the
/// steering keys, maps and routes) reads numbers, strings and points exactly alike.
class JsonValueReader {
 public:
  explicit JsonValueReader(std::string source) : source_(std::move(source)) {}

  /// The file (or other source) messages start with.
  const std::string& source() const { return source_; }
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const;

  static std::string typeOf(const nlohmann::json& value) { return value.type_name(); }
  /// A value as the user wrote it, for "got ..." in messages.
  static std::string show(const nlohmann::json& value);
  /// " (did you mean 'x'?)" when one of `known` is within two edits of `word` (and no more
  /// than half of it), else "".
  static std::string didYouMean(std::string_view word, std::span<const std::string_view> known);

  /// Refuses keys outside the union of `allowedSets`, suggesting the closest known one.
  void checkKeys(const nlohmann::json& object, const std::string& path,
                 std::initializer_list<std::span<const std::string_view>> allowedSets) const;
  void requireKey(const nlohmann::json& object, const std::string& path, const char* key) const;
  const nlohmann::json& objectAt(const nlohmann::json& value, const std::string& path) const;
  const nlohmann::json& arrayAt(const nlohmann::json& value, const std::string& path) const;
  std::string text(const nlohmann::json& value, const std::string& path) const;
  bool boolean(const nlohmann::json& value, const std::string& path) const;
  double number(const nlohmann::json& value, const std::string& path) const;
  /// Simulation values are 32-bit floats: refuses a double beyond float range.
  float floatNumber(const nlohmann::json& value, const std::string& path) const;
  /// Whole numbers, 1e3 included.
  std::int64_t integer(const nlohmann::json& value, const std::string& path) const;
  std::uint64_t unsignedInteger(const nlohmann::json& value, const std::string& path) const;
  /// [x, y].
  Vec2 vector2(const nlohmann::json& value, const std::string& path) const;
  /// [x, y, z].
  Vec3 vector3(const nlohmann::json& value, const std::string& path) const;
  /// `params` with the fields `object` sets overridden (kParamKeys); `radiusKey` names the
  /// radius (a circle group's agents have "agentRadius").
  AgentParams applyParams(const nlohmann::json& object, const std::string& path, AgentParams params,
                          std::string_view radiusKey) const;

 private:
  std::string source_;
};

/// A file's "dimensions": 2 (a planar world, the default) or 3.
int readDimensions(const JsonValueReader& reader, const nlohmann::json& value);

}  // namespace crowd::scenario_detail
