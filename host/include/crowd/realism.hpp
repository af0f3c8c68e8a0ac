// How real a simulated crowd looks: a recorded pedestrian scene (recorded_scene.hpp) re-enacted
// by the simulator, each pedestrian entering where and when the recording first shows them and
// walking to where it last shows them (arriving when the real person did, or at their recorded
// mean speed: Pace), and the result measured
// as the recording is: walking speeds, how close the closest two people come, and how far each
// simulated pedestrian is from the real one at every annotation.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include <crowd/agent_params.hpp>
#include <crowd/kernels/behavior_kinds.hpp>
#include <crowd/recorded_scene.hpp>

namespace crowd {

/// Agent parameters for people: a 0.25 m radius (real pairs walk 0.5 m apart and closer, the
/// recordings' 5th percentile), a 2 s horizon, neighbours within 5 m.
AgentParams pedestrianParams();

/// How fast each re-enacted pedestrian means to walk.
enum class Pace {
  /// At every annotation instant, a preferred velocity straight for their last position that
  /// gets there when the recording does (never above maxSpeed): arrivals on time.
  Schedule,
  /// RVO2's goal rule at their recorded mean speed: an agent that walks straight where the
  /// person wandered arrives early and waits; all slow down over the last metre.
  Mean,
};

struct RealismOptions {
  double frameTime = 0.4;  ///< Seconds between annotation instants (ETH/UCY's convention). [> 0]
  int substeps = 4;        ///< Simulation steps per annotation interval. [1..1000]
  /// Radius, neighbours and horizons of every pedestrian; prefSpeed and maxSpeed are set per
  /// pedestrian (their recorded mean speed, and maxSpeedFactor times it).
  AgentParams params = pedestrianParams();
  double maxSpeedFactor = 1.5;  ///< [1..100]
  Pace pace = Pace::Schedule;
  AvoidanceMode avoidance = AvoidanceMode::Orca;  ///< None: each walks straight at their goal.
  /// CPU threads (0: OpenMP's default). One by default: a recorded scene's few dozen people are
  /// stepped faster by one thread than by several (ETH: 0.06 s against 0.12 s on two cores).
  int threads = 1;
  std::uint64_t seed = 1;  ///< The simulator's seed (its deadlock jitter).
};

/// Throws std::invalid_argument naming the first option outside its limits (frameTime / substeps
/// is the simulator's time step, and within its limits too).
void checkRealismOptions(const RealismOptions& options);

/// Throws std::invalid_argument when a scene (made in code, say) is not as parseRecordedScene
/// makes them: a pedestrian without annotations, instants not rising within [0, instants), or a
/// position that is not finite. simulateRecordedScene and measureScene check this first.
void checkRecordedScene(const RecordedScene& scene);

/// A position for every annotation of a scene: `[t][j]` belongs to `tracks[t].points[j]`.
using SceneTrajectories = std::vector<std::vector<glm::dvec2>>;

/// The recording's own positions.
SceneTrajectories recordedTrajectories(const RecordedScene& scene);

/// Re-enacts the scene on the CPU backend. Each pedestrian is added at their first annotation
/// instant, at their first position, moving at their first recorded velocity, with their last
/// position as goal, maxSpeed maxSpeedFactor times their recorded mean speed (path length over
/// time in the scene) and prefSpeed as `pace` says; the simulator steps `substeps` times per
/// interval; each is removed after their last annotation.
/// The same options give the same result for any thread count. Throws std::invalid_argument
/// for bad options or a pedestrian whose mean speed is beyond the speed limit.
SceneTrajectories simulateRecordedScene(const RecordedScene& scene, const RealismOptions& options);

/// The simulation steps one re-enactment takes: `substeps` for each instant with someone in the
/// scene (instants that nobody spans cost nothing). Its cost, before anything is run: a six-line
/// recording whose frames lie a million instants apart is millions of steps.
std::int64_t reenactmentSteps(const RecordedScene& scene, int substeps);

/// Count, mean, smallest and percentiles (linear interpolation between order statistics, as
/// numpy's default) of a sample; NaN where the sample is empty.
struct Distribution {
  std::size_t count = 0;
  double mean = std::numeric_limits<double>::quiet_NaN();
  double min = std::numeric_limits<double>::quiet_NaN();
  double p5 = std::numeric_limits<double>::quiet_NaN();
  double p50 = std::numeric_limits<double>::quiet_NaN();
  double p95 = std::numeric_limits<double>::quiet_NaN();
};
Distribution distributionOf(std::vector<double> values);

/// A scene's trajectories measured as the recordings are measured.
struct SceneStats {
  /// Distance between a pedestrian's annotations one instant apart, over frameTime.
  Distribution speed;
  /// At every instant with two or more pedestrians annotated, the distance between the closest two.
  Distribution closestPair;
  /// Instants whose closest pair is nearer than the contact distance.
  std::size_t closeInstants = 0;
  /// Mean distance to the recording over every annotation after each pedestrian's first
  /// (average displacement error); -1 when not compared.
  double ade = -1;
  /// Mean distance to the recording at each pedestrian's last annotation (final displacement
  /// error), over pedestrians annotated more than once; -1 when not compared.
  double fde = -1;
};

/// Measures `positions` (of `scene`'s annotations). `recorded`, when given, is what ade and fde
/// compare with. Throws std::invalid_argument for a scene checkRecordedScene refuses or
/// trajectories of another scene.
SceneStats measureScene(const RecordedScene& scene, const SceneTrajectories& positions, double frameTime,
                        double contactDistance, const SceneTrajectories* recorded = nullptr);

}  // namespace crowd
