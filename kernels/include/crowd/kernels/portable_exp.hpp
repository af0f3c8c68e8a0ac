// exp(x) in float from additions and multiplications alone, so that the CPU and the GPU give the
// same bits: the libraries' own expf differ in their last bits between the two. Used by the
// pedestrian models, whose repulsions fall off exponentially with distance.
#pragma once

#include <cmath>

#include "config.hpp"

namespace crowd {

/// e^x, within 2 ulp of the true value for x in [-87, 88]; 0 below, infinity above, NaN for NaN.
/// Cody and Waite's reduction x = k ln 2 + r with |r| <= ln 2 / 2 (ln 2 split in two so that
/// k * kLn2High is exact for |k| < 2^12), a degree-7 Taylor polynomial in r (its remainder is
/// under 2e-8 relative), then a scaling by 2^k, which is exact.
CROWD_HD inline float portableExp(float x) {
  if (x != x) return x;
  if (x < -87.0f) return 0.0f;
  if (x > 88.5f) return INFINITY;
  constexpr float kLog2E = 1.44269504088896341f;
  constexpr float kLn2High = 0.693145751953125f;  // 12 significant bits: k * kLn2High is exact.
  constexpr float kLn2Low = 1.42860676533018e-06f;
  const float k = std::floor(x * kLog2E + 0.5f);
  const float r = (x - k * kLn2High) - k * kLn2Low;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  return std::ldexp(p, static_cast<int>(k));
}

}  // namespace crowd
