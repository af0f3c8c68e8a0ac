// Reading JSON text into a document, refusing what the JSON library would let through
// silently: an object that names a key twice keeps only the last value there, so a file could
// say "radius" twice and mean the first.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace crowd::scenario_detail {

/// Parses `text`. Throws ScenarioError starting with `source`: "syntax error at byte N: ..."
/// for malformed JSON, "<pointer>: duplicate key 'k'" for an object that repeats a key.
nlohmann::json parseJsonDocument(std::string_view text, const std::string& source);

/// A scenario file's text. Throws ScenarioError for a file that cannot be read, holds a NUL
/// (a binary file or a device) or is larger than limits::kMaxScenarioFileBytes.
std::string readScenarioText(const std::string& path);

}  // namespace crowd::scenario_detail
