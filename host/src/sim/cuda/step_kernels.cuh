// The CUDA executor's kernels (cuda_executor.cu drives them): the agent grid's build (bounding
// box, cell keys, bucket starts), the gather and scatter between dense and cell order, and the
// one generic kernel every per-agent phase runs through. Templates on the world's vector type
// (Vec2 or Vec3) where the world matters.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cub/cub.cuh>

#include <crowd/kernels/agent_grid_3d.hpp>
#include <crowd/kernels/step_phases.hpp>

namespace crowd {
namespace {

constexpr int kBlock = 128;

unsigned blocksFor(int n) {
  return static_cast<unsigned>((n + kBlock - 1) / kBlock);
}

// The agents' bounding box (z stays 0 in a planar world).
struct Bounds {
  float minX, minY, minZ, maxX, maxY, maxZ;
};

struct BoundsOfPosition {
  __host__ __device__ Bounds operator()(const Vec2& p) const {
    return Bounds{p.x, p.y, 0.0f, p.x, p.y, 0.0f};
  }
  __host__ __device__ Bounds operator()(const Vec3& p) const { return Bounds{p.x, p.y, p.z, p.x, p.y, p.z}; }
};

struct BoundsUnion {
  __host__ __device__ Bounds operator()(const Bounds& a, const Bounds& b) const {
    return Bounds{fminf(a.minX, b.minX), fminf(a.minY, b.minY), fminf(a.minZ, b.minZ),
                  fmaxf(a.maxX, b.maxX), fmaxf(a.maxY, b.maxY), fmaxf(a.maxZ, b.maxZ)};
  }
};

template <class Vector>
__global__ void gridKernel(const Bounds* b, float cellSize, std::uint32_t buckets, AgentGrid* grid) {
  if constexpr (std::is_same_v<Vector, Vec3>) {
    *grid =
        makeAgentGrid3(Vec3(b->minX, b->minY, b->minZ), Vec3(b->maxX, b->maxY, b->maxZ), cellSize, buckets);
  } else {
    *grid = makeAgentGrid(b->minX, b->minY, b->maxX, b->maxY, cellSize, buckets);
  }
}

/// The key each agent is sorted by: its cell key with the bucket first, as one integer. The
/// bucket is the key's low `bucketBits` bits, so rotating those to the top of a `keyBits`-bit
/// integer orders by bucket first and, within a bucket, by the rest of the key: each cell one run.
template <class Vector>
__global__ void keyKernel(int n, const Vector* position, AgentGrid grid, int bucketBits, int keyBits,
                          std::uint64_t* sortKey, int* agent) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t k = cellKey(grid, gridCellOf(grid, position[i]));
  const int rest = keyBits - bucketBits;
  sortKey[i] = rest > 0 ? (static_cast<std::uint64_t>(bucketOfKey(grid, k)) << rest) | (k >> bucketBits) : k;
  agent[i] = i;
}

/// Turns the sorted keys back into cell keys, in place: the cell key of each sorted slot.
__global__ void slotKeyKernel(int n, int bucketBits, int keyBits, std::uint64_t* key) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int rest = keyBits - bucketBits;
  if (rest > 0) key[k] = ((key[k] & ((std::uint64_t{1} << rest) - 1)) << bucketBits) | (key[k] >> rest);
}

/// Sets an occupancy bit from many threads at once.
struct AtomicSetBit {
  std::uint64_t* words;
  __device__ void operator()(std::uint32_t bit) const {
    atomicOr(reinterpret_cast<unsigned long long*>(&words[bit >> 6]), 1ull << (bit & 63));
  }
};

