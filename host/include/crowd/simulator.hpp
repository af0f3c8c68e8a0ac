// The simulator facade: agents with stable handles, static obstacles, paths, and a step() that
// runs the phase list (grid -> neighbours -> steering -> ORCA -> commit) on a backend.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/agent_id.hpp>
#include <crowd/agent_params.hpp>
#include <crowd/behavior.hpp>
#include <crowd/navigation.hpp>
#include <crowd/obstacles.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/reference_line.hpp>
#include <crowd/kernels/profile_terms.hpp>
#include <crowd/kernels/vec2.hpp>
#include <glm/vec2.hpp>

namespace crowd {

/// Where steps are computed.
enum class BackendKind {
  Auto,  ///< The GPU when a usable CUDA device is present, else the CPU.
  Cpu,   ///< OpenMP on the CPU.
  Cuda,  ///< The GPU; constructing a simulator fails with a message when there is none.
};

/// Whether this build has the CUDA backend and a usable device is present; if not, `why` (when
/// given) says which is missing.
bool cudaBackendAvailable(std::string* why = nullptr);

/// The most CPU threads a simulator runs on (OpenMP fails, or worse, far beyond any machine's
/// cores).
inline constexpr int kMaxThreads = 1024;

/// Whole-simulation settings.
struct SimulatorConfig {
  float timeStep = 0.25f;      ///< Seconds per step. [Limit: > 0, finite]
  /// Remove agents once they reach their goal (evacuations). Turned on between steps, it removes
  /// those already arrived at once.
  bool removeArrived = false;
  int threads = 0;             ///< CPU threads; 0 uses OpenMP's default. [Limit: 0..kMaxThreads]
  /// Agent grid cell side; 0 (the default) adapts it to the crowd each step. Results never
  /// depend on it, only speed does. Raised to 1/2.5 of the largest neighborDist. [Limit: >= 0]
  float cellSize = 0.0f;
  BackendKind backend = BackendKind::Cpu;  ///< Fixed when the simulator is constructed.
  /// RVO2's results to the bit: no deadlock jitter and no speed clamp (see below). Off by
  /// default; the parity tests against RVO2 and the reference simulator turn it on.
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
};

/// Throws std::invalid_argument, naming the setting, when one is outside its limits.
void checkConfig(const SimulatorConfig& config);

/// Unless exactRvo2 is set, each step every stuck agent's preferred velocity, as ORCA sees it, is
/// moved by a random vector of up to this fraction of its maxSpeed in each coordinate
/// (kernels/deadlock.hpp). A crowd
/// in perfect symmetry (agents on a circle, say) otherwise deadlocks in ORCA: everyone waits for
/// everyone. RVO2's own Blocks example perturbs the same way (by up to 1e-4).
inline constexpr float kDeadlockJitter = 1e-5f;

/// The agents as a GPU backend holds them between steps, in device memory: what a viewer reads to
/// draw them without copying them to the host (CUDA-OpenGL interop). Dense order; the radius and
/// maxSpeed of agent i are terms[profile[i]].
struct DeviceAgents {
  const Vec2* position = nullptr;
  const Vec2* velocity = nullptr;
  const std::uint32_t* profile = nullptr;
  const ProfileTerms* terms = nullptr;
  std::size_t count = 0;  ///< 0: no device state (the CPU backend, or the host changed it since).
};

/// Everything needed to add one agent.
struct AgentDef {
  Vec2 position{0.0f, 0.0f};
  Vec2 velocity{0.0f, 0.0f};      ///< Initial velocity.
  std::optional<Vec2> goal;       ///< If set, the preferred velocity heads here (see prefVelocity).
  Vec2 prefVelocity{0.0f, 0.0f};  ///< Fixed preferred velocity, used when there is no goal.
  AgentParams params;
  Behavior behavior;              ///< What steers it; the default is RVO2's goal rule.
  std::optional<AgentId> target;  ///< The agent it pursues, evades, seeks or flees (must be alive).
};

/// An agent reaching its goal: which, and after how many steps.
struct Arrival {
  AgentId id;
  std::int64_t step;  ///< The step count after which it was first within goalRadius.
};

/// A step that was refused because it would have produced a non-finite velocity or position.
/// The simulator's state is left as it was before the step.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class Vector>
class AgentStoreOf;
using AgentStore = AgentStoreOf<Vec2>;
template <class Vector>
class BackendOf;
using Backend = BackendOf<Vec2>;
class Navigator;
class SteeringStore;
struct ProfileTable;
struct StepRequest;

class Simulator {
 public:
  explicit Simulator(const SimulatorConfig& config = {});
  ~Simulator();
  /// A simulator moved from may only be assigned to or destroyed.
  Simulator(Simulator&&) noexcept;
  Simulator& operator=(Simulator&&) noexcept;

