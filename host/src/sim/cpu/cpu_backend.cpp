// The CPU backend: an executor that runs each phase of kernels/step_phases.hpp as an OpenMP loop
// over the agents in cell order. Every loop writes only its own agent's outputs from inputs no
// loop of the same phase writes, so the result is bit-identical for any thread count. One class
// steps both worlds (Vector Vec2 or Vec3); only a planar world has obstacles and steering state.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include <omp.h>

#include <crowd/kernels/step_phases.hpp>

#include "sim/agent_store.hpp"
#include "sim/backend.hpp"
#include "sim/cpu/cpu_agent_grid.hpp"

namespace crowd {
namespace {

class Stopwatch {
 public:
  /// Milliseconds since the last lap (or construction).
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// Runs phase P over every agent: each thread keeps its own scratch and tally.
template <class P, class View>
StepTally runPhase(const View& view, int threads) {
  StepTally total;
#pragma omp parallel num_threads(threads)
  {
    typename P::Scratch scratch{};
    StepTally mine;
    // Chunks of consecutive slots: neighbours in memory, and agents that share a home cell
    // share the neighbour phase's cell cache.
#pragma omp for schedule(dynamic, 256) nowait
    for (int k = 0; k < view.count; ++k) P::run(view, k, scratch, mine);
#pragma omp critical(crowd_step_tally)
    total += mine;
  }
  return total;
}

template <class... P, class View>
StepTally runPhases(PhaseList<P...>, const View& view, int threads, PhaseTimes& times, Stopwatch& clock) {
  StepTally tally;
  ((tally += runPhase<P>(view, threads), times[P::kPhase] = clock.lap()), ...);
  return tally;
}

// The agents stay in cell order between steps, in the backend's working copy: each step
// gathers them from the previous step's order, which differs little from the new one, so the
// gather reads memory almost in sequence; the host store (dense order) is written only when
// someone reads it (download), as a GPU backend's host copy is.
template <class Vector>
class CpuBackendOf final : public BackendOf<Vector> {
 public:
  static constexpr bool kPlanar = std::is_same_v<Vector, Vec2>;
  using Store = AgentStoreOf<Vector>;
  using Request = typename BackendOf<Vector>::Request;
  using Report = StepReportOf<Vector>;

  std::string name() const override { return "cpu"; }
  Report step(const Request& request) override;
  bool holdsState() const override { return holdsState_; }
  void download(Store& agents) override;
  void invalidate() override { current_ = false; }
  std::size_t hostBytes() const override {
    return working_.bytes() + previous_.bytes() + grid_.bytes() +
           (denseOf_.capacity() + previousDenseOf_.capacity() + neighbourSlots_.capacity() +
            neighbourCount_.capacity() + listSlots_.capacity() + listCount_.capacity() + slotOfId_.capacity()) *
               sizeof(int) +
           newVelocity_.capacity() * sizeof(Vector);
  }

 private:
  // The first agent (lowest id) whose result is not finite.
  NonFiniteAgentOf<Vector> firstNonFinite() const;
  // The store's arrays, with the slot of every live id when some agent has a target.
  SteeringState steeringState(SteeringStore& store);
  // slotOfId_: the sorted slot of each of `ids` agent ids, -1 for none.
  void fillSlotOfId(std::size_t ids);
  // The step's view of what the phases read and write.
  /// What both worlds' views hold alike: the working copy, the grid, the profiles, the
  /// neighbour table, the new velocities and the candidate lists.
  template <class View>
  void shareState(View& view, const ProfileTable& profiles, int n, ListMode listMode);
  StepView planarView(const StepRequest& request, int n, ListMode listMode);
  StepView3 view3(const StepRequest3& request, int n, ListMode listMode);

