// The planar simulator: what every simulator does (crowd/basic_simulator.hpp) plus what only a
// planar world has: polygon and circular obstacles, paths and the agents' own routes, reference
// lines for the Frenet planner, and navigation through a grid map.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include <crowd/basic_simulator.hpp>
#include <crowd/kernels/reference_point.hpp>
#include <crowd/kernels/vec2.hpp>
#include <crowd/navigation.hpp>
#include <crowd/obstacles.hpp>

namespace crowd {

struct PlanarWorld;

class Simulator final : public BasicSimulator<Vec2> {
 public:
  explicit Simulator(const SimulatorConfig& config = {});
  ~Simulator() override;
  /// A simulator moved from may only be assigned to or destroyed.
  Simulator(Simulator&&) noexcept;
  Simulator& operator=(Simulator&&) noexcept;

  // --- paths and routes (Behavior::path, kOwnRoute) -----------------------------------------
  /// Adds a path for `follow`: an open polyline, or a closed loop (the last point joins the
  /// first). Throws std::invalid_argument for fewer than 2 points (3 for a loop), points outside
  /// the coordinate limit, or repeated consecutive points. Returns its number (Behavior::path).
  int addPath(std::span<const Vec2> points, bool loop);
  int pathCount() const;
  std::span<const Vec2> pathPoints(int path) const;
  bool pathLoops(int path) const;
  /// Path `path`'s reference line for the Frenet planner (Behavior::planner): a spline through
  /// its points sampled every 0.25 world units. Lines are made for the paths planners use (their
  /// Behavior::path, or a planner's own route): empty for any other path, or one too short.
  std::span<const ReferencePoint> referenceLine(int path) const;
  /// Gives the agent its own route, a path added with addPath (or -1 for none): what `follow`
  /// follows for agents whose Behavior::path is kOwnRoute. Its path segment starts afresh.
  /// Throws std::invalid_argument for an unknown path.
  void setRoute(AgentId id, int path);
  /// The agent's own route, or -1.
  int route(AgentId id) const;

  // --- navigation (crowd/navigation.hpp) ---------------------------------------------------
  /// Gives the simulator a grid map to route agents through, placed in the simulator's frame
  /// (see SimulatorConfig::origin); replaces an earlier one (navigating agents keep their goals
  /// and are re-planned on the new map). Throws std::invalid_argument for options outside their
  /// limits (navigationOptionsProblem) or an empty map.
  void setNavigation(const GridMap& map, const NavigationOptions& options = {});
  bool hasNavigation() const;
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
  const ObstacleSet& obstacles() const;

  // --- speed zones --------------------------------------------------------------------------
  /// Adds an area (a simple polygon, at least 3 vertices) in which every agent's desired speed
  /// is multiplied by `factor` (stairs as RiMEA models them on one floor: 0.5 up, 0.75 down).
  /// An agent in several zones takes the first one added. Returns its number. Throws
  /// std::invalid_argument for vertices outside the coordinate limit, fewer than 3, or a factor
  /// outside limits::kSpeedFactor.
  int addSpeedZone(std::span<const Vec2> polygon, float factor);
  std::size_t speedZoneCount() const;

 private:
  void requireUsable(const Behavior& behavior) override;
  void behaviorSet(AgentId id, const Behavior& behavior) override;
  void beforeStep() override;
  StaticWorldView staticWorld(float maxObstacleRange) override;
  std::size_t worldBytes() const override;
  // Makes path `path`'s reference line, once (nothing for a path too short for one).
  void makeReferenceLine(int path);
  // Plans routes for navigating agents that need one (navigation.hpp); runs before a step.
  void navigateRoutes();
  // Gives agents with several exits, or exits that keep hours, the exit ExitChoice picks
  // (sim/simulator_exits.cpp).
  void chooseExits();
  // Makes `route` (as the planner gives it) the agent's route and its end the agent's goal.
  void takeRoute(AgentId id, std::span<const Vec2> route);

  // Obstacles, paths, reference lines and the navigator (sim/planar_world.hpp).
  std::unique_ptr<PlanarWorld> world_;
};

}  // namespace crowd
