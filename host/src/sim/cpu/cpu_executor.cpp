// The CPU executor: runs each phase of kernels/step_phases.hpp as an OpenMP loop over the agents
// in cell order. Every loop writes only its own agent's outputs from inputs no loop of the same
// phase writes, so the result is bit-identical for any thread count. One class serves both worlds
// (Vector Vec2 or Vec3).
//
// The agents stay in cell order between steps, in a working copy: each step gathers them from the
// previous step's order, which differs little from the new one, so the gather reads memory almost
// in sequence; the host store (dense order) is written only when someone reads it (download), as a
// GPU's host copy is. In sparse crowds, candidate lists (kernels/candidate_lists.hpp) spare the
// grid build for as long as no pair can have closed the lists' skin.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <type_traits>
#include <vector>

#include <crowd/kernels/step_phases.hpp>
#include <crowd/stop_request.hpp>

#include "sim/agent_store.hpp"
#include "sim/cpu/cpu_agent_grid.hpp"
#include "sim/cpu/thread_governor.hpp"
#include "sim/step/executor.hpp"

namespace crowd {
namespace {

class Stopwatch {
 public:
  /// Milliseconds since the last lap (or construction, or restart).
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }
  void restart() { last_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// Runs phase P over every agent: each thread keeps its own scratch and tally. A stop requested
/// (crowd/stop_request.hpp) skips the rest of a phase before the commit and throws Interrupted
/// after it: agents piled on one point make one step's neighbour search last minutes, and the
/// agents' state is still the one the step began with. The commit itself always runs whole.
template <class P, class View>
StepTally runPhase(const View& view, int threads) {
  constexpr bool kStoppable = !std::is_same_v<P, CommitPhase>;
  StepTally total;
#pragma omp parallel num_threads(threads)
  {
    typename P::Scratch scratch{};
    StepTally mine;
    // Chunks of consecutive slots: neighbours in memory, and agents that share a home cell
    // share the neighbour phase's cell cache.
#pragma omp for schedule(dynamic, 256) nowait
    for (int k = 0; k < view.count; ++k) {
      if (kStoppable && stopRequested() != 0) continue;  // No exception may leave the loop.
      P::run(view, k, scratch, mine);
    }
#pragma omp critical(crowd_step_tally)
    total += mine;
  }
  if (kStoppable) throwIfStopRequested("during a step");
  return total;
}

template <class... P, class View>
StepTally runPhaseList(PhaseList<P...>, const View& view, int threads, PhaseTimes& times, Stopwatch& clock) {
  StepTally tally;
  ((tally += runPhase<P>(view, threads), times[P::kPhase] = clock.lap()), ...);
  return tally;
}

template <class Vector>
class CpuExecutorOf final : public ExecutorOf<Vector> {
 public:
  using Store = AgentStoreOf<Vector>;
  using Request = StepRequestOf<Vector>;

  std::string name() const override { return "cpu"; }

  int begin(const Request& request) override {
    clock_.restart();
    stepStart_ = std::chrono::steady_clock::now();
    governed_ = request.threads <= 0;  // Left to the library: the governor picks, step by step.
    threads_ = governed_ ? governor_.choose(omp_get_max_threads()) : request.threads;
    return static_cast<int>(request.agents.size());
  }
  WorkingArraysOf<Vector> arrange(const Request& request, CellSizeChooser& cellSize,
                                  PhaseTimes& times) override;
  StepTally runPhases(const StepViewOf<Vector>& view, const ProfileTable&, PhaseTimes& times) override {
    return runPhaseList(AgentPhases{}, view, threads_, times, clock_);
  }
  NonFiniteAgentOf<Vector> firstNonFinite() override;
  void rollBack() override;
  void accept(const StepTally& tally) override;
  std::vector<std::size_t> arrivals() override;
  void finishTimes(PhaseTimes& times) override { times[Phase::Commit] += clock_.lap(); }

  bool holdsState() const override { return holdsState_; }
  int threadsUsed() const override { return stepped_ ? threads_ : 0; }
  void download(Store& agents, SteeringStoreOf<Vector>*) override {
    if (!holdsState_) return;
    scatterAgents(agents, working_, denseOf_, threads_);
    holdsState_ = false;
  }
  void invalidate() override { current_ = false; }
  std::size_t hostBytes() const override {
    return working_.bytes() + previous_.bytes() + grid_.bytes() +
           (denseOf_.capacity() + previousDenseOf_.capacity() + neighbourSlots_.capacity() +
            neighbourCount_.capacity() + listSlots_.capacity() + listCount_.capacity() +
            slotOfId_.capacity()) *
               sizeof(int) +
           newVelocity_.capacity() * sizeof(Vector);
  }

 private:
  // Gathers the agents into cell order under a new grid, from the last step's working copy when
  // it is current, else from the host store.
  void gatherIntoCells(const Request& request, float cellSize);

  Stopwatch clock_;
  int threads_ = 1;  // As this step was asked to use, or as the governor chose.
  bool governed_ = false;
  bool stepped_ = false;  // A step has run.
  ThreadGovernor governor_;
  std::chrono::steady_clock::time_point stepStart_;
  CpuAgentGrid grid_;
  Store working_;             // The agents in cell order: the newest state after a step.
  Store previous_;            // The working copy before this step (gathered from), in its order.
  std::vector<int> denseOf_;  // The dense index of each working slot.
  std::vector<int> previousDenseOf_;
  bool current_ = false;     // working_ holds the agents of the host store (none added or removed since).
  bool holdsState_ = false;  // working_ is newer than the host store.
  bool usingLists_ = false;  // This step finds neighbours from the lists, on the last grid.
  ListMode listMode_ = ListMode::None;
  // Candidate lists, made in sparse crowds. Enough for a sparse agent's list (a ring of agents:
  // about 7; the sphere's spread-out start in 3D, about 7 too); a fuller one overflows, and then
  // the grid is searched until the next build. Each place costs 4 bytes an agent.
  static constexpr int kListCapacity = 10;
  static_assert(kListCapacity <= ListCandidates<Vector>::kCapacity, "a list is read through offerCandidates");
  std::vector<int> listSlots_;
  std::vector<int> listCount_;
  bool listsValid_ = false;  // Made at the last grid build, none incomplete.
  float listSkin_ = 0.0f;
  float listNeighborDist_ = 0.0f;  // The largest neighbour distance they were made for.
  float movedSinceLists_ = 0.0f;   // The farthest any agent can have moved since.
  std::vector<int> neighbourSlots_;
  std::vector<int> neighbourCount_;
  std::vector<Vector> newVelocity_;
  std::vector<int> slotOfId_;  // Sorted slot of each agent id (for targets), -1 for none.
};

template <class Vector>
void CpuExecutorOf<Vector>::gatherIntoCells(const Request& request, float cellSize) {
  std::swap(previous_, working_);
  std::swap(previousDenseOf_, denseOf_);
  const bool fromPrevious = current_;
  const Store& source = fromPrevious ? previous_ : request.agents;
  grid_.build(source.position, cellSize, threads_);
  gatherAgents(working_, source, grid_.order(), threads_);
  const int n = static_cast<int>(request.agents.size());
  denseOf_.resize(static_cast<std::size_t>(n));
  const std::vector<int>& order = grid_.order();
#pragma omp parallel for schedule(static) num_threads(threads_)
  for (int k = 0; k < n; ++k) denseOf_[k] = fromPrevious ? previousDenseOf_[order[k]] : order[k];
}

template <class Vector>
WorkingArraysOf<Vector> CpuExecutorOf<Vector>::arrange(const Request& request, CellSizeChooser& cellSize,
                                                       PhaseTimes& times) {
  const int n = static_cast<int>(request.agents.size());
  const ProfileTable& profiles = request.profiles;
  // While no pair can have closed the candidate lists' skin, the grid stays as it is and the
  // lists give the neighbours; the columns a step writes are kept, in case it is refused.
  // A repeating world keeps none: they would miss the neighbours seen across its ends.
  const bool listsAllowed = !request.periodic.on();
  usingLists_ = listsAllowed && current_ && listsValid_ && 2.0f * movedSinceLists_ < listSkin_ &&
                profiles.maxNeighborDist == listNeighborDist_;
  if (usingLists_) {
    copyStepColumns(previous_, working_, threads_);
  } else {
    // The crowd's extent at the last build, with room for moves since (lists that still do not
    // fit are not made: the kernel checks each one).
    const float farthest = farthestMagnitude(grid_.geometry()) + 2.0f * profiles.maxNeighborDist;
    gatherIntoCells(request, cellSize.choose(request.cellSize, profiles.maxNeighborDist, farthest));
  }
  listMode_ =
      usingLists_ ? ListMode::Use : (cellSize.sparse() && listsAllowed ? ListMode::Build : ListMode::None);
  if (listMode_ == ListMode::Build) {
    listSkin_ = cellSize.listSkin();
    listNeighborDist_ = profiles.maxNeighborDist;
    listSlots_.resize(static_cast<std::size_t>(n) * (kListCapacity + 1));
    listCount_.resize(static_cast<std::size_t>(n));
  }
  const int stride = profiles.maxNeighbors;
  neighbourSlots_.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(stride));
  neighbourCount_.resize(static_cast<std::size_t>(n));
  newVelocity_.resize(static_cast<std::size_t>(n));

  WorkingArraysOf<Vector> work;
  work.agents = working_.arrays();
  work.count = n;
  work.cells = grid_.cells();
  work.neighbours = NeighbourTable{neighbourSlots_.data(), neighbourCount_.data(), stride, 1};  // Rows.
  work.newVelocity = newVelocity_.data();
  work.lists = CandidateLists{listSlots_.data(), listCount_.data(), kListCapacity, listSkin_, listMode_};
  work.terms = profiles.terms.data();
  work.steering = profiles.steering.data();
  work.world = request.world;
  if (request.steering != nullptr) {
    work.state = request.steering->view();
    if (work.state.idCount > 0) {
      slotOfId_.assign(request.steering->size(), -1);
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (int k = 0; k < n; ++k) slotOfId_[working_.id[k].index] = k;
      work.state.slotOfId = slotOfId_.data();
    }
  }
  times[Phase::Grid] = clock_.lap();
  return work;
}

template <class Vector>
NonFiniteAgentOf<Vector> CpuExecutorOf<Vector>::firstNonFinite() {
  // The commit has moved the working copy already; the state the step began with is kept.
  return crowd::firstNonFinite<Vector>(newVelocity_, working_, [&](std::size_t k) { return denseOf_[k]; });
}

template <class Vector>
void CpuExecutorOf<Vector>::rollBack() {
  // The state is what the step started from: the previous working copy, or the host store if
  // that was current.
  if (usingLists_) {
    copyStepColumns(working_, previous_, threads_);
  } else {
    std::swap(previous_, working_);
    std::swap(previousDenseOf_, denseOf_);
  }
}

template <class Vector>
void CpuExecutorOf<Vector>::accept(const StepTally& tally) {
  if (governed_) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stepStart_).count();
    governor_.record(threads_, seconds, static_cast<long long>(working_.size()));
  }
  stepped_ = true;
  current_ = true;
  holdsState_ = true;
  // How far anyone can have moved since the lists were made: this step's largest displacement
  // (the subtraction that measured it is exact; the factor covers the square and root).
  const float moved = std::sqrt(tally.maxMoveSq) * 1.000001f;
  if (listMode_ == ListMode::Build) {
    listsValid_ = tally.listOverflows == 0;
    movedSinceLists_ = moved;
  } else if (listMode_ == ListMode::Use) {
    movedSinceLists_ += moved;
  } else {
    listsValid_ = false;
  }
}

template <class Vector>
std::vector<std::size_t> CpuExecutorOf<Vector>::arrivals() {
  std::vector<std::size_t> arrived;
  for (std::size_t k = 0; k < working_.size(); ++k) {
    if ((working_.flags[k] & kArrivedNow) != 0) arrived.push_back(static_cast<std::size_t>(denseOf_[k]));
  }
  return arrived;
}

}  // namespace

template <class Vector>
std::unique_ptr<ExecutorOf<Vector>> makeCpuExecutor() {
  return std::make_unique<CpuExecutorOf<Vector>>();
}
template std::unique_ptr<ExecutorOf<Vec2>> makeCpuExecutor<Vec2>();
template std::unique_ptr<ExecutorOf<Vec3>> makeCpuExecutor<Vec3>();

}  // namespace crowd
