// Whole numbers on the command line, read strictly: decimal digits only (no sign, no leading
// zero that C would read as octal, no exponent, nothing after them) and within range, so that
// "--seed 010", "--seed -1" or "--steps 1e20" are refused instead of read as something else.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace crowd::cli {

/// The value of `text` if it is a plain decimal number no larger than `max`; otherwise empty,
/// and `problem` says why.
inline std::optional<std::uint64_t> strictInteger(const std::string& text, std::uint64_t max,
                                                  std::string& problem) {
  if (text.empty()) {
    problem = "expected a whole number, got nothing";
    return std::nullopt;
  }
  if (text[0] == '-') {
    problem = "must not be negative, got " + text;
    return std::nullopt;
  }
  for (const char c : text) {
    if (c < '0' || c > '9') {
      problem = "expected a whole number in decimal digits, got '" + text + "'";
      return std::nullopt;
    }
  }
  if (text.size() > 1 && text[0] == '0') {
    problem = "has a leading zero (" + text + "); write it without, as a decimal number";
    return std::nullopt;
  }
  std::uint64_t value = 0;
  for (const char c : text) {
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (max - digit) / 10) {
      problem = "is too large: " + text + " (at most " + std::to_string(max) + ")";
      return std::nullopt;
    }
    value = value * 10 + digit;
  }
  return value;
}

/// The same rule as a check on a whole-number option, up to `max` (its type and any Range check
/// bound it too): "--agents 012" is refused, not read as octal 10, and "--seed -1" is refused,
/// not wrapped round to 2^64 - 1.
inline CLI::Validator wholeNumberUpTo(std::uint64_t max) {
  return CLI::Validator(
      [max](std::string& text) {
        std::string problem;
        return strictInteger(text, max, problem) ? std::string() : problem;
      },
      "");
}
inline const CLI::Validator kWholeNumber = wholeNumberUpTo(UINT64_MAX);

/// A check on a number of seconds or similar: finite and not negative (NaN is refused).
inline const CLI::Validator kFiniteNonNegative(
    [](std::string& text) {
      double value = 0.0;
      if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < 0.0) {
        return "expected a finite number >= 0, got '" + text + "'";
      }
      return std::string();
    },
    "");

}  // namespace crowd::cli
