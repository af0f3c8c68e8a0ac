// The CUDA executor: runs the step's phases (kernels/step_phases.hpp) on the GPU, one thread per
// agent, through one generic kernel. The agents' state and their steering state stay on the
// device between steps, in dense order; each step gathers the agents into cell order, runs the
// phases and scatters them back, unless some result was not finite. The host reads back one small
// tally per step; the host copy is refreshed only when something reads it. One class serves both
// worlds (Vector Vec2 or Vec3); the static world is uploaded whenever the host's changed.
#include <algorithm>
#include <chrono>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/cub.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <crowd/kernels/step_phases.hpp>

#include "sim/agent_store.hpp"
#include "sim/cuda/device_agent_store.cuh"
#include "sim/cuda/device_buffer.cuh"
#include "sim/cuda/device_static_world.cuh"
#include "sim/cuda/device_steering_store.cuh"
#include "sim/cuda/phase_launch.cuh"
#include "sim/cuda/step_kernels.cuh"
#include "sim/step/executor.hpp"

namespace crowd {
namespace {

int bitsFor(unsigned long long values) {
  int bits = 1;
  while (bits < 64 && (1ull << bits) < values) ++bits;
  return bits;
}

// "driver 13.0, runtime 13.0": a driver older than the runtime is the usual reason a machine
// with a GPU cannot run this build, so every refusal names both.
std::string cudaVersions() {
  int driver = 0;
  int runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  const auto text = [](int v) {
    return v == 0 ? std::string("none") : std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  };
  return "driver " + text(driver) + ", runtime " + text(runtime);
}

}  // namespace

std::string cudaDeviceProblem() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) {
    cudaGetLastError();  // Clear it: a later, unrelated check must not see this one.
    int driver = 0;
    // No driver at all is a machine without an NVIDIA GPU, not a broken one: say so plainly.
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0) return "no GPU found (no NVIDIA driver)";
    return std::string("no usable CUDA device (") + cudaGetErrorString(status) + "; " + cudaVersions() + ")";
  }
  if (devices == 0) return "no CUDA device is present (" + cudaVersions() + ")";
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) return "the CUDA device cannot be queried";
  // The build holds sm_90 code and compute_90 PTX: Hopper and newer only.
  if (properties.major < 9) {
    return std::string(properties.name) + " has compute capability " + std::to_string(properties.major) +
           "." + std::to_string(properties.minor) + "; this build needs 9.0 or newer";
  }
  return {};
}

namespace {

template <class Vector>
class CudaExecutorOf final : public ExecutorOf<Vector> {
 public:
  using Request = StepRequestOf<Vector>;