  const SimulatorConfig& config() const { return config_; }
  /// Changes settings between steps. Throws std::invalid_argument outside the limits.
  void setConfig(const SimulatorConfig& config);

  // --- agents -------------------------------------------------------------------------------
  /// Throws std::invalid_argument for non-finite vectors or parameters outside their limits.
  AgentId addAgent(const AgentDef& def);
  /// Returns false if `id` does not name a live agent.
  bool removeAgent(AgentId id);
  bool contains(AgentId id) const;
  std::size_t agentCount() const;

  /// Per-agent access; each throws std::out_of_range for a stale or unknown id.
  Vec2 position(AgentId id) const;
  Vec2 velocity(AgentId id) const;
  Vec2 prefVelocity(AgentId id) const;  ///< As used in the last step (or set by setPrefVelocity).
  std::optional<Vec2> goal(AgentId id) const;
  /// The agent's parameters (shared with every agent of its profile). The reference is good
  /// until the next addAgent, setParams or setBehavior; copy it to keep it.
  const AgentParams& params(AgentId id) const;
  bool hasArrived(AgentId id) const;
  void setPosition(AgentId id, Vec2 position);
  void setVelocity(AgentId id, Vec2 velocity);
  void setGoal(AgentId id, Vec2 goal);
  void setPrefVelocity(AgentId id, Vec2 prefVelocity);  ///< Clears the goal.
  void setParams(AgentId id, const AgentParams& params);

  // --- steering (crowd/behavior.hpp) --------------------------------------------------------
  /// The agent's behaviour; good until the next addAgent, setParams or setBehavior, as params.
  const Behavior& behavior(AgentId id) const;
  /// Throws std::invalid_argument with checkBehavior's message for an unusable behaviour. The
  /// agent's steering state (wander direction, path segment, last seen target) starts afresh.
  void setBehavior(AgentId id, const Behavior& behavior);
  /// The agent it pursues, evades, seeks or flees; nullopt for none, or once that agent is removed.
  std::optional<AgentId> target(AgentId id) const;
  /// Throws std::invalid_argument when `target` is not a live agent or is the agent itself.
  void setTarget(AgentId id, std::optional<AgentId> target);
  /// Adds a path for `follow`: an open polyline, or a closed loop (the last point joins the
  /// first). Throws std::invalid_argument for fewer than 2 points (3 for a loop), points outside
  /// the coordinate limit, or repeated consecutive points. Returns its number (Behavior::path).
  int addPath(std::span<const Vec2> points, bool loop);
  int pathCount() const { return static_cast<int>(pathStart_.size()) - 1; }
  /// Path `path`'s reference line for the Frenet planner (Behavior::planner): a spline through
  /// its points sampled every kReferenceSpacing. Lines are made for the paths planners use (their
  /// Behavior::path, or a planner's own route): empty for any other path, or one too short.
  std::span<const ReferencePoint> referenceLine(int path) const;
  /// Gives the agent its own route, a path added with addPath (or -1 for none): what `follow`
  /// follows for agents whose Behavior::path is kOwnRoute. Its path segment starts afresh.
  /// Throws std::invalid_argument for an unknown path.
  void setRoute(AgentId id, int path);
  /// The agent's own route, or -1.
  int route(AgentId id) const;
  /// Distinct (parameters, behaviour) pairs the agents use: the rows of the profile table.
  std::size_t profileCount() const { return profiles_.size(); }
  /// The agent's row of the profile table: agents with equal parameters and behaviour share it.
  std::uint32_t profileIndex(AgentId id) const;
  std::span<const Vec2> pathPoints(int path) const;
  bool pathLoops(int path) const;

