// The CUDA backend: the whole step on the GPU, one thread per agent, reusing the per-agent
// kernels of agent_step.hpp. The agents' state stays on the device between steps; the host
// copy is refreshed only when something reads it. Per step the host reads back one small
// struct (neighbour candidates and the number of arrivals), which also ends the step.
#include <cub/cub.cuh>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <crowd/kernels/agent_step.hpp>
#include <crowd/simulator.hpp>

#include "backend.hpp"
#include "device_buffer.cuh"

namespace crowd {
namespace {

constexpr int kBlock = 128;

int blocksFor(int n) { return (n + kBlock - 1) / kBlock; }

struct Bounds {
  float minX, minY, maxX, maxY;
};

struct BoundsOfPosition {
  __host__ __device__ Bounds operator()(const Vec2& p) const { return Bounds{p.x, p.y, p.x, p.y}; }
};

struct BoundsUnion {
  __host__ __device__ Bounds operator()(const Bounds& a, const Bounds& b) const {
    return Bounds{fminf(a.minX, b.minX), fminf(a.minY, b.minY), fmaxf(a.maxX, b.maxX), fmaxf(a.maxY, b.maxY)};
  }
};

// What the host reads back after each step.
struct StepCounters {
  unsigned long long candidates;
  int arrivals;
};

__global__ void gridKernel(const Bounds* bounds, float cellSize, unsigned buckets, HashedGrid* grid) {
  *grid = makeHashedGrid(bounds->minX, bounds->minY, bounds->maxX, bounds->maxY, cellSize, buckets);
}

__global__ void bucketKernel(int n, const Vec2* position, const HashedGrid* gridPtr, unsigned* bucket, int* agent) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const HashedGrid grid = *gridPtr;
  bucket[i] = bucketOf(grid, hashedCellOf(grid, position[i]));
  agent[i] = i;
}

__global__ void gatherKernel(int n, const int* sortedAgent, const Vec2* position, const unsigned* id,
                             Vec2* sortedPosition, unsigned* sortedId) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  sortedPosition[k] = position[sortedAgent[k]];
  sortedId[k] = id[sortedAgent[k]];
}

__global__ void neighbourKernel(int n, const HashedGrid* gridPtr, SortedAgents sorted, const unsigned* profile,
                                const ProfileTerms* terms, int stride, int* neighbours, int* neighbourCount,
                                StepCounters* counters) {
  using BlockSum = cub::BlockReduce<unsigned long long, kBlock>;
  __shared__ typename BlockSum::TempStorage sumStorage;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long candidates = 0;
  if (k < n) {
    const HashedGrid grid = *gridPtr;
    const int self = sorted.agent[k];
    AgentNeighbours nearest;
    candidates = static_cast<unsigned long long>(
        findNearestAgents(grid, sorted, k, sorted.position[k], terms[profile[self]], nearest));
    int* row = neighbours + static_cast<long long>(self) * stride;
    for (int m = 0; m < nearest.count; ++m) row[m] = nearest.entries[m].index;
    neighbourCount[self] = nearest.count;
  }
  const unsigned long long blockTotal = BlockSum(sumStorage).Sum(candidates);
  if (threadIdx.x == 0) atomicAdd(&counters->candidates, blockTotal);
}

__global__ void prefVelocityKernel(int n, const unsigned char* hasGoal, const Vec2* goal, const Vec2* position,
                                   const unsigned* profile, const ProfileTerms* terms, Vec2* prefVelocity) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !hasGoal[i]) return;
  prefVelocity[i] = clipToLength(goal[i] - position[i], terms[profile[i]].prefSpeed);
}

__global__ void orcaKernel(int n, const int* sortedAgent, AgentView agents, ObstacleView obstacles,
                           Vec2* newVelocity) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int self = sortedAgent[k];  // Neighbouring threads handle neighbouring agents.
  newVelocity[self] = orcaVelocity(agents, obstacles, self);
}

__global__ void commitKernel(int n, float timeStep, const Vec2* newVelocity, Vec2* velocity, Vec2* position,
                             const unsigned char* hasGoal, const Vec2* goal, const unsigned* profile,
                             const ProfileTerms* terms, unsigned char* arrived, int* arrivalList,
                             StepCounters* counters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec2 v = newVelocity[i];
  velocity[i] = v;
  const Vec2 p = position[i] + v * timeStep;
  position[i] = p;
  if (hasGoal[i] && !arrived[i] && absSq(p - goal[i]) <= terms[profile[i]].goalRadiusSq) {
    arrived[i] = 1;
    arrivalList[atomicAdd(&counters->arrivals, 1)] = i;  // Sorted on the host: order is free here.
  }
}

}  // namespace

