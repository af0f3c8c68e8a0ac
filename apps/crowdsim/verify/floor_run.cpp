// One verification run: the steering by gates, exits, strays and measurements of floor_run.hpp.
#include "floor_run.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>

namespace crowd::cli::verify {
namespace {

// How far past its exit a walker is removed: far enough that it no longer holds up the next.
constexpr float kRemoveBeyond = 1.5f;

Simulator makeRunSimulator(const Floor& floor, const Settings& settings, Model model, std::uint64_t seed,
                           const std::vector<Person>& people) {
  nlohmann::json agents = nlohmann::json::array();
  for (const Person& person : people) {
    nlohmann::json agent = {{"position", {person.position.x, person.position.y}},
                            {"prefVelocity", {person.prefVelocity.x, person.prefVelocity.y}},
                            {"prefSpeed", person.prefSpeed}};
    if (person.startTime > 0.0f) agent["startTime"] = person.startTime;
    agents.push_back(std::move(agent));
  }
  const Scenario scenario =
      parseScenario(scenarioDocument(floor, model, seed, std::move(agents)).dump(), "crowdsim verify");
  return makeSimulator(scenario, settings.threads, settings.backend);
}

// The squared distance between segments a-b and c-d.
float segmentDistanceSq(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const auto toSegment = [](Vec2 p, Vec2 s0, Vec2 s1) {
    const Vec2 along = s1 - s0;
    const float t = std::clamp(dot(p - s0, along) / absSq(along), 0.0f, 1.0f);
    return absSq(p - (s0 + along * t));
  };
  if (leftOf(a, b, c) * leftOf(a, b, d) < 0.0f && leftOf(c, d, a) * leftOf(c, d, b) < 0.0f) return 0.0f;
  return std::min({toSegment(a, c, d), toSegment(b, c, d), toSegment(c, a, b), toSegment(d, a, b)});
}

// Whether a body of `clearance` can walk straight from `from` to `to` without meeting a wall.
bool clearPath(const Floor& floor, Vec2 from, Vec2 to, float clearance) {
  for (const std::vector<Vec2>& wall : floor.walls) {
    for (std::size_t i = 0; i < wall.size(); ++i) {
      if (segmentDistanceSq(from, to, wall[i], wall[(i + 1) % wall.size()]) < clearance * clearance)
        return false;
    }
  }
  return true;
}

// Where a walker at p heads for gate g: the nearest point of the gate, kept `margin` from its
// ends, and a metre beyond it. Where a wall stands in the way into the opening (the walker is
// beside it, or has been pushed past it along a narrow corridor) it first heads for the point
// level with that one, so that it comes at the doorway from the front instead of pressing into
// the corner of the wall beside it.
Vec2 aimAt(const Floor& floor, const Segment& g, Vec2 p, float margin, float radius) {
  const Vec2 along = g.b - g.a;
  const float span = length(along);
  const Vec2 unit = along * (1.0f / span);
  const float lo = std::min(margin, 0.5f * span);
  const float hi = std::max(span - margin, 0.5f * span);
  const Vec2 nearest = g.a + unit * std::clamp(dot(p - g.a, unit), lo, hi);
  const Vec2 through = nearest + forwardOf(g);
  // Whether the way into the opening is clear (a narrow corridor's far wall beyond the gate does
  // not count). Half a body: one brushing a door jamb still gets through; one whose way crosses
  // a wall does not.
  const float clearance = 0.5f * radius;
  if (clearPath(floor, p, nearest + forwardOf(g) * kGateClearance, clearance)) return through;
  // Level with that point first, at the walker's own distance before the gate: along the wall
  // the opening is in, as a walker slides along it, never back into the crowd behind.
  const Vec2 approach = nearest + forwardOf(g) * std::min(pastBy(g, p), -kGateClearance);
  if (absSq(approach - p) < radius * radius) return through;  // In front of it already.
  return clearPath(floor, p, approach, clearance) ? approach : through;
}

// Whether p stands kGateClearance past gate g, between its ends.
bool beyond(const Segment& g, Vec2 p) {
  const Vec2 along = g.b - g.a;
  const float t = dot(p - g.a, along) / absSq(along);
  return pastBy(g, p) > kGateClearance && t >= 0.0f && t <= 1.0f;
}

}  // namespace

FloorRun::FloorRun(const Floor& floor, const Settings& settings, Model model, std::uint64_t seed,
                   const std::vector<Person>& people, double interval)
    : floor_(floor),
      sim_(makeRunSimulator(floor, settings, model, seed, people)),
      origin_(sim_.config().origin),
      interval_(interval),
      threads_(settings.threads) {
  stepsPerObservation_ =
      std::max(1, static_cast<int>(std::lround(interval / static_cast<double>(sim_.config().timeStep))));
  interval_ = stepsPerObservation_ * static_cast<double>(sim_.config().timeStep);
  const std::span<const AgentId> ids = sim_.ids();
  walkers_.resize(people.size());
  for (std::size_t i = 0; i < people.size(); ++i) {
    Walker& w = walkers_[i];
    w.id = ids[i];
    w.prefSpeed = people[i].prefSpeed;
    w.route = people[i].route;
    w.position = people[i].position;
  }
  observe();
}

FloorRun::~FloorRun() = default;

Vec2 FloorRun::world(Vec2 p) const {
  return Vec2(glm::dvec2(p) + origin_);
}

void FloorRun::measure(MeasurementPlan plan) {
  plan.interval = interval_;
  plan.threads = threads_;
  if (floor_.periodicX.on())  // In world coordinates, as the plan and the positions it is fed.
    plan.periodic = PeriodicBoundary{floor_.periodicX.from, floor_.periodicX.to - floor_.periodicX.from};
  measurements_ = std::make_unique<Measurements>(std::move(plan));
  observe();
}

void FloorRun::chooseExits(const ExitChoice& rule, std::vector<ExitHours> hours) {
  exitChoice_ = rule;
  exitHours_ = std::move(hours);
  nextChoice_ = time_;
  reconsiderExits();
}

void FloorRun::reconsiderExits() {
  if (!exitChoice_) return;
  std::vector<bool> open(floor_.exits.size(), true);
  for (std::size_t e = 0; e < open.size(); ++e) {
    const Vec2 middle = (floor_.exits[e].a + floor_.exits[e].b) * 0.5f;
    for (const ExitHours& hours : exitHours_) {
      if (hours.at == middle) open[e] = hours.openAt(time_);
    }
  }
  // At every choice, and at once when an exit opens or closes.
  if (time_ + 1e-9 < nextChoice_ && open == exitOpen_) return;
  if (time_ + 1e-9 >= nextChoice_) nextChoice_ += static_cast<double>(exitChoice_->every);
  exitOpen_ = open;
  const auto exitNumber = [&](const Segment& gate) {
    for (std::size_t e = 0; e < floor_.exits.size(); ++e) {
      if (floor_.exits[e].a == gate.a && floor_.exits[e].b == gate.b) return static_cast<std::int32_t>(e);
    }
    return std::int32_t{-1};
  };
  // Every exit is an option for each deciding walker, at its distance to the exit's nearest point.
  std::vector<std::int32_t> numbers(floor_.exits.size());
  for (std::size_t e = 0; e < numbers.size(); ++e) numbers[e] = static_cast<std::int32_t>(e);
  std::vector<Walker*> deciding;
  std::vector<std::vector<float>> lengths;
  std::vector<ExitOptions> options;
  for (Walker& w : walkers_) {
    if (w.exit >= 0 || w.strayed || w.route.empty() || w.stage + 1 != w.route.size()) continue;
    const std::int32_t current = exitNumber(w.route.back());
    if (current < 0) continue;
    std::vector<float> distances;
    for (std::size_t e = 0; e < floor_.exits.size(); ++e) {
      const Segment& exit = floor_.exits[e];
      const Vec2 along = exit.b - exit.a;
      const float t = std::clamp(dot(w.position - exit.a, along) / absSq(along), 0.0f, 1.0f);
      distances.push_back(open[e] ? length(exit.a + along * t - w.position) : -1.0f);
    }
    deciding.push_back(&w);
    lengths.push_back(std::move(distances));
    options.push_back(ExitOptions{current, w.prefSpeed, numbers, {}});
  }
  for (std::size_t a = 0; a < options.size(); ++a) options[a].lengths = lengths[a];
  const std::vector<std::int32_t> chosen = pickExits(options, floor_.exits.size(), *exitChoice_);
  for (std::size_t a = 0; a < deciding.size(); ++a) {
    if (chosen[a] >= 0) deciding[a]->route.back() = floor_.exits[static_cast<std::size_t>(chosen[a])];
  }
}

void FloorRun::observe() {
  const std::span<const AgentId> ids = sim_.ids();
  const std::span<const Vec2> positions = sim_.positions();
  const std::span<const Vec2> velocities = sim_.velocities();
  std::vector<Vec2> worldPositions(positions.size());
  std::vector<AgentId> leaving;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Vec2 p = world(positions[i]);
    worldPositions[i] = p;
    Walker& w = walkers_[ids[i].index];
    if (w.exit < 0) {
      for (std::size_t e = 0; e < floor_.exits.size(); ++e) {
        const Segment& exit = floor_.exits[e];
        if (!crossesForward(exit, w.position, p)) continue;
        const float before = pastBy(exit, w.position);
        const float after = pastBy(exit, p);
        w.exit = static_cast<int>(e);
        w.exitTime = time_ - interval_ + interval_ * static_cast<double>(before / (before - after));
        ++left_;
        break;
      }
      if (w.exit < 0 && !w.strayed && !floor_.contains(p)) {
        w.strayed = true;
        ++strayed_;
      }
    } else if (pastBy(floor_.exits[static_cast<std::size_t>(w.exit)], p) > kRemoveBeyond) {
      leaving.push_back(w.id);
    }
    w.position = p;
    if (w.setOffAt < 0.0 && length(velocities[i]) >= 0.5f * w.prefSpeed) w.setOffAt = time_;
    while (w.stage < w.route.size() && beyond(w.route[w.stage], p)) {
      ++w.stage;
      w.passedAt.push_back(time_);
    }
  }
  if (measurements_) measurements_->observe(time_, ids, worldPositions, sim_.velocities());
  if (trackPairs_ && ids.size() > 1) {
    const ContactStats contacts = measureContacts(positions, sim_.radii(), sim_.obstacles(), threads_);
    closestPair_ = std::min(closestPair_, contacts.minSeparationRatio);
  }
  reconsiderExits();
  // Steer after reading: setPrefVelocity may invalidate the spans.
  for (std::size_t i = 0; i < worldPositions.size(); ++i) {
    Walker& w = walkers_[ids[i].index];
    if (w.route.empty()) continue;
    const Vec2 p = worldPositions[i];
    const float radius = sim_.params(w.id).radius;
    const float margin = radius + 0.1f;
    const auto strayedInto = std::find_if(
        floor_.sideRooms.begin(), floor_.sideRooms.end(),
        [&](const SideRoom& r) { return p.x > r.min.x && p.x < r.max.x && p.y > r.min.y && p.y < r.max.y; });
    Vec2 heading;
    if (w.stage > 0 && strayedInto != floor_.sideRooms.end()) {
      heading = aimAt(floor_, strayedInto->door, p, margin, radius) - p;
    } else if (w.stage < w.route.size()) {
      heading = aimAt(floor_, w.route[w.stage], p, margin, radius) - p;
    } else {
      heading = forwardOf(w.route.back());
    }
    const float distance = length(heading);
    if (distance > 0.0f) sim_.setPrefVelocity(w.id, heading * (w.prefSpeed / distance));
  }
  for (const AgentId id : leaving) sim_.removeAgent(id);
}

