// For tests of scenario error messages: what parseScenario says about a text.
#pragma once

#include <string>

#include <crowd/scenario.hpp>

namespace crowd {

/// The message parseScenario throws for `text` read from `source`, or "" when it accepts it.
inline std::string scenarioErrorFor(const std::string& text, const std::string& source) {
  try {
    parseScenario(text, source);
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "";
}

}  // namespace crowd
