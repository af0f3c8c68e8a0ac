#include "sim/simulator_core.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <crowd/kernels/agent_columns.hpp>

namespace crowd {
namespace {

// "(x, y)" or "(x, y, z)", for the message of a refused step.
template <class Vector>
std::string describe(Vector v) {
  std::string text = "(";
  for (int i = 0; i < Vector::length(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(v[i]);
  }
  return text + ")";
}

}  // namespace

template <class Vector>
std::unique_ptr<ExecutorOf<Vector>> makeExecutor(BackendKind kind) {
  if (kind == BackendKind::Cpu) return makeCpuExecutor<Vector>();
  std::string why;
  if (cudaBackendAvailable(&why)) {
#if defined(CROWD_WITH_CUDA)
    try {
      return makeCudaExecutor<Vector>();
    } catch (const std::exception& e) {
      // A device that is listed but cannot give a context (busy, out of memory): auto falls
      // back to the CPU; only an explicit request for CUDA fails.
      if (kind == BackendKind::Cuda) throw;
      why = e.what();
    }
#endif
  }
  if (kind == BackendKind::Cuda) throw std::runtime_error("the CUDA backend cannot run: " + why);
  return makeCpuExecutor<Vector>();
}

void requireParams(const AgentParams& params) {
  if (const std::string problem = checkAgentParams(params); !problem.empty())
    throw std::invalid_argument(problem);
}

template <class Vector>
SimulatorCore<Vector>::SimulatorCore(const SimulatorConfig& configuration) : config(configuration) {
  checkConfig(configuration);
  if (std::is_same_v<Vector, Vec3> && configuration.periodicX.on())
    throw std::invalid_argument("periodicX: a 3D world does not repeat; only a planar one can");
  driver = std::make_unique<StepDriverOf<Vector>>(makeExecutor<Vector>(configuration.backend));
}

template <class Vector>
std::uint32_t SimulatorCore<Vector>::internProfile(const AgentParams& params, const Behavior& behavior) {
  const auto [it, added] =
      profileIndex.try_emplace({params, behavior}, static_cast<std::uint32_t>(profiles.size()));
  if (added) {
    profiles.push_back(params);
    behaviors.push_back(behavior);
  }
  return it->second;
}

template <class Vector>
const ProfileTable& SimulatorCore<Vector>::profileTable() {
  if (!table || table->terms.size() != profiles.size()) {
    table = std::make_unique<ProfileTable>(makeProfileTable(profiles, behaviors));
  }
  return *table;
}

template <class Vector>
void SimulatorCore<Vector>::removeDense(std::span<const std::size_t> sortedDense) {
  hostChanged();
  removeAgents(agents, handles, sortedDense);
}

template <class Vector>
SteeringStoreOf<Vector>& SimulatorCore<Vector>::steeringStore() {
  if (!steering) steering = std::make_unique<SteeringStoreOf<Vector>>();
  steering->resize(handles.slotCount());
  return *steering;
}

template <class Vector>
void SimulatorCore<Vector>::syncHost() const {
  if (!hostStale) return;
  // The host arrays are a cache of the executor's state here, so refreshing them is not a change
  // of the simulator's observable state.
  driver->executor().download(agents, steering.get());
  hostStale = false;
}

template <class Vector>
void SimulatorCore<Vector>::hostChanged() {
  // Bring the host copy up to date first: the change applies to the newest state, which is
  // then uploaded again before the next step.
  syncHost();
  driver->executor().invalidate();
}

template <class Vector>
StepRequestOf<Vector> SimulatorCore<Vector>::stepRequest(const StaticWorldView& world) {
  const ProfileTable& profileRows = profileTable();
  SteeringStoreOf<Vector>* steered = profileRows.anySteering ? &steeringStore() : nullptr;
  if (profileRows.anyPlanners) steered->keepTracks();
  StepRequestOf<Vector> request{agents,   steered,           profileRows,     world,
                                time,     config.timeStep,   config.cellSize, config.threads,
                                jitter(), !config.exactRvo2, config.seed,     stepCount + 1};
  const PeriodicRange& period = config.periodicX;
  if (period.on()) {
    // One image of anyone within reach, never two (kernels/periodic.hpp).
    const float length = period.to - period.from;
    if (!(length > 2.0f * profileRows.maxNeighborDist)) {
      throw std::invalid_argument("periodicX: the period (" + std::to_string(length) +
                                  ") must be longer than twice the largest neighborDist (" +
                                  std::to_string(profileRows.maxNeighborDist) + ")");
    }
    request.periodic = PeriodicBoundary{period.from, length};
  }
  return request;
}

template <class Vector>
void SimulatorCore<Vector>::requireInsidePeriod(Vector position) const {
  const PeriodicRange& period = config.periodicX;
  if (period.on() && !(position.x >= period.from && position.x < period.to)) {
    throw std::invalid_argument("position x " + std::to_string(position.x) + " is outside periodicX [" +
                                std::to_string(period.from) + ", " + std::to_string(period.to) + ")");
  }
}

template <class Vector>
void SimulatorCore<Vector>::step(const StepRequestOf<Vector>& request) {
  const StepReportOf<Vector> report = driver->step(request);
  lastTimes = report.times;
  lastCandidates = report.candidatesPerAgent;
  lastOrcaLines = report.orcaLinesPerAgent;
  lastSpeedClamps = report.speedClamps;
  lastPlanCandidates = report.planCandidates;
  if (report.nonFinite) {
    const NonFiniteAgentOf<Vector>& bad = *report.nonFinite;
    throw SimulationError("step " + std::to_string(stepCount + 1) + ": agent " +
                          std::to_string(agents.id[bad.dense].index) + " would get a non-finite velocity " +
                          describe(bad.velocity) + " or position " + describe(bad.position) +
                          "; the step was not applied");
  }
  hostStale = driver->executor().holdsState();
  ++stepCount;
  time += config.timeStep;
  for (std::size_t d : report.arrived) lastArrivals.push_back(Arrival{agents.id[d], stepCount});
  if (config.removeArrived && !report.arrived.empty()) removeDense(report.arrived);
}

template <class Vector>
std::size_t SimulatorCore<Vector>::memoryBytes() const {
  return agents.bytes() + handles.bytes() + (steering ? steering->bytes() : 0) +
         driver->executor().hostBytes();
}

template struct SimulatorCore<Vec2>;
template struct SimulatorCore<Vec3>;

}  // namespace crowd