  /// Dense views, all in the same order (the order agents were added in, less removed ones),
  /// valid until the next add/remove/step.
  std::span<const AgentId> ids() const;
  std::span<const Vec2> positions() const;
  std::span<const Vec2> velocities() const;
  /// Each agent's radius, in dense order.
  std::vector<float> radii() const;
  /// Each agent's maxSpeed, in dense order.
  std::vector<float> maxSpeeds() const;

  // --- navigation (crowd/navigation.hpp) ---------------------------------------------------
  /// Gives the simulator a grid map to route agents through, placed in the simulator's frame
  /// (see SimulatorConfig::origin); replaces an earlier one (navigating agents keep their goals
  /// and are re-planned on the new map). Throws std::invalid_argument for options outside their
  /// limits (navigationOptionsProblem) or an empty map.
  void setNavigation(const GridMap& map, const NavigationOptions& options = {});
  bool hasNavigation() const { return navigator_ != nullptr; }
  /// The agent walks to the nearest of `goals` (by route length) along its own route, planned
  /// before the next step (unless `keepRoute` and it has one already: setRoute) and planned again
  /// from where it stands whenever it makes no progress. Its goal becomes its route's end. An
  /// agent on the default goal rule switches to following its own route; one that no route
  /// leads from stands still (prefVelocity 0) and counts as unreachable. Throws std::logic_error
  /// without setNavigation, std::invalid_argument for no goals or a goal outside the coordinate
  /// limit.
  void navigate(AgentId id, std::span<const Vec2> goals, bool keepRoute = false);
  /// Counts and time so far; all zero without setNavigation.
  NavigationStats navigationStats() const;

  // --- obstacles ----------------------------------------------------------------------------
  /// Adds a polygon obstacle (see ObstacleSet::addPolygon). Returns its number.
  int addObstacle(std::span<const Vec2> vertices);
  /// Adds a circular obstacle (see ObstacleSet::addCircle). Returns its number.
  int addCircle(Vec2 center, float radius);
  const ObstacleSet& obstacles() const { return obstacles_; }

  // --- stepping -----------------------------------------------------------------------------
  /// Readies the backend now rather than at the first step: the CUDA backend uploads the state,
  /// and throws std::runtime_error if the device cannot hold it.
  void prepare();
  /// Advances every agent by one time step. Throws SimulationError, leaving the state as it
  /// was, if some agent's new velocity or position would not be finite (the message names the
  /// agent and the step).
  void step();
  std::int64_t stepCount() const { return stepCount_; }
  /// Seconds simulated: the sum of the steps' time steps (setConfig may change it between steps).
  double time() const { return time_; }
  /// Agents that arrived during the last step (removed ones included when removeArrived).
  const std::vector<Arrival>& lastArrivals() const { return lastArrivals_; }
  /// How many live agents have a goal and are within their goal radius.
  std::size_t arrivedCount() const;
  const PhaseTimes& lastStepTimes() const { return lastTimes_; }
  /// Neighbour candidates examined per agent in the last step (a cost figure for benchmarks).
  double lastCandidatesPerAgent() const { return lastCandidates_; }
  /// ORCA half-planes per agent in the last step (agent and obstacle lines; a cost figure).
  double lastOrcaLinesPerAgent() const { return lastOrcaLines_; }
  /// New velocities the last step pulled back into their maxSpeed disc (rounding, or the LP's
  /// fallback when a crowd is crushed); always 0 with exactRvo2.
  std::int64_t lastSpeedClamps() const { return lastSpeedClamps_; }
  /// Local-planner candidates costed in the last step (a cost figure for benchmarks).
  std::int64_t lastPlanCandidates() const { return lastPlanCandidates_; }
  std::string backendName() const;
  /// Device memory the backend holds (0 for the CPU backend).
  std::size_t deviceMemoryBytes() const;
  /// The device's copy of the agents, valid until the next step or change (see DeviceAgents).
  DeviceAgents deviceAgents() const;
  /// Host memory held for the agents, the obstacles and the backend's step buffers.
  std::size_t memoryBytes() const;

