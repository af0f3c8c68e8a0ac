// What the planar simulator (simulator.hpp) and the 3D one (simulator3.hpp) are configured
// with and report alike: the backend choice, the whole-simulation settings and arrivals.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <glm/vec2.hpp>

#include <crowd/agent_id.hpp>
#include <crowd/errors.hpp>

namespace crowd {

/// Where steps are computed.
enum class BackendKind {
  Auto,  ///< The GPU when a usable CUDA device is present, else the CPU.
  Cpu,   ///< OpenMP on the CPU.
  Cuda,  ///< The GPU; constructing a simulator fails with a message when there is none.
};

/// The backend a name stands for ("auto", "cpu" or "cuda", as the command line and scenario
/// tools spell them); nullopt for any other text.
std::optional<BackendKind> parseBackendKind(std::string_view name);
/// The name parseBackendKind reads: "auto", "cpu" or "cuda".
const char* backendKindName(BackendKind kind);

/// Whether this build has the CUDA backend and a usable device is present; if not, `why` (when
/// given) says which is missing.
bool cudaBackendAvailable(std::string* why = nullptr);

/// The most CPU threads a simulator runs on (OpenMP fails, or worse, far beyond any machine's
/// cores).
inline constexpr int kMaxThreads = 1024;

/// A planar world that repeats along x between `from` and `to` (frame coordinates, like
/// positions): an agent walking out at one end comes in at the other, and agents near one end
/// see those near the other (kernels/periodic.hpp). Walls along it must span the whole period;
/// goals and routes are not repeated, so agents in it usually walk a fixed preferred velocity.
/// Both 0 (the default): the world does not repeat.
struct PeriodicRange {
  float from = 0.0f;  ///< [Limit: finite]
  float to = 0.0f;    ///< [Limit: finite; > from, and to - from > 2 x every agent's neighborDist]
  bool on() const { return from != 0.0f || to != 0.0f; }
};

/// Whole-simulation settings.
struct SimulatorConfig {
  float timeStep = 0.25f;  ///< Seconds per step. [Limit: > 0, finite]
  /// Remove agents once they reach their goal (evacuations). Turned on between steps, it removes
  /// those already arrived at once.
  bool removeArrived = false;
  /// CPU threads. 0 (the default) lets the CPU backend choose, step by step: it times the counts
  /// it may use (OpenMP's default, half of it, ..., 1) and runs the fastest, which on a busy
  /// machine may be fewer than the cores (Simulator::lastStepThreads says which). Results are
  /// the same for any count. [Limit: 0..kMaxThreads]
  int threads = 0;
  /// Agent grid cell side; 0 (the default) adapts it to the crowd each step. Results never
  /// depend on it, only speed does. Raised to 1/2.5 of the largest neighborDist. [Limit: >= 0]
  float cellSize = 0.0f;
  BackendKind backend = BackendKind::Cpu;  ///< Fixed when the simulator is constructed.
  /// RVO2's results to the bit: no deadlock jitter, no speed clamp and no repair of the obstacle
  /// lines at a vertex touched end-on (kernels/orca_obstacles.hpp). Off by default; the parity
  /// tests against RVO2 and the reference simulator turn it on.
  bool exactRvo2 = false;
  /// Seeds every random draw of a run (the deadlock jitter), per agent and step, so results are
  /// the same for any thread count and on either backend.
  std::uint64_t seed = 1;
  /// Where the simulator's frame sits in the world. The simulator computes in 32-bit floats,
  /// which resolve a coordinate to about 6e-8 of its size: positions, goals and obstacles are
  /// therefore given and returned relative to this point, so that a scene far from (0, 0) (a
  /// city map in metres, 1e5 wide) is computed as precisely as one at (0, 0). makeSimulator
  /// places it near a scenario's middle; outputs (trajectories) add it back in double.
  glm::dvec2 origin{0.0, 0.0};  ///< [Limit: finite]
  /// Where a planar world repeats along x (none by default). Agents are added inside it. A 3D
  /// simulator refuses it.
  PeriodicRange periodicX{};
};

/// Throws std::invalid_argument, naming the setting, when one is outside its limits.
void checkConfig(const SimulatorConfig& config);

/// Unless exactRvo2 is set, each step every stuck agent's preferred velocity, as ORCA sees it, is
/// moved by a random vector of up to this fraction of its maxSpeed in each coordinate
/// (kernels/deadlock.hpp). A crowd
/// in perfect symmetry (agents on a circle, say) otherwise deadlocks in ORCA: everyone waits for
/// everyone. RVO2's own Blocks example perturbs the same way (by up to 1e-4).
inline constexpr float kDeadlockJitter = 1e-5f;

/// An agent reaching its goal: which, and after how many steps.
struct Arrival {
  AgentId id;
  std::int64_t step;  ///< The step count after which it was first within goalRadius.
};

}  // namespace crowd
