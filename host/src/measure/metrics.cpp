#include <omp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <crowd/metrics.hpp>

#include "geometry/geometry.hpp"
#include "measure/agent_contacts.hpp"

namespace crowd {
namespace {

// Solid polygons' bounding boxes are binned into cells at least this coarse a share of their area.
constexpr double kMaxSolidCells = 1.0e6;

}  // namespace

void checkContactInputs(std::size_t positions, std::span<const float> radii, int threads) {
  if (positions != radii.size()) {
    throw std::invalid_argument("contacts: " + std::to_string(positions) + " positions but " +
                                std::to_string(radii.size()) + " radii");
  }
  // The grids below are sized by the largest radius: beyond the limit their cells would overflow.
  for (std::size_t i = 0; i < radii.size(); ++i) {
    if (!(radii[i] >= limits::kRadius.min && radii[i] <= limits::kRadius.max)) {
      throw std::invalid_argument("contacts: radius " + std::to_string(i) + " is " +
                                  std::to_string(radii[i]) + ", outside 0 to " +
                                  std::to_string(limits::kRadius.max) + " (" + limits::kRadius.name + ")");
    }
  }
  if (threads < 0 || threads > kMaxThreads) {
    throw std::invalid_argument("contacts: threads must be 0 to " + std::to_string(kMaxThreads) + ", got " +
                                std::to_string(threads));
  }
}

ContactStats measureContacts(std::span<const Vec2> positions, std::span<const float> radii,
                             const ObstacleSet& obstacles, int threads) {
  checkContactInputs(positions.size(), radii, threads);
  ContactStats stats;
  const int n = static_cast<int>(positions.size());
  if (n == 0) return stats;

  double maxRadius = 0.0;
  for (int i = 0; i < n; ++i) maxRadius = std::max(maxRadius, static_cast<double>(radii[i]));
  measureAgentPairs(positions, radii, threads, stats);
  // The obstacle grids' cells, as wide as the agents' (agent_contacts.hpp).
  const double reach = contactReach(maxRadius);

  // Circular obstacles are measured as the discs they are. The polygons that stand for them (what
  // ORCA avoids) lie just outside the disc, and are left out of the edges and solids below.
  const std::vector<CircleObstacle>& circles = obstacles.circles();
  std::vector<bool> circlePolygon(obstacles.polygonCount(), false);
  for (std::size_t c = 0; c < circles.size(); ++c) {
    circlePolygon[static_cast<std::size_t>(obstacles.circlePolygon(c))] = true;
  }
  // Each disc grown by the largest radius, so that a point's cell lists every disc it is near.
  std::vector<Box> circleBoxes;
  for (const CircleObstacle& c : circles) {
    const double grown = static_cast<double>(c.radius) + maxRadius;
    circleBoxes.push_back(
        Box{{c.center.x - grown, c.center.y - grown}, {c.center.x + grown, c.center.y + grown}});
  }
  const SparseGrid circleGrid = circles.empty() ? SparseGrid{} : binBoxes(circleBoxes, reach, kMaxSolidCells);

  // Obstacle edges (each vertex to the next, as ORCA sees them), binned so that an agent's own
  // cell lists every edge within its radius.
  std::vector<Segment> segments;
  for (std::size_t p = 0; p < obstacles.polygonCount(); ++p) {
    if (circlePolygon[p]) continue;
    const std::span<const Vec2> poly = obstacles.polygon(p);
    for (std::size_t i = 0; i < poly.size(); ++i) {
      segments.push_back(Segment{toPoint(poly[i]), toPoint(poly[(i + 1) % poly.size()])});
    }
  }
  const SparseGrid edgeGrid = segments.empty() ? SparseGrid{} : binSegments(segments, maxRadius, reach);

  // Solid polygons (counter-clockwise, 3+ vertices), binned by bounding box.
  std::vector<std::size_t> solids;
  std::vector<Box> solidBoxes;
  for (std::size_t p = 0; p < obstacles.polygonCount(); ++p) {
    const auto poly = obstacles.polygon(p);
    if (circlePolygon[p] || poly.size() < 3 || signedArea(poly) <= 0.0f) continue;
    solids.push_back(p);
    solidBoxes.push_back(boundsOf(poly));
  }
  const SparseGrid solidGrid = solids.empty() ? SparseGrid{} : binBoxes(solidBoxes, reach, kMaxSolidCells);

  std::int64_t penetrations = 0;
  const int team = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for num_threads(team) schedule(dynamic, 1024) reduction(+ : penetrations)
  for (int i = 0; i < n; ++i) {
    const Point p = toPoint(positions[i]);
    const double contact = kContactFraction * static_cast<double>(radii[i]);
    bool penetrating = false;
    for (const std::uint32_t e : edgeGrid.candidatesAt(p)) {
      if (distSqToSegment(p, segments[e].a, segments[e].b) < contact * contact) {
        penetrating = true;
        break;
      }
    }
    for (const std::uint32_t s : solidGrid.candidatesAt(p)) {
      if (penetrating) break;
      penetrating = solidBoxes[s].contains(p) && insidePolygon(p, obstacles.polygon(solids[s]));
    }
    for (const std::uint32_t c : circleGrid.candidatesAt(p)) {
      if (penetrating) break;
      const double reachOut = static_cast<double>(circles[c].radius) + contact;
      const double dx = p.x - static_cast<double>(circles[c].center.x);
      const double dy = p.y - static_cast<double>(circles[c].center.y);
      penetrating = dx * dx + dy * dy < reachOut * reachOut;
    }
    if (penetrating) ++penetrations;
  }
  stats.penetrations = penetrations;
  return stats;
}

PhaseTimes RunMetrics::meanMsPerStep() const {
  return totalMs / (steps > 0 ? static_cast<double>(steps) : 1.0);
}

void MetricsCollector::start(std::size_t agents, std::size_t withGoal) {
  started_ = true;
  metrics_.initialAgents = agents;
  metrics_.agentsWithGoal = withGoal;
}

void MetricsCollector::recordStep(std::int64_t steps, const PhaseTimes& times, double timeStep,
                                  const std::vector<Arrival>& arrivals) {
  metrics_.steps = steps;
  metrics_.totalMs += times;
  for (const Arrival& a : arrivals) {
    const double t = static_cast<double>(a.step) * timeStep;
    if (metrics_.arrived == 0) metrics_.firstArrivalTime = t;
    metrics_.lastArrivalTime = t;
    metrics_.meanArrivalTime = (metrics_.meanArrivalTime * static_cast<double>(metrics_.arrived) + t) /
                               static_cast<double>(metrics_.arrived + 1);
    ++metrics_.arrived;
    metrics_.arrivals.push_back(a);
  }
}

void MetricsCollector::recordSpeed(double speed, float maxSpeed) {
  speedSum_ += speed;
  if (maxSpeed > 0.0f) metrics_.maxSpeedRatio = std::max(metrics_.maxSpeedRatio, speed / maxSpeed);
}

void MetricsCollector::finishStep(std::size_t agents) {
  speedSamples_ += static_cast<double>(agents);
  metrics_.meanSpeed = speedSamples_ > 0 ? speedSum_ / speedSamples_ : 0.0;
}

void MetricsCollector::recordContacts(const ContactStats& c) {
  metrics_.collisions += c.collisions;
  metrics_.penetrations += c.penetrations;
  metrics_.minSeparationRatio = std::min(metrics_.minSeparationRatio, c.minSeparationRatio);
}

template <class Vector>
bool MetricsCollector::recordCommon(const BasicSimulator<Vector>& sim) {
  if (!started_) {
    std::size_t withGoal = 0;
    for (AgentId id : sim.ids()) withGoal += sim.goal(id).has_value();
    start(sim.agentCount(), withGoal);
    return false;  // The initial state: starting overlaps are reported as scenario warnings instead.
  }
  recordStep(sim.stepCount(), sim.lastStepTimes(), sim.config().timeStep, sim.lastArrivals());
  const std::span<const Vector> velocities = sim.velocities();
  const std::vector<float> maxSpeeds = sim.maxSpeeds();
  for (std::size_t i = 0; i < velocities.size(); ++i) {
    recordSpeed(std::sqrt(static_cast<double>(absSq(velocities[i]))), maxSpeeds[i]);
  }
  metrics_.speedClamps += sim.lastSpeedClamps();
  finishStep(sim.agentCount());
  return true;
}
template bool MetricsCollector::recordCommon(const BasicSimulator<Vec2>&);
template bool MetricsCollector::recordCommon(const BasicSimulator<Vec3>&);

void MetricsCollector::observe(const Simulator& sim) {
  const bool afterStep = recordCommon(sim);
  behavior_.observe(sim, afterStep, metrics_);  // A pursuer may start within reach.
  if (!afterStep) return;
  if (sim.hasNavigation()) {
    metrics_.navigation = sim.navigationStats();
    metrics_.unreachable = unreachableAtStart_ + static_cast<std::size_t>(metrics_.navigation->unreachable);
  }
  if (contacts_) {
    const std::vector<float> radii = sim.radii();
    recordContacts(measureContacts(sim.positions(), radii, sim.obstacles(), sim.lastStepThreads()));
  }
}

}  // namespace crowd
