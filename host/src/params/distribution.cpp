// Per-agent draws (crowd/distribution.hpp).
#include <algorithm>
#include <cmath>
#include <iterator>
#include <numbers>

#include <crowd/distribution.hpp>
#include <crowd/kernels/counter_random.hpp>

#include "params/number_text.hpp"

namespace crowd {
namespace {

/// RiMEA's figure "walking speed in the plane by age, after Weidmann", read at these ages:
/// (years, mean m/s).
constexpr double kAges[] = {3, 10, 20, 30, 40, 50, 60, 70, 80, 85};
constexpr double kSpeeds[] = {0.56, 1.17, 1.60, 1.53, 1.48, 1.41, 1.26, 1.06, 0.70, 0.55};

/// A uniform double in [0, 1) from 53 bits of a hash.
double unitOf(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

}  // namespace

double weidmannSpeedAtAge(double age) {
  const double clamped = std::clamp(age, kAges[0], kAges[std::size(kAges) - 1]);
  std::size_t i = 1;
  while (i + 1 < std::size(kAges) && kAges[i] < clamped) ++i;
  const double t = (clamped - kAges[i - 1]) / (kAges[i] - kAges[i - 1]);
  return kSpeeds[i - 1] + t * (kSpeeds[i] - kSpeeds[i - 1]);
}

double ValueDistribution::draw(std::uint64_t seed, std::uint64_t agent, std::uint32_t stream) const {
  // Two independent uniforms per draw, from two counters of the same hash.
  const auto agentCounter = static_cast<std::uint32_t>(agent);
  const auto high = static_cast<std::int64_t>(agent >> 32);
  const double u1 = unitOf(counterRandom(seed, agentCounter, high, 2 * stream));
  const double u2 = unitOf(counterRandom(seed, agentCounter, high, 2 * stream + 1));
  double value = a;
  switch (kind) {
    case Kind::Constant:
      break;
    case Kind::Uniform:
      value = a + (b - a) * u1;
      break;
    case Kind::Normal: {
      // Box and Muller; 1 - u1 is in (0, 1], so the logarithm is finite.
      const double z = std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
      value = std::clamp(a + b * z, min, max);
      break;
    }
    case Kind::WeidmannAge:
      value = weidmannSpeedAtAge(a + (b - a) * u1);
      break;
  }
  if (quantum > 0.0) value = std::round(value / quantum) * quantum;
  return value;
}

double ValueDistribution::lowest() const {
  switch (kind) {
    case Kind::Constant:
    case Kind::Uniform:
      return a;
    case Kind::Normal:
      return min;
    case Kind::WeidmannAge: {
      double least = std::min(weidmannSpeedAtAge(a), weidmannSpeedAtAge(b));
      for (const double age : kAges) {
        if (age > a && age < b) least = std::min(least, weidmannSpeedAtAge(age));
      }
      return least;
    }
  }
  return a;
}

double ValueDistribution::highest() const {
  switch (kind) {
    case Kind::Constant:
      return a;
    case Kind::Uniform:
      return b;
    case Kind::Normal:
      return max;
    case Kind::WeidmannAge: {
      double most = std::max(weidmannSpeedAtAge(a), weidmannSpeedAtAge(b));
      for (const double age : kAges) {
        if (age > a && age < b) most = std::max(most, weidmannSpeedAtAge(age));
      }
      return most;
    }
  }
  return b;
}

std::string distributionProblem(const ValueDistribution& d) {
  if (!std::isfinite(d.a) || !std::isfinite(d.b)) return "its parameters must be finite numbers";
  if (!(d.quantum >= 0.0) || !std::isfinite(d.quantum)) return "its quantum must be >= 0";
  switch (d.kind) {
    case ValueDistribution::Kind::Constant:
      return {};
    case ValueDistribution::Kind::Uniform:
      if (d.a > d.b)
        return "a uniform range needs low <= high, got [" + formatNumber(d.a) + ", " + formatNumber(d.b) +
               "]";
      return {};
    case ValueDistribution::Kind::Normal:
      if (d.b < 0.0) return "a normal's standard deviation must be >= 0, got " + formatNumber(d.b);
      if (!std::isfinite(d.min) || !std::isfinite(d.max) || d.min > d.max) {
        return "a normal needs finite \"min\" <= \"max\" to clip its draws to";
      }
      return {};
    case ValueDistribution::Kind::WeidmannAge:
      if (d.a > d.b || d.a < kAges[0] || d.b > kAges[std::size(kAges) - 1]) {
        return "ages must be a range within 3 to 85 years, got [" + formatNumber(d.a) + ", " +
               formatNumber(d.b) + "]";
      }
      return {};
  }
  return "unknown distribution";
}

}  // namespace crowd