  /// A hash of every agent's id, position and velocity bits: equal hashes mean identical states.
  std::uint64_t stateHash() const;

 private:
  /// Throws std::invalid_argument when `behavior` cannot be used here (checkBehavior, and a
  /// planner's path must have a reference line).
  void requireUsable(const Behavior& behavior);
  /// Makes path `path`'s reference line, once (nothing for a path too short for one).
  void makeReferenceLine(int path);
  std::size_t denseOf(AgentId id) const { return handles_.denseOf(id); }  // Throws std::out_of_range.
  // A GPU backend keeps the state on the device between steps; readers call syncHost() to
  // bring the host copy up to date, writers call hostChanged(), which syncs and then tells the
  // backend its copy is stale.
  void syncHost() const;
  void hostChanged();
  std::uint32_t internProfile(const AgentParams& params, const Behavior& behavior);
  // The profile table, rebuilt only when a profile was added since.
  const ProfileTable& profileTable();
  // Per-agent steering state, made when the first agent steers or gets a target.
  SteeringStore& steeringStore();
  void removeDense(const std::vector<std::size_t>& sortedDense);
  // What the backend needs for the next step (the obstacle grid readied for `table`).
  StepRequest stepRequest(const ProfileTable& table);
  // Plans routes for navigating agents that need one (navigation.hpp); runs before a step.
  void navigateRoutes();
  // Records the agents a step reports as arrived, and removes them when removeArrived is set.
  void applyArrivals(const std::vector<std::size_t>& arrivedDense);

  SimulatorConfig config_;
  ObstacleSet obstacles_;
  std::unique_ptr<AgentStore> agents_;  // Dense order.

  AgentHandles handles_;

  std::vector<AgentParams> profiles_;
  std::vector<Behavior> behaviors_;  // Indexed like profiles_.
  std::map<std::pair<AgentParams, Behavior>, std::uint32_t> profileIndex_;  // For interning.
  std::unique_ptr<ProfileTable> table_;
  std::unique_ptr<SteeringStore> steering_;
  std::unique_ptr<Navigator> navigator_;
  std::vector<Vec2> pathPoints_;
  std::vector<int> pathStart_{0};
  std::vector<std::uint8_t> pathLoop_;
  std::vector<ReferencePoint> linePoints_;  // The reference lines made so far, one after another.
  std::vector<int> lineBegin_;              // Per path: where its line lies in linePoints_.
  std::vector<int> lineEnd_;
  std::vector<std::uint8_t> lineTried_;     // Per path: whether a line was made (or found too short).

  std::int64_t stepCount_ = 0;
  double time_ = 0.0;
  std::vector<Arrival> lastArrivals_;
  PhaseTimes lastTimes_;
  double lastCandidates_ = 0;
  double lastOrcaLines_ = 0;
  std::int64_t lastSpeedClamps_ = 0;
  std::int64_t lastPlanCandidates_ = 0;
  std::unique_ptr<Backend> backend_;
  mutable bool hostStale_ = false;
};

}  // namespace crowd