std::string cudaDeviceProblem() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) return std::string("no usable CUDA device (") + cudaGetErrorString(status) + ")";
  if (devices == 0) return "no CUDA device is present";
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) return "the CUDA device cannot be queried";
  // The build holds sm_90 code and compute_90 PTX: Hopper and newer only.
  if (properties.major < 9) {
    return std::string(properties.name) + " has compute capability " + std::to_string(properties.major) + "." +
           std::to_string(properties.minor) + "; this build needs 9.0 or newer";
  }
  return {};
}

class CudaBackend final : public Backend {
 public:
  CudaBackend() {
    cudaCheck(cudaSetDevice(0), "cudaSetDevice");
    cudaDeviceProp properties{};
    cudaCheck(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    deviceName_ = properties.name;
    for (cudaEvent_t& e : events_) cudaCheck(cudaEventCreate(&e), "cudaEventCreate");
  }
  ~CudaBackend() override {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }

  std::string name() const override { return "cuda"; }
  void step(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent) override {
    const auto start = std::chrono::steady_clock::now();
    try {
      stepOnDevice(sim, times, candidatesPerAgent);
    } catch (...) {
      deviceValid_ = false;  // Whatever the device holds now is suspect: upload again.
      throw;
    }
    // Host-side work (uploads, the counter read-back, arrivals, removals) lies outside the
    // device events; count it under commit so totals are the real cost of a step.
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (wall > times.total()) times[Phase::Commit] += wall - times.total();
  }
  void download(Simulator& sim) override;
  void invalidate() override { deviceValid_ = false; }
  void prepare(Simulator& sim) override {
    if (!deviceValid_) upload(sim, makeProfileTable(sim.profiles_));
  }
  std::size_t deviceBytes() const override;

 private:
  void stepOnDevice(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent);
  void upload(Simulator& sim, const ProfileTable& table);
  void buildGrid(int n, float cellSize);

  std::string deviceName_;
  bool deviceValid_ = false;
  int agents_ = 0;
  int stride_ = 0;
  unsigned buckets_ = 0;
  cudaEvent_t events_[6]{};

  DeviceBuffer<Vec2> position_, velocity_, newVelocity_, prefVelocity_, goal_, sortedPosition_;
  DeviceBuffer<unsigned char> hasGoal_, arrived_;
  DeviceBuffer<unsigned> profile_, id_, bucket_, sortedBucket_, sortedId_;
  DeviceBuffer<int> agentIndex_, sortedAgent_, bucketStart_, neighbours_, neighbourCount_, arrivalList_;
  DeviceBuffer<ProfileTerms> terms_;
  DeviceBuffer<ObstacleEdge> edges_;
  DeviceBuffer<int> edgeCellStart_, cellEdges_;
  DeviceBuffer<Bounds> bounds_;
  DeviceBuffer<HashedGrid> grid_;
  DeviceBuffer<StepCounters> counters_;
  DeviceBuffer<unsigned char> scratch_;  // cub's temporary storage.
  GridGeometry edgeGrid_{};
};

std::size_t CudaBackend::deviceBytes() const {
  return position_.bytes() + velocity_.bytes() + newVelocity_.bytes() + prefVelocity_.bytes() + goal_.bytes() +
         sortedPosition_.bytes() + hasGoal_.bytes() + arrived_.bytes() + profile_.bytes() + id_.bytes() +
         bucket_.bytes() + sortedBucket_.bytes() + sortedId_.bytes() + agentIndex_.bytes() + sortedAgent_.bytes() +
         bucketStart_.bytes() + neighbours_.bytes() + neighbourCount_.bytes() + arrivalList_.bytes() +
         terms_.bytes() + edges_.bytes() + edgeCellStart_.bytes() + cellEdges_.bytes() + scratch_.bytes();
}

void CudaBackend::upload(Simulator& sim, const ProfileTable& table) {
  const std::size_t n = sim.positions_.size();
  // Refuse a scenario that cannot fit before allocating any of it.
  const std::size_t perAgent = 6 * sizeof(Vec2) + 2 + 9 * sizeof(int) + static_cast<std::size_t>(table.maxNeighbors) * sizeof(int);
  // Plus the radix sort's spare keys and values, and the ORCA kernel's per-thread stack, which
  // the driver reserves for every thread that can be resident at once.
  cudaFuncAttributes orca{};
  cudaCheck(cudaFuncGetAttributes(&orca, orcaKernel), "cudaFuncGetAttributes");
  cudaDeviceProp properties{};
  cudaCheck(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  const std::size_t stackReserve = orca.localSizeBytes * static_cast<std::size_t>(properties.multiProcessorCount) *
                                   static_cast<std::size_t>(properties.maxThreadsPerMultiProcessor);
  const std::size_t needed = n * (perAgent + 8) + 2 * bucketCountFor(static_cast<long long>(n)) * sizeof(int) +
                             stackReserve + (64u << 20);
  std::size_t freeBytes = 0, totalBytes = 0;
  cudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
  if (needed > freeBytes + deviceBytes()) {
    throw std::runtime_error("the scenario needs about " + std::to_string(needed >> 20) + " MiB of device memory, but " +
                             deviceName_ + " has " + std::to_string(freeBytes >> 20) + " MiB free");
  }
  position_.upload(sim.positions_.data(), n);
  velocity_.upload(sim.velocities_.data(), n);
  prefVelocity_.upload(sim.prefVelocities_.data(), n);
  goal_.upload(sim.goals_.data(), n);
  hasGoal_.upload(sim.hasGoal_.data(), n);
  arrived_.upload(sim.arrived_.data(), n);
  profile_.upload(sim.profileOf_.data(), n);
  std::vector<unsigned> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = sim.denseToId_[i].index;
  id_.upload(ids.data(), n);
  for (auto* buffer : {&newVelocity_, &sortedPosition_}) buffer->resize(n);
  for (auto* buffer : {&bucket_, &sortedBucket_, &sortedId_}) buffer->resize(n);
  for (auto* buffer : {&agentIndex_, &sortedAgent_, &neighbourCount_, &arrivalList_}) buffer->resize(n);

  ObstacleSet& obstacles = sim.obstacles_;
  if (!obstacles.empty()) {
    obstacles.prepareGrid(table.maxObstacleRange);
    edges_.upload(obstacles.edges().data(), obstacles.edges().size());
    edgeCellStart_.upload(obstacles.cellStart().data(), obstacles.cellStart().size());
    cellEdges_.upload(obstacles.cellEdges().data(), obstacles.cellEdges().size());
    edgeGrid_ = obstacles.grid();
  } else {
    edges_.resize(0);
  }
  bounds_.resize(1);
  grid_.resize(1);
  counters_.resize(1);
  agents_ = static_cast<int>(n);
  deviceValid_ = true;
}

void CudaBackend::buildGrid(int n, float cellSize) {
  // Bounding box, then the grid over it, computed on the device: no host round trip.
  auto boxes = thrust::make_transform_iterator(position_.data(), BoundsOfPosition{});
  const Bounds empty{INFINITY, INFINITY, -INFINITY, -INFINITY};
  std::size_t reduceBytes = 0;
  cudaCheck(cub::DeviceReduce::Reduce(nullptr, reduceBytes, boxes, bounds_.data(), n, BoundsUnion{}, empty), "reduce size");
  std::size_t sortBytes = 0;
  const int bits = __builtin_ctz(buckets_);  // buckets_ = 2^bits, so keys fit in `bits` bits.
  cudaCheck(cub::DeviceRadixSort::SortPairs(nullptr, sortBytes, bucket_.data(), sortedBucket_.data(), agentIndex_.data(),
                                            sortedAgent_.data(), n, 0, bits),
            "sort size");
  scratch_.resize(std::max(reduceBytes, sortBytes));
  cudaCheck(cub::DeviceReduce::Reduce(scratch_.data(), reduceBytes, boxes, bounds_.data(), n, BoundsUnion{}, empty),
            "bounds");
  gridKernel<<<1, 1>>>(bounds_.data(), cellSize, buckets_, grid_.data());
  cudaCheck(cudaGetLastError(), "grid kernel");
  bucketKernel<<<blocksFor(n), kBlock>>>(n, position_.data(), grid_.data(), bucket_.data(), agentIndex_.data());
  cudaCheck(cudaGetLastError(), "bucket kernel");
  // Radix sort is stable: within a bucket agents keep their dense order, as on the CPU.
  cudaCheck(cub::DeviceRadixSort::SortPairs(scratch_.data(), sortBytes, bucket_.data(), sortedBucket_.data(),
                                            agentIndex_.data(), sortedAgent_.data(), n, 0, bits),
            "sort");
  // Bucket b starts at the first sorted slot whose bucket is >= b (CSR, buckets_ + 1 entries).
  bucketStart_.resize(buckets_ + 1);
  thrust::lower_bound(thrust::device, sortedBucket_.data(), sortedBucket_.data() + n, thrust::counting_iterator<unsigned>(0),
                      thrust::counting_iterator<unsigned>(buckets_ + 1), bucketStart_.data());
  gatherKernel<<<blocksFor(n), kBlock>>>(n, sortedAgent_.data(), position_.data(), id_.data(), sortedPosition_.data(),
                                         sortedId_.data());
  cudaCheck(cudaGetLastError(), "gather kernel");
}

void CudaBackend::stepOnDevice(Simulator& sim, PhaseTimes& times, double& candidatesPerAgent) {
  const ProfileTable table = makeProfileTable(sim.profiles_);
  if (!deviceValid_) upload(sim, table);
  terms_.upload(table.terms.data(), table.terms.size());
  const int n = agents_;
  candidatesPerAgent = 0;
  if (n == 0) {
    sim.recordArrivals(table.terms);
    return;
  }
  if (stride_ != table.maxNeighbors || neighbours_.size() < static_cast<std::size_t>(n) * stride_) {
    stride_ = table.maxNeighbors;
    neighbours_.resize(static_cast<std::size_t>(n) * std::max(stride_, 1));
  }
  buckets_ = bucketCountFor(n);
  cudaCheck(cudaMemset(counters_.data(), 0, sizeof(StepCounters)), "clear counters");

  cudaEventRecord(events_[0]);
  buildGrid(n, agentCellSize(sim.config_.cellSize, table.maxNeighborDist));
  cudaEventRecord(events_[1]);
  const SortedAgents sorted{bucketStart_.data(), sortedPosition_.data(), sortedId_.data(), sortedAgent_.data()};
  neighbourKernel<<<blocksFor(n), kBlock>>>(n, grid_.data(), sorted, profile_.data(), terms_.data(), stride_,
                                            neighbours_.data(), neighbourCount_.data(), counters_.data());
  cudaCheck(cudaGetLastError(), "neighbour kernel");
  cudaEventRecord(events_[2]);
  prefVelocityKernel<<<blocksFor(n), kBlock>>>(n, hasGoal_.data(), goal_.data(), position_.data(), profile_.data(),
                                               terms_.data(), prefVelocity_.data());
  cudaCheck(cudaGetLastError(), "preferred-velocity kernel");
  cudaEventRecord(events_[3]);
  const AgentView agents{position_.data(), velocity_.data(), prefVelocity_.data(), profile_.data(), id_.data(),
                         terms_.data(), neighbours_.data(), neighbourCount_.data(), stride_,
                         1.0f / sim.config_.timeStep};
  const ObstacleView obstacles{edges_.data(), static_cast<int>(edges_.size()), edgeGrid_, edgeCellStart_.data(),
                               cellEdges_.data()};
  orcaKernel<<<blocksFor(n), kBlock>>>(n, sortedAgent_.data(), agents, obstacles, newVelocity_.data());
  // A failed ORCA launch must not reach the commit, which would write its garbage into the state.
  cudaCheck(cudaGetLastError(), "ORCA kernel");
  cudaEventRecord(events_[4]);
  commitKernel<<<blocksFor(n), kBlock>>>(n, sim.config_.timeStep, newVelocity_.data(), velocity_.data(),
                                         position_.data(), hasGoal_.data(), goal_.data(), profile_.data(),
                                         terms_.data(), arrived_.data(), arrivalList_.data(), counters_.data());
  cudaEventRecord(events_[5]);
  cudaCheck(cudaGetLastError(), "commit kernel");

  StepCounters counters{};
  cudaCheck(cudaMemcpy(&counters, counters_.data(), sizeof counters, cudaMemcpyDeviceToHost), "step");
  float ms[5] = {};
  for (int phase = 0; phase < kPhaseCount; ++phase) {
    cudaCheck(cudaEventElapsedTime(&ms[phase], events_[phase], events_[phase + 1]), "phase timing");
  }
  times[Phase::Grid] = ms[0];
  times[Phase::Neighbours] = ms[1];
  times[Phase::PrefVelocity] = ms[2];
  times[Phase::Orca] = ms[3];
  times[Phase::Commit] = ms[4];
  candidatesPerAgent = static_cast<double>(counters.candidates) / n;
  sim.hostStale_ = true;

  if (counters.arrivals > 0) {
    std::vector<int> arrived(static_cast<std::size_t>(counters.arrivals));
    arrivalList_.download(arrived.data(), arrived.size());
    std::sort(arrived.begin(), arrived.end());
    for (int i : arrived) sim.lastArrivals_.push_back(Arrival{sim.denseToId_[static_cast<std::size_t>(i)], sim.stepCount_ + 1});
    if (sim.config_.removeArrived) {
      // Removal reorders the agents: do it on the host, and upload again before the next step.
      download(sim);
      sim.hostStale_ = false;
      sim.removeDense(std::vector<std::size_t>(arrived.begin(), arrived.end()));
      deviceValid_ = false;
    }
  }
}

void CudaBackend::download(Simulator& sim) {
  const std::size_t n = static_cast<std::size_t>(agents_);
  position_.download(sim.positions_.data(), n);
  velocity_.download(sim.velocities_.data(), n);
  prefVelocity_.download(sim.prefVelocities_.data(), n);
  arrived_.download(sim.arrived_.data(), n);
}

std::unique_ptr<Backend> makeCudaBackend() { return std::make_unique<CudaBackend>(); }

}  // namespace crowd
