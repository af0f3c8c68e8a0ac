// Per-agent values drawn from a distribution, as evacuation standards ask a scenario to give its
// people (desired speeds, body sizes, premovement times): a constant, uniform, a normal clipped
// to a range, or walking speed by age after Weidmann. Each agent's draw comes from a hash of
// (seed, agent number, what is drawn), not from a shared generator, so it does not depend on the
// order agents are made in. Values can be rounded to a quantum, so that agents drawn alike share
// a parameter profile (the profile table holds one row per distinct set of parameters).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace crowd {

struct ValueDistribution {
  enum class Kind : std::uint8_t {
    Constant,     ///< Always `a`.
    Uniform,      ///< Uniform on [a, b].
    Normal,       ///< Normal with mean a and standard deviation b, clipped to [min, max].
    WeidmannAge,  ///< An age uniform on [a, b] years, then the walking speed of that age.
  };
  Kind kind = Kind::Constant;
  double a = 0.0;
  double b = 0.0;
  double min = -std::numeric_limits<double>::infinity();  ///< Normal only: draws are clipped.
  double max = std::numeric_limits<double>::infinity();
  /// Draws are rounded to a multiple of this (0: not rounded).
  double quantum = 0.0;

  static ValueDistribution constant(double value) { return ValueDistribution{Kind::Constant, value, value}; }

  /// Agent `agent`'s value of what `stream` names, under `seed`.
  double draw(std::uint64_t seed, std::uint64_t agent, std::uint32_t stream) const;
  /// The least and greatest values a draw can take.
  double lowest() const;
  double highest() const;
};

/// Empty when `d` is well formed (finite parameters, a <= b for ranges, sd >= 0, min <= max, ages
/// within the table's 3..85 years, quantum >= 0), else a sentence naming the problem.
std::string distributionProblem(const ValueDistribution& d);

/// Walking speed on the level at `age` years (3 to 85), m/s: RiMEA's curve after Weidmann (1993),
/// the mean of its digitised points, interpolated linearly between them.
double weidmannSpeedAtAge(double age);

}  // namespace crowd
