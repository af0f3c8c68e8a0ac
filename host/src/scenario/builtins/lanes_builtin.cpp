// The `lanes` built-in: vehicles with the Frenet planner drive a two-way road that bends left and
// right, each along its lane's centre line, and pass cars parked in their lanes by swerving into
// the lane beside them, where oncoming vehicles may be. More vehicles make more roads, side by
// side, never more vehicles per lane.
#include <cmath>
#include <numbers>
#include <vector>

#include "scenario/builtins/builtin_support.hpp"

namespace crowd::builtin_detail {
namespace {

constexpr double kRoadLength = 200.0;    // Along x.
constexpr double kBendAmplitude = 12.0;  // The road's centre is y = A sin(2 pi x / W).
constexpr double kBendWavelength = 100.0;
constexpr double kLaneOffset = 2.0;    // Each lane's centre, either side of the road's.
constexpr double kRoadSpacing = 60.0;  // Between the centres of neighbouring roads.
constexpr double kSampleStep = 2.0;    // Between the points of a lane's path.
constexpr std::size_t kVehiclesPerLane = 6;
constexpr double kHeadway = 12.0;  // Between vehicles of a lane at the start.
constexpr double kFirstAt = 4.0;   // The first vehicle's distance from its lane's start.
constexpr float kParkedRadius = 1.0f;

AgentParams vehicleParams() {
  AgentParams p;
  p.radius = 0.8f;
  p.prefSpeed = 3.0f;
  p.maxSpeed = 4.0f;
  p.neighborDist = 15.0f;
  p.maxNeighbors = 10;
  p.timeHorizon = 2.0f;
  p.timeHorizonObst = 1.0f;
  return p;
}

/// A point of the centre line of the road whose middle is at height `y0`, and the line's unit left
/// normal there.
Point roadPoint(double x, double y0, Point& normal) {
  const double k = 2.0 * std::numbers::pi / kBendWavelength;
  const double slope = kBendAmplitude * k * std::cos(k * x);
  const double norm = std::sqrt(1.0 + slope * slope);
  normal = Point{-slope / norm, 1.0 / norm};
  return Point{x, y0 + kBendAmplitude * std::sin(k * x)};
}

/// The lane `side` (+1 left of the road's centre, -1 right) of the road at height `y0`, from its
/// start to its end: eastbound on the right, westbound on the left, as on a road that keeps right.
std::vector<Vec2> lanePoints(double y0, int side) {
  std::vector<Vec2> points;
  const int samples = static_cast<int>(kRoadLength / kSampleStep);
  for (int i = 0; i <= samples; ++i) {
    Point normal{};
    const Point centre = roadPoint(kSampleStep * i, y0, normal);
    points.push_back(
        toVec2(Point{centre.x + side * kLaneOffset * normal.x, centre.y + side * kLaneOffset * normal.y}));
  }
  if (side > 0) std::reverse(points.begin(), points.end());  // Westbound.
  return points;
}

/// The point `distance` along the open polyline `points` (its end when beyond it).
Vec2 along(const std::vector<Vec2>& points, double distance) {
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    const double side = static_cast<double>(length(points[i + 1] - points[i]));
    if (distance <= side)
      return points[i] + (points[i + 1] - points[i]) * static_cast<float>(distance / side);
    distance -= side;
  }
  return points.back();
}

double polylineLength(const std::vector<Vec2>& points) {
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < points.size(); ++i)
    total += static_cast<double>(length(points[i + 1] - points[i]));
  return total;
}

}  // namespace

void buildLanes(Scenario& scenario, std::size_t count) {
  const std::size_t perRoad = 2 * kVehiclesPerLane;
  const std::size_t roads = ceilDiv(count, perRoad);
  const double span = kRoadSpacing * static_cast<double>(roads - 1);
  requireWithinCoordinateLimit(scenario, count,
                               std::max(kRoadLength, 0.5 * span + kBendAmplitude + kRoadSpacing));
  scenario.timeStep = kFlowTimeStep;
  scenario.removeArrived = true;
  double longest = 0.0;
  std::size_t placed = 0;
  for (std::size_t r = 0; r < roads; ++r) {
    const double y0 = kRoadSpacing * static_cast<double>(r) - 0.5 * span;
    for (const int side : {-1, 1}) {
      PathSpec lane;
      lane.points = lanePoints(y0, side);
      const double laneLength = polylineLength(lane.points);
      longest = std::max(longest, laneLength);
      // Parked cars on the lane's centre, a third and two thirds along, staggered between the two
      // lanes so that a vehicle passing one meets the other lane's oncoming traffic, not a car.
      for (const double share : {side < 0 ? 0.33 : 0.40, side < 0 ? 0.66 : 0.73}) {
        scenario.circles.push_back(CircleSpec{along(lane.points, share * laneLength), kParkedRadius});
      }
      Behavior drive;
      drive.planner = LocalPlanner::Frenet;
      drive.path = static_cast<int>(scenario.paths.size());
      drive.frenet.laneHalfWidth = 2.5f;
      for (std::size_t v = 0; v < kVehiclesPerLane && placed < count; ++v, ++placed) {
        AgentDef vehicle;
        vehicle.params = vehicleParams();
        vehicle.behavior = drive;
        vehicle.position =
            along(lane.points, kFirstAt + kHeadway * static_cast<double>(kVehiclesPerLane - 1 - v));
        vehicle.goal = lane.points.back();
        scenario.agents.push_back(vehicle);
      }
      scenario.paths.push_back(std::move(lane));
    }
  }
  scenario.steps = stepsToWalk(scenario, longest, 2.0);
}

}  // namespace crowd::builtin_detail
