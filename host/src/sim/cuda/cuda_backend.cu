// The CUDA backend: an executor that runs the step's phases (kernels/step_phases.hpp) on the GPU,
// one thread per agent, through one generic kernel. The agents' state stays on the device
// between steps, in dense order; each step gathers it into cell order, runs the phases and
// scatters it back, unless some result was not finite. The host reads back one small tally per
// step; the host copy is refreshed only when something reads it. One class steps both worlds
// (Vector Vec2 or Vec3); obstacles, paths, reference lines and steering state are planar only.
#include <cub/cub.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <type_traits>
#include <vector>

#include <crowd/kernels/step_phases.hpp>

#include "sim/agent_store.hpp"
#include "sim/backend.hpp"
#include "sim/cuda/device_agent_store.cuh"
#include "sim/cuda/device_buffer.cuh"
#include "sim/cuda/device_steering_state.cuh"
#include "sim/cuda/phase_launch.cuh"
#include "sim/cuda/step_kernels.cuh"

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
    return std::string("no usable CUDA device (") + cudaGetErrorString(status) + "; " + cudaVersions() + ")";
  }
  if (devices == 0) return "no CUDA device is present (" + cudaVersions() + ")";
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) return "the CUDA device cannot be queried";
  // The build holds sm_90 code and compute_90 PTX: Hopper and newer only.
  if (properties.major < 9) {
    return std::string(properties.name) + " has compute capability " + std::to_string(properties.major) + "." +
           std::to_string(properties.minor) + "; this build needs 9.0 or newer";
  }
  return {};
}

template <class Vector>
class CudaBackendOf final : public BackendOf<Vector> {
 public:
  static constexpr bool kPlanar = std::is_same_v<Vector, Vec2>;
  using Request = typename BackendOf<Vector>::Request;
  using Report = StepReportOf<Vector>;