void FloorRun::runUntil(double seconds) {
  while (time_ + 0.5 * interval_ < seconds) {
    for (int s = 0; s < stepsPerObservation_; ++s) sim_.step();
    time_ += interval_;
    observe();
  }
}

bool FloorRun::runUntilEmpty(double limit) {
  runWhile([this] { return left_ + strayed_ < walkers_.size(); }, limit);
  return left_ == walkers_.size();
}

void FloorRun::runWhile(const std::function<bool()>& going, double limit) {
  while (going() && time_ + 0.5 * interval_ < limit) {
    for (int s = 0; s < stepsPerObservation_; ++s) sim_.step();
    time_ += interval_;
    observe();
  }
}

double FloorRun::lastExitTime() const {
  if (left_ < walkers_.size()) return -1.0;
  double last = 0.0;
  for (const Walker& w : walkers_) last = std::max(last, w.exitTime);
  return last;
}

std::vector<double> FloorRun::exitTimes() const {
  std::vector<double> times;
  for (const Walker& w : walkers_) {
    if (w.exit >= 0) times.push_back(w.exitTime);
  }
  std::sort(times.begin(), times.end());
  return times;
}

double steadyFlow(const std::vector<double>& times) {
  if (times.size() < 10) return 0.0;
  const std::size_t first = times.size() / 10;
  const std::size_t last = times.size() - 1 - times.size() / 10;
  const double span = times[last] - times[first];
  return span > 0.0 ? static_cast<double>(last - first) / span : 0.0;
}

}  // namespace crowd::cli::verify
