// Random numbers from a counter: a hash of (seed, agent, step, stream) instead of a generator
// shared between agents, so that every agent draws the same numbers whatever thread or GPU
// block computes it, in whatever order. Integer arithmetic only, and floats made from integers
// exactly, so the CPU and the GPU draw bit-identical values.
#pragma once

#include <cstdint>

#include "config.hpp"

namespace crowd {

/// SplitMix64's finaliser: a bijection on 64-bit integers whose output bits each depend on
/// every input bit.
CROWD_HD inline std::uint64_t mixBits(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// 64 random bits for one (seed, agent, step, stream): `stream` separates independent uses
/// (deadlock jitter, wander, ...) of the same agent and step. The counters are spread by odd
/// multipliers (distinct agents, steps and streams land far apart) and the finaliser then
/// scrambles every bit.
CROWD_HD inline std::uint64_t counterRandom(std::uint64_t seed, std::uint32_t agent, std::int64_t step,
                                            std::uint32_t stream) {
  const std::uint64_t counter = (static_cast<std::uint64_t>(agent) * 0x9E3779B97F4A7C15ull) ^
                                (static_cast<std::uint64_t>(step) * 0xC2B2AE3D27D4EB4Full) ^
                                (static_cast<std::uint64_t>(stream) * 0x165667B19E3779F9ull);
  return mixBits(mixBits(seed) ^ counter);
}

/// The top 24 bits of `bits` as a float in [-1, 1), exactly: k * 2^-23 - 1 for k < 2^24.
CROWD_HD inline float signedUnit(std::uint64_t bits) {
  return static_cast<float>(static_cast<std::int32_t>(bits >> 40)) * (1.0f / 8388608.0f) - 1.0f;
}

}  // namespace crowd