  CudaBackendOf() {
    cudaCheck(cudaSetDevice(0), "cudaSetDevice");
    cudaDeviceProp properties{};
    cudaCheck(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    deviceName_ = properties.name;
    for (cudaEvent_t& e : events_) cudaCheck(cudaEventCreate(&e), "cudaEventCreate");
  }
  ~CudaBackendOf() override {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }

  std::string name() const override { return "cuda"; }
  Report step(const Request& request) override {
    const auto start = std::chrono::steady_clock::now();
    Report report;
    try {
      report = stepOnDevice(request);
    } catch (...) {
      deviceValid_ = false;  // Whatever the device holds now is suspect: upload again.
      throw;
    }
    // Host-side work (uploads, the tally read-back, arrivals) lies outside the device events;
    // count it under commit so totals are the real cost of a step.
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (wall > report.times.total()) report.times[Phase::Commit] += wall - report.times.total();
    return report;
  }
  bool holdsState() const override { return true; }
  void download(AgentStoreOf<Vector>& host) override {
    if (!deviceValid_) return;
    agents_.download(host);
    if (hostState_ != nullptr) state_.download(*hostState_);
  }
  void invalidate() override { deviceValid_ = false; }
  void prepare(const Request& request) override {
    if (!deviceValid_) upload(request);
  }
  std::size_t deviceBytes() const override;
  DeviceAgents deviceAgents() const override {
    if constexpr (kPlanar) {
      if (!deviceValid_ || terms_.data() == nullptr) return {};
      return DeviceAgents{agents_.position.data(), agents_.velocity.data(), agents_.profile.data(), terms_.data(),
                          agents_.size()};
    }
    return {};  // A 3D world is not drawn.
  }


 private:
  Report stepOnDevice(const Request& request);
  void upload(const Request& request);
  // The planar world's obstacles, paths, reference lines and steering state.
  void uploadPlanarWorld(const StepRequest& request);
  void buildGrid(int n, float cellSize);
  // What the phases read and write this step.
  /// What both worlds' views hold alike: the sorted state, the grid, the profiles, the
  /// neighbour table and the new velocities.
  template <class View>
  void shareState(View& view, int n);
  StepView planarView(const StepRequest& request, int n);
  StepView3 view3(const StepRequest3& request, int n);
  NonFiniteAgentOf<Vector> firstNonFinite(int n);

  std::string deviceName_;
  bool deviceValid_ = false;
  int stride_ = 0;
  std::uint32_t buckets_ = 0;
  CellSizeChooser cellSize_;
  double lastCandidatesPerAgent_ = 0.0;  // Picks the neighbour search's list (neighboursInRegisters).
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
  DeviceBuffer<Vec2> pathPoints_;
  DeviceBuffer<int> pathStart_;
  DeviceBuffer<std::uint8_t> pathLoop_;
  int pathCount_ = 0;
  DeviceBuffer<ReferencePoint> linePoints_;
  DeviceBuffer<int> lineBegin_, lineEnd_;
  int lineCount_ = 0;
  double lineSpacing_ = 0.0;
  DeviceBuffer<CircleObstacle> circles_;
  DeviceSteeringState state_;
  DeviceBuffer<AgentId> targets_;  // A 3D world's targets, by agent id (its only steering state).
  DeviceBuffer<int> slotOfId3_;
  DeviceBuffer<Vec3> wanderIn_, wanderOut_;  // A 3D world's wander directions, by agent id.
  SteeringStore* hostState_ = nullptr;  // Where download() puts the steering state.
  DeviceBuffer<ObstacleEdge> edges_;
  DeviceBuffer<int> edgeCellStart_, cellEdges_;
  DeviceBuffer<Bounds> bounds_;
  DeviceBuffer<AgentGrid> grid_;
  DeviceBuffer<StepTally> tally_;
  DeviceBuffer<int> arrivalCount_;
  DeviceBuffer<unsigned char> scratch_;  // cub's temporary storage.
  GridGeometry edgeGrid_{};
  AgentGrid hostGrid_{};
};

template <class Vector>
std::size_t CudaBackendOf<Vector>::deviceBytes() const {
  return agents_.bytes() + sorted_.bytes() + sortKey_.bytes() + slotKey_.bytes() +
         occupied_.bytes() + agentIndex_.bytes() + order_.bytes() + bucketStart_.bytes() + neighbourSlots_.bytes() + neighbourCount_.bytes() + arrivalList_.bytes() +
         newVelocity_.bytes() + terms_.bytes() + edges_.bytes() + edgeCellStart_.bytes() + cellEdges_.bytes() +
         scratch_.bytes() + steering_.bytes() + pathPoints_.bytes() + pathStart_.bytes() + pathLoop_.bytes() +
         linePoints_.bytes() + lineBegin_.bytes() + lineEnd_.bytes() +
         circles_.bytes() + state_.bytes() + targets_.bytes() + slotOfId3_.bytes() +
         wanderIn_.bytes() + wanderOut_.bytes();
}

template <class Vector>
void CudaBackendOf<Vector>::upload(const Request& request) {
  const std::size_t n = request.agents.size();
  // Refuse a scenario that cannot fit before allocating any of it: two copies of the columns,
  // grid keys and indices, the neighbour table, and the phase kernels' per-thread stack, which
  // the driver reserves for every thread that can be resident at once.
  const std::size_t perAgent = 2 * static_cast<std::size_t>(kAgentColumnBytesOf<Vector>) + 2 * sizeof(std::uint64_t) +
                               5 * sizeof(int) + sizeof(Vector) +
                               static_cast<std::size_t>(request.profiles.maxNeighbors) * sizeof(int);
  std::size_t stack = 0;
  using View = std::conditional_t<kPlanar, StepView, StepView3>;
  for (const void* kernel : {reinterpret_cast<const void*>(phaseKernel<NeighboursPhase, View>),
                             reinterpret_cast<const void*>(phaseKernel<OrcaPhase, View>)}) {
    cudaFuncAttributes attributes{};
    cudaCheck(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes");
    stack = std::max(stack, attributes.localSizeBytes);
  }
  cudaDeviceProp properties{};
  cudaCheck(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  const std::size_t stackReserve = stack * static_cast<std::size_t>(properties.multiProcessorCount) *
                                   static_cast<std::size_t>(properties.maxThreadsPerMultiProcessor);
  const std::size_t needed = n * perAgent + 2 * bucketCountFor(static_cast<long long>(n)) * sizeof(int) +
                             stackReserve + (64u << 20);
  std::size_t freeBytes = 0, totalBytes = 0;
  cudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
  if (needed > freeBytes + deviceBytes()) {
    throw std::runtime_error("the scenario needs about " + std::to_string(needed >> 20) + " MiB of device memory, but " +
                             deviceName_ + " has " + std::to_string(freeBytes >> 20) + " MiB free");
  }
  agents_.upload(request.agents);
  // The profile table too, not only at the first step: a viewer draws the state before it.
  terms_.upload(request.profiles.terms.data(), request.profiles.terms.size());
  sorted_.resize(n);
  for (auto* buffer : {&sortKey_, &slotKey_}) buffer->resize(n);
  for (auto* buffer : {&agentIndex_, &order_, &neighbourCount_, &arrivalList_}) buffer->resize(n);
  newVelocity_.resize(n);
  if constexpr (kPlanar) uploadPlanarWorld(request);
  bounds_.resize(1);
  grid_.resize(1);
  tally_.resize(1);
  arrivalCount_.resize(1);
  deviceValid_ = true;
}

template <class Vector>
void CudaBackendOf<Vector>::uploadPlanarWorld(const StepRequest& request) {
  const ObstacleSet& obstacles = request.obstacles;
  if (!obstacles.empty()) {
    edges_.upload(obstacles.edges().data(), obstacles.edges().size());
    edgeCellStart_.upload(obstacles.cellStart().data(), obstacles.cellStart().size());
    cellEdges_.upload(obstacles.cellEdges().data(), obstacles.cellEdges().size());
    edgeGrid_ = obstacles.grid();
  } else {
    edges_.resize(0);
  }
  circles_.upload(obstacles.circles().data(), obstacles.circles().size());
  const PathView& paths = request.paths;
  pathCount_ = paths.start != nullptr ? paths.count : 0;
  const int noPaths = 0;
  pathStart_.upload(pathCount_ > 0 ? paths.start : &noPaths, static_cast<std::size_t>(pathCount_) + 1);
  pathPoints_.upload(paths.points, pathCount_ > 0 ? static_cast<std::size_t>(paths.start[pathCount_]) : 0);
  pathLoop_.upload(paths.loop, static_cast<std::size_t>(pathCount_));
  const ReferenceLines& lines = request.lines;
  lineCount_ = lines.begin != nullptr ? lines.count : 0;
  lineBegin_.upload(lineCount_ > 0 ? lines.begin : &noPaths, std::max(lineCount_, 1));
  lineEnd_.upload(lineCount_ > 0 ? lines.end : &noPaths, std::max(lineCount_, 1));
  std::size_t samples = 0;  // The lines lie one after another: up to the furthest end.
  for (int p = 0; p < lineCount_; ++p) samples = std::max(samples, static_cast<std::size_t>(lines.end[p]));
  linePoints_.upload(lines.points, samples);
  lineSpacing_ = lines.spacing;
  hostState_ = request.steering;
  if (hostState_ != nullptr) state_.upload(*hostState_);
}

template <class Vector>
void CudaBackendOf<Vector>::buildGrid(int n, float cellSize) {
  // The bounding box is reduced on the device; the host reads back the grid over it (24
  // bytes), since the sort's key width depends on how many cells the box holds.
  auto boxes = thrust::make_transform_iterator(agents_.position.data(), BoundsOfPosition{});
  const Bounds empty{INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
  std::size_t reduceBytes = 0;
  cudaCheck(cub::DeviceReduce::Reduce(nullptr, reduceBytes, boxes, bounds_.data(), n, BoundsUnion{}, empty),
            "reduce size");
  scratch_.resize(reduceBytes);
  cudaCheck(cub::DeviceReduce::Reduce(scratch_.data(), reduceBytes, boxes, bounds_.data(), n, BoundsUnion{}, empty),
            "bounds");
  gridKernel<Vector><<<1, 1>>>(bounds_.data(), cellSize, buckets_, grid_.data());
  cudaCheck(cudaGetLastError(), "grid kernel");
  grid_.download(&hostGrid_, 1);

  const int bucketBits = bitsFor(buckets_);
  const int keyBits = std::max(
      bucketBits, bitsFor(static_cast<unsigned long long>(hostGrid_.columns) * hostGrid_.rows * hostGrid_.layers));
  keyKernel<<<blocksFor(n), kBlock>>>(n, agents_.position.data(), hostGrid_, bucketBits, keyBits, sortKey_.data(),
                                      agentIndex_.data());
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
  bucketStartKernel<<<blocksFor(std::max(static_cast<int>(buckets_) + 1, n)), kBlock>>>(n, hostGrid_, buckets_, slotKey_.data(), bucketStart_.data(),
                                                  occupied_.data());
  cudaCheck(cudaGetLastError(), "bucket start kernel");
  permuteAgentsKernel<Vector><<<blocksFor(n), kBlock>>>(n, order_.data(), agents_.arrays(), sorted_.arrays(), false);
  cudaCheck(cudaGetLastError(), "gather kernel");
}

template <class Vector>
template <class View>
void CudaBackendOf<Vector>::shareState(View& view, int n) {
  view.agents = sorted_.arrays();
  view.count = n;
  view.cells = GridCells{hostGrid_, occupied_.data(), bucketStart_.data(), slotKey_.data()};
  view.terms = terms_.data();
  view.steering = steering_.data();
  view.neighbours = NeighbourTable{neighbourSlots_.data(), neighbourCount_.data(), 1, n};  // Columns.
  view.newVelocity = newVelocity_.data();
}

template <class Vector>
StepView CudaBackendOf<Vector>::planarView(const StepRequest& request, int n) {
  // Candidate lists are a CPU economy for now (stepSettings leaves them off): the GPU searches
  // the grid each step.
  StepView view = stepSettings(request, cellSize_.nearThresholdSq());
  shareState(view, n);
  view.obstacles = ObstacleView{edges_.data(), static_cast<int>(edges_.size()), edgeGrid_, edgeCellStart_.data(),
                                cellEdges_.data()};
  view.paths = PathView{pathPoints_.data(), pathStart_.data(), pathLoop_.data(), pathCount_};
  view.lines = ReferenceLines{linePoints_.data(), lineBegin_.data(), lineEnd_.data(), lineCount_, lineSpacing_};
  view.circles = circles_.data();
  if (request.steering != nullptr) {
    const bool targets = request.steering->anyTargets();
    view.state = state_.view(targets);
    if (targets) {
      cudaCheck(cudaMemset(state_.slotOfId(), 0xFF, state_.size() * sizeof(int)), "clear slots");  // All -1.
      slotOfIdKernel<<<blocksFor(n), kBlock>>>(n, sorted_.id.data(), state_.slotOfId());
      cudaCheck(cudaGetLastError(), "slot of id kernel");
    }
  }
  return view;
}

template <class Vector>
StepView3 CudaBackendOf<Vector>::view3(const StepRequest3& request, int n) {
  StepView3 view = stepSettings3(request, cellSize_.nearThresholdSq());
  shareState(view, n);
  if (request.wanderIn != nullptr) {
    // The wander directions go up before the step and come back after it (stepOnDevice): the
    // host keeps a 3D world's steering state.
    wanderIn_.upload(request.wanderIn, static_cast<std::size_t>(request.idCount));
    wanderOut_.resize(static_cast<std::size_t>(request.idCount));
    view.wanderIn = wanderIn_.data();
    view.wanderOut = wanderOut_.data();
  }
  if (request.targets != nullptr) {
    targets_.upload(request.targets, static_cast<std::size_t>(request.idCount));
    slotOfId3_.resize(static_cast<std::size_t>(request.idCount));
    cudaCheck(cudaMemset(slotOfId3_.data(), 0xFF, slotOfId3_.size() * sizeof(int)), "clear slots");  // All -1.
    slotOfIdKernel<<<blocksFor(n), kBlock>>>(n, sorted_.id.data(), slotOfId3_.data());
    cudaCheck(cudaGetLastError(), "slot of id kernel");
    view.target = targets_.data();
    view.slotOfId = slotOfId3_.data();
    view.idCount = request.idCount;
  }
  return view;
}

template <class Vector>
StepReportOf<Vector> CudaBackendOf<Vector>::stepOnDevice(const Request& request) {
  Report report;
  const ProfileTable& profiles = request.profiles;
  if (!deviceValid_) upload(request);
  terms_.upload(profiles.terms.data(), profiles.terms.size());
  steering_.upload(profiles.steering.data(), profiles.steering.size());
  if constexpr (kPlanar) {
    if (request.steering != nullptr && (hostState_ != request.steering || state_.size() != request.steering->size() ||
                                        state_.tracked() != request.steering->hasTracks())) {
      hostState_ = request.steering;  // Steering began since the upload: the host's state is current.
      state_.upload(*hostState_);
    }
  }
  const int n = static_cast<int>(agents_.size());
  if (n == 0) return report;
  if (stride_ != profiles.maxNeighbors || neighbourSlots_.size() < static_cast<std::size_t>(n) * stride_) {
    stride_ = profiles.maxNeighbors;
    neighbourSlots_.resize(static_cast<std::size_t>(n) * std::max(stride_, 1));
  }
  buckets_ = bucketCountFor(n);
  cudaCheck(cudaMemset(tally_.data(), 0, sizeof(StepTally)), "clear tally");

  cudaEventRecord(events_[0]);
  buildGrid(n, cellSize_.choose(request.cellSize, profiles.maxNeighborDist));
  cudaEventRecord(events_[1]);
  // Neighbour lists column-major: neighbouring threads write neighbouring words.
  const bool registerNeighbours = neighboursInRegisters(profiles.maxNeighbors, lastCandidatesPerAgent_);
  if constexpr (kPlanar) {
    runPhases(AgentPhases{}, planarView(request, n), profiles, registerNeighbours, tally_.data(), events_);
  } else {
    runPhases(AgentPhases{}, view3(request, n), profiles, registerNeighbours, tally_.data(), events_);
  }

  StepTally tally{};
  tally_.download(&tally, 1);  // Waits for the step.
  for (int phase = 0; phase < kPhaseCount; ++phase) {
    float ms = 0.0f;
    cudaCheck(cudaEventElapsedTime(&ms, events_[phase], events_[phase + 1]), "phase timing");
    report.times.ms[phase] = ms;
  }
  reportTally(tally, n, report);
  lastCandidatesPerAgent_ = report.candidatesPerAgent;
  cellSize_.observe(n, tally.rangeSum);
  if (tally.nonFinite > 0) {
    report.nonFinite = firstNonFinite(n);
    return report;  // The dense state on the device is untouched: the step is not applied.
  }
  permuteAgentsKernel<Vector><<<blocksFor(n), kBlock>>>(n, order_.data(), sorted_.arrays(), agents_.arrays(), true);
  cudaCheck(cudaGetLastError(), "scatter kernel");
  if constexpr (kPlanar) {
    if (request.steering != nullptr) state_.flip();
  } else {
    if (request.wanderOut != nullptr) wanderOut_.download(request.wanderOut, static_cast<std::size_t>(request.idCount));
  }
  if (tally.arrivals > 0) {
    cudaCheck(cudaMemset(arrivalCount_.data(), 0, sizeof(int)), "clear arrivals");
    arrivalsKernel<<<blocksFor(n), kBlock>>>(n, agents_.flags.data(), arrivalList_.data(), arrivalCount_.data());
    cudaCheck(cudaGetLastError(), "arrivals kernel");
    int count = 0;
    arrivalCount_.download(&count, 1);
    std::vector<int> arrived(static_cast<std::size_t>(count));
    arrivalList_.download(arrived.data(), arrived.size());
    std::sort(arrived.begin(), arrived.end());
    report.arrived.assign(arrived.begin(), arrived.end());
  }
  return report;
}

template <class Vector>
NonFiniteAgentOf<Vector> CudaBackendOf<Vector>::firstNonFinite(int n) {
  AgentStoreOf<Vector> sorted;
  sorted_.download(sorted);
  std::vector<Vector> velocity(static_cast<std::size_t>(n));
  newVelocity_.download(velocity.data(), velocity.size());
  std::vector<int> order(static_cast<std::size_t>(n));
  order_.download(order.data(), order.size());
  std::size_t first = velocity.size();
  for (std::size_t k = 0; k < velocity.size(); ++k) {
    if (isFinite(velocity[k]) && isFinite(sorted.position[k])) continue;
    if (first == velocity.size() || sorted.id[k].index < sorted.id[first].index) first = k;
  }
  return NonFiniteAgentOf<Vector>{static_cast<std::size_t>(order[first]), velocity[first], sorted.position[first]};
}

std::unique_ptr<Backend> makeCudaBackend() { return std::make_unique<CudaBackendOf<Vec2>>(); }
std::unique_ptr<Backend3> makeCudaBackend3() { return std::make_unique<CudaBackendOf<Vec3>>(); }

}  // namespace crowd