  CellSizeChooser cellSize_;
  CpuAgentGrid grid_;
  Store working_;                 // The agents in cell order: the newest state after a step.
  Store previous_;                // The working copy before this step (gathered from), in its order.
  std::vector<int> denseOf_;      // The dense index of each working slot.
  std::vector<int> previousDenseOf_;
  bool current_ = false;          // working_ holds the agents of the host store (none added or removed since).
  bool holdsState_ = false;       // working_ is newer than the host store.
  // Candidate lists (candidate_lists.hpp), made in sparse crowds.
  // Enough for a sparse agent's list (a ring of agents: about 7; the sphere's spread-out start
  // in 3D, about 7 too); a fuller one overflows, and then the grid is searched until the next
  // build. Each place costs 4 bytes an agent.
  static constexpr int kListCapacity = 10;
  static_assert(kListCapacity <= ListCandidates<Vector>::kCapacity, "a list is read through offerCandidates");
  std::vector<int> listSlots_;
  std::vector<int> listCount_;
  bool listsValid_ = false;       // Made at the last grid build, none incomplete.
  float listSkin_ = 0.0f;
  float listNeighborDist_ = 0.0f;  // The largest neighbour distance they were made for.
  float movedSinceLists_ = 0.0f;   // The farthest any agent can have moved since.
  int threads_ = 1;               // As the last step was asked to use.
  std::vector<int> neighbourSlots_;
  std::vector<int> neighbourCount_;
  std::vector<Vector> newVelocity_;
  std::vector<int> slotOfId_;     // Sorted slot of each agent id (for targets), -1 for none.
};

template <class Vector>
SteeringState CpuBackendOf<Vector>::steeringState(SteeringStore& store) {
  SteeringState state = store.view();
  if (!store.anyTargets()) {
    state.idCount = 0;  // No agent looks another up.
    return state;
  }
  fillSlotOfId(store.size());
  state.slotOfId = slotOfId_.data();
  return state;
}

template <class Vector>
template <class View>
void CpuBackendOf<Vector>::shareState(View& view, const ProfileTable& profiles, int n, ListMode listMode) {
  view.agents = working_.arrays();
  view.count = n;
  view.cells = grid_.cells();
  view.terms = profiles.terms.data();
  view.steering = profiles.steering.data();
  view.neighbours = NeighbourTable{neighbourSlots_.data(), neighbourCount_.data(), profiles.maxNeighbors, 1};  // Rows.
  view.newVelocity = newVelocity_.data();
  view.lists = CandidateLists{listSlots_.data(), listCount_.data(), kListCapacity, listSkin_, listMode};
}

template <class Vector>
StepView CpuBackendOf<Vector>::planarView(const StepRequest& request, int n, ListMode listMode) {
  const ObstacleSet& obstacles = request.obstacles;
  StepView view = stepSettings(request, cellSize_.nearThresholdSq());
  shareState(view, request.profiles, n, listMode);
  view.obstacles = ObstacleView{obstacles.edges().data(), static_cast<int>(obstacles.edges().size()),
                                obstacles.grid(), obstacles.cellStart().data(), obstacles.cellEdges().data()};
  view.paths = request.paths;
  view.lines = request.lines;
  view.circles = obstacles.circles().data();
  if (request.steering != nullptr) view.state = steeringState(*request.steering);
  return view;
}

template <class Vector>
StepView3 CpuBackendOf<Vector>::view3(const StepRequest3& request, int n, ListMode listMode) {
  StepView3 view = stepSettings3(request, cellSize_.nearThresholdSq());
  shareState(view, request.profiles, n, listMode);
  if (request.targets != nullptr) {
    fillSlotOfId(static_cast<std::size_t>(request.idCount));
    view.target = request.targets;
    view.slotOfId = slotOfId_.data();
    view.idCount = request.idCount;
  }
  return view;
}

template <class Vector>
void CpuBackendOf<Vector>::fillSlotOfId(std::size_t ids) {
  slotOfId_.assign(ids, -1);
  const int n = static_cast<int>(working_.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
  for (int k = 0; k < n; ++k) slotOfId_[working_.id[k].index] = k;
}

template <class Vector>
StepReportOf<Vector> CpuBackendOf<Vector>::step(const Request& request) {
  const int threads = request.threads > 0 ? request.threads : omp_get_max_threads();
  threads_ = threads;
  const int n = static_cast<int>(request.agents.size());
  const ProfileTable& profiles = request.profiles;
  Report report;
  Stopwatch clock;

  // While no pair can have closed the candidate lists' skin, the grid stays as it is and the
  // lists give the neighbours; the columns a step writes are kept, in case it is refused.
  const bool useLists = current_ && listsValid_ && 2.0f * movedSinceLists_ < listSkin_ &&
                        profiles.maxNeighborDist == listNeighborDist_;
  if (useLists) {
    copyStepColumns(previous_, working_, threads);
  } else {
    // Gather from the last step's working copy when it is current, else from the host store.
    std::swap(previous_, working_);
    std::swap(previousDenseOf_, denseOf_);
    const bool fromPrevious = current_;
    const Store& source = fromPrevious ? previous_ : request.agents;
    grid_.build(source.position, cellSize_.choose(request.cellSize, profiles.maxNeighborDist),
                threads);
    gatherAgents(working_, source, grid_.order(), threads);
    denseOf_.resize(static_cast<std::size_t>(n));
    const std::vector<int>& order = grid_.order();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int k = 0; k < n; ++k) denseOf_[k] = fromPrevious ? previousDenseOf_[order[k]] : order[k];
  }
  const ListMode listMode =
      useLists ? ListMode::Use : (cellSize_.sparse() ? ListMode::Build : ListMode::None);
  if (listMode == ListMode::Build) {
    listSkin_ = cellSize_.listSkin();
    listNeighborDist_ = profiles.maxNeighborDist;
    listSlots_.resize(static_cast<std::size_t>(n) * (kListCapacity + 1));
    listCount_.resize(static_cast<std::size_t>(n));
  }
  report.times[Phase::Grid] = clock.lap();

  const int stride = profiles.maxNeighbors;
  neighbourSlots_.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(stride));
  neighbourCount_.resize(static_cast<std::size_t>(n));
  newVelocity_.resize(static_cast<std::size_t>(n));
  StepTally tally;
  if constexpr (kPlanar) {
    tally = runPhases(AgentPhases{}, planarView(request, n, listMode), threads, report.times, clock);
  } else {
    tally = runPhases(AgentPhases{}, view3(request, n, listMode), threads, report.times, clock);
  }
  reportTally(tally, n, report);
  cellSize_.observe(n, tally.rangeSum);
  if (tally.nonFinite > 0) {
    report.nonFinite = firstNonFinite();
    // Not applied: the state is what the step started from (the previous working copy, or
    // the host store if that was current).
    if (useLists) {
      copyStepColumns(working_, previous_, threads);
    } else {
      std::swap(previous_, working_);
      std::swap(previousDenseOf_, denseOf_);
    }
    return report;
  }
  current_ = true;
  holdsState_ = true;
  // How far anyone can have moved since the lists were made: this step's largest displacement
  // (the subtraction that measured it is exact; the factor covers the square and root).
  const float moved = std::sqrt(tally.maxMoveSq) * 1.000001f;
  if (listMode == ListMode::Build) {
    listsValid_ = tally.listOverflows == 0;
    movedSinceLists_ = moved;
  } else if (listMode == ListMode::Use) {
    movedSinceLists_ += moved;
  } else {
    listsValid_ = false;
  }
  if (tally.arrivals > 0) {
    for (int k = 0; k < n; ++k) {
      if ((working_.flags[k] & kArrivedNow) != 0) report.arrived.push_back(static_cast<std::size_t>(denseOf_[k]));
    }
    std::sort(report.arrived.begin(), report.arrived.end());
  }
  report.times[Phase::Commit] += clock.lap();
  return report;
}

template <class Vector>
void CpuBackendOf<Vector>::download(Store& agents) {
  if (!holdsState_) return;
  scatterAgents(agents, working_, denseOf_, threads_);
  holdsState_ = false;
}

template <class Vector>
NonFiniteAgentOf<Vector> CpuBackendOf<Vector>::firstNonFinite() const {
  std::size_t first = newVelocity_.size();
  for (std::size_t k = 0; k < newVelocity_.size(); ++k) {
    // The commit has moved the working copy already; the state the step began with is kept.
    if (isFinite(newVelocity_[k]) && isFinite(working_.position[k])) continue;
    if (first == newVelocity_.size() || working_.id[k].index < working_.id[first].index) first = k;
  }
  return NonFiniteAgentOf<Vector>{static_cast<std::size_t>(denseOf_[first]), newVelocity_[first], working_.position[first]};
}

}  // namespace

std::unique_ptr<Backend> makeCpuBackend() { return std::make_unique<CpuBackendOf<Vec2>>(); }
std::unique_ptr<Backend3> makeCpuBackend3() { return std::make_unique<CpuBackendOf<Vec3>>(); }

}  // namespace crowd
