// Compile-time settings shared by every per-agent kernel, on the host and on the device.
#pragma once

#if defined(__CUDACC__)
#define CROWD_HD __host__ __device__
#define CROWD_NOINLINE __noinline__
#define CROWD_UNROLL _Pragma("unroll")
#else
#define CROWD_HD
#define CROWD_NOINLINE __attribute__((noinline))
#define CROWD_UNROLL
#endif

namespace crowd {

/// Whether this copy of a per-agent function is compiled for a GPU. Where the backends take
/// different routes to the same result (how a search caches what it reads), this picks the route.
#if defined(__CUDA_ARCH__)
inline constexpr bool kOnDevice = true;
#else
inline constexpr bool kOnDevice = false;
#endif

/// Largest `maxNeighbors` an agent may ask for. Neighbour lists and the LP's line buffers are
/// sized by it, so it is a compile-time cap; each agent uses its own value up to it.
inline constexpr int kMaxNeighbors = 32;

/// Largest number of obstacle edges kept per agent (the nearest ones). RVO2 keeps every edge in
/// range; a cap is needed for fixed-size buffers. Scenes where more edges than this are within
/// `timeHorizonObst * maxSpeed + radius` of one agent are rare (a maze seen from a junction).
inline constexpr int kMaxObstacleNeighbors = 64;

/// Most ORCA lines one agent can have: every obstacle line plus every agent line.
inline constexpr int kMaxOrcaLines = kMaxObstacleNeighbors + kMaxNeighbors;

/// RVO2's epsilon: the parallel-lines test in the LP and the obstacle "already covered" test.
inline constexpr float kOrcaEpsilon = 1e-5f;

}  // namespace crowd