  CudaExecutorOf() {
    cudaCheck(cudaSetDevice(0), "cudaSetDevice");
    cudaDeviceProp properties{};
    cudaCheck(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    deviceName_ = properties.name;
    for (cudaEvent_t& e : events_) cudaCheck(cudaEventCreate(&e), "cudaEventCreate");
  }
  ~CudaExecutorOf() override {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }

  std::string name() const override { return "cuda"; }

  int begin(const Request& request) override;
  WorkingArraysOf<Vector> arrange(const Request& request, CellSizeChooser& cellSize,
                                  PhaseTimes& times) override;
  StepTally runPhases(const StepViewOf<Vector>& view, const ProfileTable& profiles,
                      PhaseTimes& times) override;
  NonFiniteAgentOf<Vector> firstNonFinite() override;
  void rollBack() override {}  // The dense state on the device is untouched until accept().
  void accept(const StepTally& tally) override;
  std::vector<std::size_t> arrivals() override;
  void finishTimes(PhaseTimes& times) override {
    // Host-side work (uploads, the tally read-back, arrivals) lies outside the device events;
    // count it under commit so totals are the real cost of a step.
    const double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    if (wall > times.total()) times[Phase::Commit] += wall - times.total();
  }
  void stepFailed() override { deviceValid_ = false; }  // Whatever the device holds now is suspect.

  bool holdsState() const override { return true; }
  void download(AgentStoreOf<Vector>& host, SteeringStoreOf<Vector>* steering) override {
    if (!deviceValid_) return;
    agents_.download(host);
    if (steering != nullptr && stateUploaded_) state_.download(*steering);
  }
  void invalidate() override { deviceValid_ = false; }
  void prepare(const Request& request) override {
    if (!deviceValid_) upload(request);
  }
  std::size_t deviceBytes() const override;
  DeviceAgentsOf<Vector> deviceAgents() const override {
    if (!deviceValid_ || terms_.data() == nullptr) return {};
    return DeviceAgentsOf<Vector>{agents_.position.data(), agents_.velocity.data(), agents_.profile.data(),
                                  terms_.data(), agents_.size()};
  }

 private:
  void upload(const Request& request);
  void buildGrid(int n, float cellSize);

  std::string deviceName_;
  bool deviceValid_ = false;
  bool stateUploaded_ = false;  // state_ holds the host store's steering state.
  bool steers_ = false;         // This step has steering state.
  int stride_ = 0;
  std::uint32_t buckets_ = 0;
  double lastCandidatesPerAgent_ = 0.0;  // Picks the neighbour search's list (neighboursInRegisters).
  std::chrono::steady_clock::time_point start_;
  cudaEvent_t events_[kPhaseCount + 1]{};

  DeviceAgentStoreOf<Vector> agents_;  // Dense order: the state between steps.
  DeviceAgentStoreOf<Vector> sorted_;  // Cell order: the working copy of a step.
  // The sort's two buffers each: keys (sort keys in, then each sorted slot's cell key) and
  // agent indices (0..n-1 in, then the dense index of each sorted slot).
  DeviceBuffer<std::uint64_t> sortKey_, slotKey_, occupied_;
  DeviceBuffer<int> agentIndex_, order_, bucketStart_, neighbourSlots_, neighbourCount_, arrivalList_;
  DeviceBuffer<Vector> newVelocity_;
  DeviceMirror<ProfileTerms> terms_;
  DeviceMirror<SteeringTerms> steering_;
  DeviceSteeringStoreOf<Vector> state_;
  DeviceStaticWorld world_;
  DeviceBuffer<Bounds> bounds_;
  DeviceBuffer<AgentGrid> grid_;
  DeviceBuffer<StepTally> tally_;
  DeviceBuffer<int> arrivalCount_;
  DeviceBuffer<unsigned char> scratch_;  // cub's temporary storage.
  AgentGrid hostGrid_{};
};

template <class Vector>
std::size_t CudaExecutorOf<Vector>::deviceBytes() const {
  std::size_t total = agents_.bytes() + sorted_.bytes() + newVelocity_.bytes() + terms_.bytes() +
                      steering_.bytes() + state_.bytes() + world_.bytes() + scratch_.bytes();
  for (const auto* buffer : {&sortKey_, &slotKey_, &occupied_}) total += buffer->bytes();
  for (const auto* buffer :
       {&agentIndex_, &order_, &bucketStart_, &neighbourSlots_, &neighbourCount_, &arrivalList_}) {
    total += buffer->bytes();
  }
  return total;
}

template <class Vector>
void CudaExecutorOf<Vector>::upload(const Request& request) {
  const std::size_t n = request.agents.size();
  // Refuse a scenario that cannot fit before allocating any of it: two copies of the columns,
  // grid keys and indices, the neighbour table, and the phase kernels' per-thread stack, which
  // the driver reserves for every thread that can be resident at once.
  const std::size_t perAgent = 2 * static_cast<std::size_t>(kAgentColumnBytesOf<Vector>) +
                               2 * sizeof(std::uint64_t) + 5 * sizeof(int) + sizeof(Vector) +
                               static_cast<std::size_t>(request.profiles.maxNeighbors) * sizeof(int);
  std::size_t stack = 0;
  using View = StepViewOf<Vector>;
  for (const void* kernel : {reinterpret_cast<const void*>(phaseKernel<NeighboursPhase, View>),
                             reinterpret_cast<const void*>(phaseKernel<ModelPhase, View>)}) {
    cudaFuncAttributes attributes{};
    cudaCheck(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes");
    stack = std::max(stack, attributes.localSizeBytes);
  }
  cudaDeviceProp properties{};
  cudaCheck(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  const std::size_t stackReserve = stack * static_cast<std::size_t>(properties.multiProcessorCount) *
                                   static_cast<std::size_t>(properties.maxThreadsPerMultiProcessor);
  // The steering state and the static world go up whole, as large as the host's copies.
  const std::size_t steeringAndWorld =
      (request.steering != nullptr ? request.steering->bytes() : 0) + request.world.bytes();
  const std::size_t needed = n * perAgent + 2 * bucketCountFor(static_cast<long long>(n)) * sizeof(int) +
                             steeringAndWorld + stackReserve + (64u << 20);
  std::size_t freeBytes = 0, totalBytes = 0;
  cudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
  if (needed > freeBytes + deviceBytes()) {
    throw std::runtime_error("the scenario needs about " + std::to_string(needed >> 20) +
                             " MiB of device memory, but " + deviceName_ + " has " +
                             std::to_string(freeBytes >> 20) + " MiB free");
  }
  agents_.upload(request.agents);
  // The profile table too, not only at the first step: a viewer draws the state before it.
  terms_.upload(request.profiles.terms.data(), request.profiles.terms.size());
  sorted_.resize(n);
  for (auto* buffer : {&sortKey_, &slotKey_}) buffer->resize(n);
  for (auto* buffer : {&agentIndex_, &order_, &neighbourCount_, &arrivalList_}) buffer->resize(n);
  newVelocity_.resize(n);
  world_.upload(request.world);
  stateUploaded_ = request.steering != nullptr;
  if (stateUploaded_) state_.upload(*request.steering);
  bounds_.resize(1);
  grid_.resize(1);
  tally_.resize(1);
  arrivalCount_.resize(1);
  deviceValid_ = true;
}

template <class Vector>
int CudaExecutorOf<Vector>::begin(const Request& request) {
  start_ = std::chrono::steady_clock::now();
  const ProfileTable& profiles = request.profiles;
  if (!deviceValid_) upload(request);
  terms_.upload(profiles.terms.data(), profiles.terms.size());
  steering_.upload(profiles.steering.data(), profiles.steering.size());
  steers_ = request.steering != nullptr;
  if (steers_ && (!stateUploaded_ || state_.size() != request.steering->size() ||
                  state_.tracked() != request.steering->hasTracks())) {
    state_.upload(*request.steering);  // Steering began (or tracks did) since the upload.
    stateUploaded_ = true;
  }
  const int n = static_cast<int>(agents_.size());
  if (n == 0) return 0;
  if (stride_ != profiles.maxNeighbors || neighbourSlots_.size() < static_cast<std::size_t>(n) * stride_) {
    stride_ = profiles.maxNeighbors;
    neighbourSlots_.resize(static_cast<std::size_t>(n) * std::max(stride_, 1));
  }
  buckets_ = bucketCountFor(n);
  cudaCheck(cudaMemset(tally_.data(), 0, sizeof(StepTally)), "clear tally");
  return n;
}

template <class Vector>
void CudaExecutorOf<Vector>::buildGrid(int n, float cellSize) {
  // The bounding box is reduced on the device; the host reads back the grid over it (24
  // bytes), since the sort's key width depends on how many cells the box holds.
  auto boxes = thrust::make_transform_iterator(agents_.position.data(), BoundsOfPosition{});
  const Bounds empty{INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
  std::size_t reduceBytes = 0;
  cudaCheck(cub::DeviceReduce::Reduce(nullptr, reduceBytes, boxes, bounds_.data(), n, BoundsUnion{}, empty),
            "reduce size");
  scratch_.resize(reduceBytes);
  cudaCheck(
      cub::DeviceReduce::Reduce(scratch_.data(), reduceBytes, boxes, bounds_.data(), n, BoundsUnion{}, empty),
      "bounds");
  gridKernel<Vector><<<1, 1>>>(bounds_.data(), cellSize, buckets_, grid_.data());
  cudaCheck(cudaGetLastError(), "grid kernel");
  grid_.download(&hostGrid_, 1);

  const int bucketBits = bitsFor(buckets_);
  const int keyBits = std::max(bucketBits, bitsFor(static_cast<unsigned long long>(hostGrid_.columns) *
                                                   hostGrid_.rows * hostGrid_.layers));
  keyKernel<<<blocksFor(n), kBlock>>>(n, agents_.position.data(), hostGrid_, bucketBits, keyBits,
                                      sortKey_.data(), agentIndex_.data());
  cudaCheck(cudaGetLastError(), "key kernel");
  // Radix sort is stable: within a cell agents keep their dense order, as on the CPU. Sorting
  // between two buffers of each (cub's double buffers) needs no copies of them as scratch; the
  // result may end in either, and the buffers trade names so that it is in slotKey_ and order_.
  cub::DoubleBuffer<std::uint64_t> keys(sortKey_.data(), slotKey_.data());
  cub::DoubleBuffer<int> values(agentIndex_.data(), order_.data());
  std::size_t sortBytes = 0;
  cudaCheck(cub::DeviceRadixSort::SortPairs(nullptr, sortBytes, keys, values, n, 0, keyBits), "sort size");
  scratch_.resize(sortBytes);
  cudaCheck(cub::DeviceRadixSort::SortPairs(scratch_.data(), sortBytes, keys, values, n, 0, keyBits), "sort");
  if (keys.Current() != slotKey_.data()) slotKey_.swap(sortKey_);
  if (values.Current() != order_.data()) order_.swap(agentIndex_);
  slotKeyKernel<<<blocksFor(n), kBlock>>>(n, bucketBits, keyBits, slotKey_.data());
  cudaCheck(cudaGetLastError(), "slot key kernel");
  bucketStart_.resize(buckets_ + 1);
  occupied_.resize(static_cast<std::size_t>(buckets_) * kOccupancyBitsPerBucket / 64);
  cudaCheck(cudaMemset(occupied_.data(), 0, occupied_.size() * sizeof(std::uint64_t)), "clear occupancy");
  bucketStartKernel<<<blocksFor(std::max(static_cast<int>(buckets_) + 1, n)), kBlock>>>(
      n, hostGrid_, buckets_, slotKey_.data(), bucketStart_.data(), occupied_.data());
  cudaCheck(cudaGetLastError(), "bucket start kernel");
  permuteAgentsKernel<Vector>
      <<<blocksFor(n), kBlock>>>(n, order_.data(), agents_.arrays(), sorted_.arrays(), false);
  cudaCheck(cudaGetLastError(), "gather kernel");
}

template <class Vector>
WorkingArraysOf<Vector> CudaExecutorOf<Vector>::arrange(const Request& request, CellSizeChooser& cellSize,
                                                        PhaseTimes&) {
  const int n = static_cast<int>(agents_.size());
  cudaEventRecord(events_[0]);
  buildGrid(n, cellSize.choose(request.cellSize, request.profiles.maxNeighborDist));
  cudaEventRecord(events_[1]);
  // Candidate lists are a CPU economy for now (the work's lists stay off): the GPU searches the
  // grid each step.
  WorkingArraysOf<Vector> work;
  work.agents = sorted_.arrays();
  work.count = n;
  work.cells = GridCells{hostGrid_, occupied_.data(), bucketStart_.data(), slotKey_.data()};
  work.neighbours = NeighbourTable{neighbourSlots_.data(), neighbourCount_.data(), 1, n};  // Columns.
  work.newVelocity = newVelocity_.data();
  work.terms = terms_.data();
  work.steering = steering_.data();
  work.world = world_.view();
  if (steers_) {
    const bool targets = request.steering->anyTargets();
    work.state = state_.view(targets);
    if (targets) {
      cudaCheck(cudaMemset(state_.slotOfId(), 0xFF, state_.size() * sizeof(int)), "clear slots");  // All -1.
      slotOfIdKernel<<<blocksFor(n), kBlock>>>(n, sorted_.id.data(), state_.slotOfId());
      cudaCheck(cudaGetLastError(), "slot of id kernel");
    }
  }
  return work;
}

template <class Vector>
StepTally CudaExecutorOf<Vector>::runPhases(const StepViewOf<Vector>& view, const ProfileTable& profiles,
                                            PhaseTimes& times) {
  // Neighbour lists column-major: neighbouring threads write neighbouring words.
  const bool registerNeighbours = neighboursInRegisters(profiles.maxNeighbors, lastCandidatesPerAgent_);
  launchPhases(AgentPhases{}, view, profiles, registerNeighbours, tally_.data(), events_);
  StepTally tally{};
  tally_.download(&tally, 1);  // Waits for the step.
  for (int phase = 0; phase < kPhaseCount; ++phase) {
    float ms = 0.0f;
    cudaCheck(cudaEventElapsedTime(&ms, events_[phase], events_[phase + 1]), "phase timing");
    times.ms[phase] = ms;
  }
  lastCandidatesPerAgent_ = static_cast<double>(tally.candidates) / static_cast<double>(view.count);
  return tally;
}

template <class Vector>
void CudaExecutorOf<Vector>::accept(const StepTally&) {
  const int n = static_cast<int>(agents_.size());
  permuteAgentsKernel<Vector>
      <<<blocksFor(n), kBlock>>>(n, order_.data(), sorted_.arrays(), agents_.arrays(), true);
  cudaCheck(cudaGetLastError(), "scatter kernel");
  if (steers_) state_.flip();
}

template <class Vector>
std::vector<std::size_t> CudaExecutorOf<Vector>::arrivals() {
  const int n = static_cast<int>(agents_.size());
  cudaCheck(cudaMemset(arrivalCount_.data(), 0, sizeof(int)), "clear arrivals");
  arrivalsKernel<<<blocksFor(n), kBlock>>>(n, agents_.flags.data(), arrivalList_.data(),
                                           arrivalCount_.data());
  cudaCheck(cudaGetLastError(), "arrivals kernel");
  int count = 0;
  arrivalCount_.download(&count, 1);
  std::vector<int> arrived(static_cast<std::size_t>(count));
  arrivalList_.download(arrived.data(), arrived.size());
  return std::vector<std::size_t>(arrived.begin(), arrived.end());
}

template <class Vector>
NonFiniteAgentOf<Vector> CudaExecutorOf<Vector>::firstNonFinite() {
  const std::size_t n = agents_.size();
  AgentStoreOf<Vector> sorted;
  sorted_.download(sorted);
  std::vector<Vector> velocity(n);
  newVelocity_.download(velocity.data(), velocity.size());
  std::vector<int> order(n);
  order_.download(order.data(), order.size());
  return crowd::firstNonFinite<Vector>(velocity, sorted, [&](std::size_t k) { return order[k]; });
}

}  // namespace

template <class Vector>
std::unique_ptr<ExecutorOf<Vector>> makeCudaExecutor() {
  return std::make_unique<CudaExecutorOf<Vector>>();
}
template std::unique_ptr<ExecutorOf<Vec2>> makeCudaExecutor<Vec2>();
template std::unique_ptr<ExecutorOf<Vec3>> makeCudaExecutor<Vec3>();

}  // namespace crowd