/// Bucket starts (one thread per bucket, by binary search) and the occupancy bitmap (one
/// thread per slot), in one launch over max(buckets + 1, n) threads.
__global__ void bucketStartKernel(int n, AgentGrid grid, std::uint32_t buckets, const std::uint64_t* slotKey,
                                  int* bucketStart, std::uint64_t* occupied) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i <= buckets) bucketStart[i] = bucketStartBySearch(static_cast<std::uint32_t>(i), n, grid, slotKey);
  if (i < static_cast<std::size_t>(n))
    markCellOfSlot(static_cast<int>(i), grid, slotKey, AtomicSetBit{occupied});
}

/// to[k] = from[order[k]] in every column, or, with `scatter`, to[order[k]] = from[k] in every
/// column a step writes.
template <class Vector>
__global__ void permuteAgentsKernel(int n, const int* order, AgentArraysOf<Vector> from,
                                    AgentArraysOf<Vector> to, bool scatter) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int source = scatter ? k : order[k];
  const int target = scatter ? order[k] : k;
#define CROWD_PERMUTE_COLUMN(Type, name, stepWrites) \
  if (!scatter || stepWrites) to.name[target] = from.name[source];
  CROWD_AGENT_COLUMNS(CROWD_PERMUTE_COLUMN)
#undef CROWD_PERMUTE_COLUMN
}

/// A warp's sum (or maximum) of v, in lane 0.
template <class T>
__device__ T warpSum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ inline float warpMax(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

/// Adds the block's tallies to *total. A phase changes two or three of the tally's fields, so
/// each field is summed over a warp only where some lane has it (one vote otherwise), the
/// warps' sums meet in shared memory, and each field the block has is one atomic.
__device__ inline void addBlockTally(const StepTally& mine, StepTally* total) {
  constexpr int kWarps = kBlock / 32;
  // Raw storage: a __shared__ variable cannot have StepTally's initialisers.
  __shared__ alignas(StepTally) unsigned char storage[kWarps * sizeof(StepTally)];
  StepTally* warps = reinterpret_cast<StepTally*>(storage);
  StepTally sum;
#define CROWD_WARP_SUM(field) \
  if (__any_sync(0xffffffffu, mine.field != 0)) sum.field = warpSum(mine.field);
  CROWD_TALLY_COUNTS(CROWD_WARP_SUM)
#undef CROWD_WARP_SUM
  if (__any_sync(0xffffffffu, mine.maxMoveSq != 0.0f)) sum.maxMoveSq = warpMax(mine.maxMoveSq);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x != 0) return;
  StepTally block;
  for (int w = 0; w < kWarps; ++w) block += warps[w];
#define CROWD_ATOMIC_ADD(field)                                     \
  if (block.field != 0) {                                           \
    atomicAdd(reinterpret_cast<unsigned long long*>(&total->field), \
              static_cast<unsigned long long>(block.field));        \
  }
  CROWD_TALLY_COUNTS(CROWD_ATOMIC_ADD)
#undef CROWD_ATOMIC_ADD
  // Non-negative floats order as their bits do.
  if (block.maxMoveSq > 0.0f)
    atomicMax(reinterpret_cast<unsigned*>(&total->maxMoveSq), __float_as_uint(block.maxMoveSq));
}

/// Every per-agent phase runs through this one kernel: one thread per agent in cell order,
/// neighbouring threads on neighbouring agents. The tally is summed per block, then globally.
template <class P, class View>
__global__ void phaseKernel(View view, StepTally* total) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  StepTally mine;
  if (k < view.count) {
    typename P::Scratch scratch;
    P::run(view, k, scratch, mine);
  }
  addBlockTally(mine, total);  // Every thread takes part, those past the last agent too.
}

/// The sorted slot of every agent id (the table was cleared to -1 first), for target lookups.
__global__ void slotOfIdKernel(int n, const AgentId* id, int* slotOfId) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) slotOfId[id[k].index] = k;
}

/// The dense indices of the agents that arrived in this step (in no particular order).
__global__ void arrivalsKernel(int n, const std::uint8_t* flags, int* list, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (flags[i] & kArrivedNow) != 0) list[atomicAdd(count, 1)] = i;
}

}  // namespace
}  // namespace crowd
