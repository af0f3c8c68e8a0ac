// Places in a scenario document as JSON pointers (RFC 6901), and the error that names one:
// "<source>: <pointer>: <problem>". Shared by the file reader and the spec validator, so a
// problem found in either reads the same.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <crowd/scenario_spec.hpp>

namespace crowd::scenario_detail {

/// `path` + "/" + `key`, escaped so that a key holding '/' or '~' still gives a pointer that
/// resolves.
inline std::string childPath(const std::string& path, std::string_view key) {
  std::string out = path + "/";
  for (const char c : key) {
    switch (c) {
      case '~':
        out += "~0";
        break;
      case '/':
        out += "~1";
        break;
      default:
        out += c;
    }
  }
  return out;
}

inline std::string childPath(const std::string& path, std::size_t index) {
  return path + "/" + std::to_string(index);
}

/// Throws "<source>: <path>: <problem>"; the document itself is "/".
[[noreturn]] inline void failAt(const std::string& source, const std::string& path,
                                const std::string& problem) {
  throw ScenarioError(source + ": " + (path.empty() ? "/" : path) + ": " + problem);
}

}  // namespace crowd::scenario_detail
