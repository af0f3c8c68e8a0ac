// For tests of scenario error messages: what parseScenario says about a text.
#pragma once

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

/// Expects "bad.json: <path>: ..." for `text`, with `problem` somewhere in the rest.
inline void expectScenarioError(const std::string& text, const std::string& path,
                                const std::string& problem) {
  const std::string message = scenarioErrorFor(text, "bad.json");
  EXPECT_THAT(message, ::testing::StartsWith("bad.json: " + path + ": ")) << "for " << text;
  EXPECT_THAT(message, ::testing::HasSubstr(problem)) << "for " << text;
}

}  // namespace crowd
