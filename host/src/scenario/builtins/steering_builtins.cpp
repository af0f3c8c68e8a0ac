// The steering built-ins: pursuit, pathloop, forest and mix. Like the ORCA built-ins they scale
// with the agent count, by tiling a small set-up (a unit of an evader and its pursuers, a loop of
// a dozen vehicles) or by widening it (the forest's lanes, the mix's square), never by crowding it.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "scenario/builtins/builtin_support.hpp"

namespace crowd::builtin_detail {
namespace {

using scenario_detail::ScenarioRandom;

/// Rows of `columns` cells, `width` x `height` each, centred on the origin: the middle of cell k.
Point cellCentre(std::size_t k, std::size_t columns, std::size_t rows, double width, double height) {
  const double column = static_cast<double>(k % columns) - 0.5 * static_cast<double>(columns - 1);
  const double row = static_cast<double>(k / columns) - 0.5 * static_cast<double>(rows - 1);
  return Point{column * width, row * height};
}

/// How far such a grid reaches from the origin along either axis.
double gridReach(std::size_t columns, std::size_t rows, double width, double height) {
  return std::max(0.5 * static_cast<double>(columns) * width, 0.5 * static_cast<double>(rows) * height);
}

/// The `sides` corners of a regular polygon of circumradius `radius` around `centre`,
/// counter-clockwise, the first straight up.
std::vector<Vec2> regularPolygon(Point centre, double radius, int sides) {
  std::vector<Vec2> points;
  for (int i = 0; i < sides; ++i) {
    const double angle = 0.5 * std::numbers::pi + 2.0 * std::numbers::pi * i / sides;
    points.push_back(toVec2(Point{centre.x + radius * std::cos(angle), centre.y + radius * std::sin(angle)}));
  }
  return points;
}

Behavior behaviorOf(std::initializer_list<WeightedBehavior> behaviors,
                    AvoidanceMode avoidance = AvoidanceMode::Orca) {
  Behavior behavior;
  behavior.behaviors.assign(behaviors.begin(), behaviors.end());
  behavior.avoidance = avoidance;
  return behavior;
}

// ---- pursuit ----------------------------------------------------------------------------------
// Units of two: an evader walking 50 east across its cell, and a pursuer 20 south of the middle
// of its walk, the pursuit rule turning from unit to unit (chase, sight, intercept), so that every
// rule meets the same chase. The evader is the faster, so the rules that run at where it is
// (chase, sight) fall in behind it and catch it only at its goal, while intercept, aiming where
// it is going, cuts it off. Measured at the default size and seeds 1 and 7: mean captures after
// 14 s (intercept), 28 s (sight) and 31 s (chase); the evaders arrive after 20 to 37 s. A unit of
// one evader and three pursuers would not do: the first pursuer to arrive pushes against the
// evader (ORCA shares each avoidance half and half), the others queue behind it, and together
// they herd the evader away from its goal for good. Cells are 80 x 60, so units never meet.
constexpr std::size_t kUnitSize = 2;
constexpr double kPursuitCellWidth = 80.0;
constexpr double kPursuitCellHeight = 60.0;
constexpr double kEvaderWalk = 50.0;
constexpr double kPursuerOffset = 20.0;
constexpr double kPursuitJitter = 0.5;  // Each start shaken this much, so seeds differ.
constexpr float kEvaderSpeed = 2.5f;    // Evaders' preferred speed and maxSpeed.
constexpr float kPursuerSpeed = 2.0f;   // Pursuers' maxSpeed, which every pursuit rule runs at.
// A short horizon lets a pursuer close in: ORCA slows an approach to (gap / timeHorizon), so
// closing the last 5% of the combined radii takes a few horizons.
constexpr float kPursuitTimeHorizon = 2.0f;
constexpr float kEvaderWander = 0.25f;  // Weight of the evaders' meander beside their goal rule.

}  // namespace

void buildPursuit(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kFlowTimeStep;
  const std::size_t units = ceilDiv(count, kUnitSize);
  const std::size_t columns = squareColumns(units);
  const std::size_t rows = ceilDiv(units, columns);
  requireWithinCoordinateLimit(scenario, count,
                               gridReach(columns, rows, kPursuitCellWidth, kPursuitCellHeight));
  AgentParams params;
  params.timeHorizon = kPursuitTimeHorizon;
  const Behavior evader = behaviorOf({{BehaviorKind::Goal, 1.0f}, {BehaviorKind::Wander, kEvaderWander}});
  ScenarioRandom random(scenario.seed, 0);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t unit = k / kUnitSize;
    const std::size_t role = k % kUnitSize;  // 0 the evader, 1 its pursuer.
    const Point centre = cellCentre(unit, columns, rows, kPursuitCellWidth, kPursuitCellHeight);
    const double jitterX = random.between(-kPursuitJitter, kPursuitJitter);
    const double jitterY = random.between(-kPursuitJitter, kPursuitJitter);
    AgentDef agent;
    agent.params = params;
    agent.params.maxSpeed = role == 0 ? kEvaderSpeed : kPursuerSpeed;
    agent.params.prefSpeed = agent.params.maxSpeed;
    if (role == 0) {
      agent.position = toVec2(Point{centre.x - 0.5 * kEvaderWalk + jitterX, centre.y + jitterY});
      agent.goal = toVec2(Point{centre.x + 0.5 * kEvaderWalk, centre.y});
      agent.behavior = evader;
    } else {
      const auto kind = static_cast<PursuitKind>(unit % kPursuitKindCount);
      agent.position = toVec2(Point{centre.x + jitterX, centre.y - kPursuerOffset + jitterY});
      agent.behavior = behaviorOf({{BehaviorKind::Pursue, 1.0f}}, AvoidanceMode::Orca);
      agent.behavior.pursuit = kind;
      agent.target = AgentId{static_cast<std::uint32_t>(unit * kUnitSize), 0};
    }
    scenario.agents.push_back(agent);
  }
  // The evader's walk at its speed, with room for its meander and the slowest pursuer's closing.
  scenario.steps = stepsToWalk(scenario, kEvaderWalk, 2.5, kEvaderSpeed) + 300;
}

// ---- pathloop ---------------------------------------------------------------------------------
namespace {

// Reynolds' path-following example: a dozen vehicles on a closed path of five points around a
// circle of radius 20. More agents make more loops, 60 apart on a square grid (a loop keeps
// about 12 of them, spaced 10 apart along it).
constexpr std::size_t kVehiclesPerLoop = 12;
constexpr int kLoopPoints = 5;
constexpr double kLoopRadius = 20.0;
constexpr double kLoopSpacing = 60.0;
constexpr float kLoopPathRadius = 2.0f;
constexpr double kLaps = 3.0;

/// The point `distance` along the closed polyline `points`.
Vec2 alongLoop(const std::vector<Vec2>& points, double distance) {
  for (std::size_t i = 0;; i = (i + 1) % points.size()) {
    const Vec2 a = points[i];
    const Vec2 b = points[(i + 1) % points.size()];
    const double side = static_cast<double>(length(b - a));
    if (distance <= side) return a + (b - a) * static_cast<float>(distance / side);
    distance -= side;
  }
}

double loopLength(const std::vector<Vec2>& points) {
  double total = 0.0;
  for (std::size_t i = 0; i < points.size(); ++i)
    total += length(points[(i + 1) % points.size()] - points[i]);
  return total;
}

}  // namespace

void buildPathLoop(Scenario& scenario, std::size_t count) {
  const std::size_t loops = ceilDiv(count, kVehiclesPerLoop);
  const std::size_t columns = squareColumns(loops);
  const std::size_t rows = ceilDiv(loops, columns);
  requireWithinCoordinateLimit(scenario, count, gridReach(columns, rows, kLoopSpacing, kLoopSpacing));
  ScenarioRandom random(scenario.seed, 0);
  double perimeter = 0.0;
  for (std::size_t l = 0; l < loops; ++l) {
    PathSpec path;
    path.loop = true;
    path.points =
        regularPolygon(cellCentre(l, columns, rows, kLoopSpacing, kLoopSpacing), kLoopRadius, kLoopPoints);
    perimeter = loopLength(path.points);
    Behavior follow = behaviorOf({{BehaviorKind::FollowPath, 1.0f}});
    follow.path = static_cast<int>(l);
    follow.pathRadius = kLoopPathRadius;
    // Agents share the loops evenly and stand evenly along them, from a random first place.
    const std::size_t here = count / loops + (l < count % loops ? 1 : 0);
    const double start = random.between(0.0, perimeter);
    for (std::size_t j = 0; j < here; ++j) {
      AgentDef agent;
      const double at =
          std::fmod(start + perimeter * static_cast<double>(j) / static_cast<double>(here), perimeter);
      agent.position = alongLoop(path.points, at);
      agent.behavior = follow;
      scenario.agents.push_back(agent);
    }
    scenario.paths.push_back(std::move(path));
  }
  scenario.steps = stepsToWalk(scenario, kLaps * perimeter, 1.0);
}

// ---- forest -----------------------------------------------------------------------------------
namespace {

// A block of agents, in lanes and rows 8 apart, crosses a 60-long field of posts to the same
// formation beyond it. Without ORCA nothing keeps agents apart but that spacing: it keeps most
// of them clear, but where swerves round posts from neighbouring lanes meet, agents pass through
// each other (`--orca` shows the difference). Posts stand on a staggered lattice, 14 apart along
// the way and 16 across, jittered: no lane runs clear through, and the narrowest gap between two
// posts (about 8) still passes an agent with room to spare.
constexpr double kForestSpacing = 8.0;
constexpr double kForestJitter = 0.5;
constexpr double kFieldLength = 60.0;
constexpr double kFieldMargin = 10.0;  // Between the block and the field, and the field and the goals.
constexpr double kPostColumnSpacing = 14.0;
constexpr double kPostRowSpacing = 16.0;
constexpr double kPostJitter = 1.5;
constexpr double kPostRadiusMin = 1.0;
constexpr double kPostRadiusMax = 2.0;
// The detection box's lateral force fades to nothing at the edge of its strip (steer_avoid.hpp),
// so a seek pulling towards a goal behind a post holds an agent where the two balance, closer to
// the post the lighter the avoidance. Measured over 2 to 1,000 agents and four seeds: at weight
// 1 agents went up to 0.13 into a post; at 10 none came within 0.26 of one.
constexpr float kForestAvoidWeight = 10.0f;

}  // namespace

void buildForest(Scenario& scenario, std::size_t count) {
  scenario.timeStep = kFlowTimeStep;
  // Lanes grow with the square root of the count, so a large block stays compact.
  const std::size_t lanes = std::min(
      count, std::max<std::size_t>(
                 10, static_cast<std::size_t>(std::ceil(std::sqrt(2.0 * static_cast<double>(count))))));
  const std::size_t rows = ceilDiv(count, lanes);
  const double blockLength = static_cast<double>(rows - 1) * kForestSpacing;
  const double halfWidth = 0.5 * static_cast<double>(lanes - 1) * kForestSpacing;
  const double travel = blockLength + kFieldLength + 2.0 * kFieldMargin;
  requireWithinCoordinateLimit(
      scenario, count,
      std::max(blockLength + kFieldLength + 2.0 * kFieldMargin, halfWidth + 2.0 * kPostRowSpacing));

  ScenarioRandom random(scenario.seed, 0);
  for (std::size_t k = 0; k < count; ++k) {
    const double back = static_cast<double>(k / lanes) * kForestSpacing;
    const double side =
        (static_cast<double>(k % lanes) - 0.5 * static_cast<double>(lanes - 1)) * kForestSpacing;
    const double jitterX = random.between(-kForestJitter, kForestJitter);
    const double jitterY = random.between(-kForestJitter, kForestJitter);
    AgentDef agent;
    agent.position = toVec2(Point{-kFieldMargin - back + jitterX, side + jitterY});
    agent.goal = toVec2(Point{-kFieldMargin - back + travel, side});
    // Half seek (full speed to the goal), half RVO2's goal rule (slowing on it), both with the box.
    const BehaviorKind toGoal = k % 2 == 0 ? BehaviorKind::Seek : BehaviorKind::Goal;
    agent.behavior =
        behaviorOf({{toGoal, 1.0f}, {BehaviorKind::AvoidObstacles, kForestAvoidWeight}}, AvoidanceMode::None);
    scenario.agents.push_back(agent);
  }

  // Post columns from 8 to 50 along the way, every other one shifted half a row across, rows
  // reaching a row beyond the outer lanes.
  ScenarioRandom posts(scenario.seed, 1);
  const auto postRows = static_cast<std::size_t>(std::ceil((halfWidth + kPostRowSpacing) / kPostRowSpacing));
  for (double x = 8.0; x <= kFieldLength - 8.0; x += kPostColumnSpacing) {
    const double shift = std::fmod(x - 8.0, 2.0 * kPostColumnSpacing) == 0.0 ? 0.0 : 0.5 * kPostRowSpacing;
    for (std::size_t r = 0; r <= 2 * postRows; ++r) {
      const double y = (static_cast<double>(r) - static_cast<double>(postRows)) * kPostRowSpacing + shift;
      const double jitterX = posts.between(-kPostJitter, kPostJitter);
      const double jitterY = posts.between(-kPostJitter, kPostJitter);
      const double radius = posts.between(kPostRadiusMin, kPostRadiusMax);
      scenario.circles.push_back(
          CircleSpec{toVec2(Point{x + jitterX, y + jitterY}), static_cast<float>(radius)});
    }
  }
  // Swerving and braking at the posts: measured, the last agent arrives after at most 1.3 times
  // the straight walk (1.4 with ORCA on as well).
  scenario.steps = stepsToWalk(scenario, travel, 2.0);
}

// ---- mix --------------------------------------------------------------------------------------
namespace {

// The random scenario's square at density 0.05, every 7th lattice place in each axis (31 apart)
// holding a post instead of an agent, and a mix of behaviours, ten agents at a time:
//   0, 1  goal (RVO2's rule)        2  goal + detection box    3  arrive
//   4, 5  wander + detection box    6, 7  follow a loop round the nearest post
//   8     pursue agent 9 (the three kinds in turn)             9  evade agent 8
// Everyone avoids with ORCA. The posts' radius leaves the jittered neighbours of its place
// clear: 4.47 - 0.7 * sqrt(2) - 1.5 = 1.98 > the post polygon's reach 1.53.
constexpr double kMixDensity = 0.05;
constexpr double kMixJitter = 0.7;
constexpr std::size_t kPostEvery = 7;
constexpr std::size_t kPostPlace = 3;  // Lattice places (3, 3), (3, 10), ... hold posts.
constexpr float kMixPostRadius = 1.5f;
constexpr double kMixLoopRadius = 12.0;  // Follow loops round the posts, 7 apart from each other.
constexpr double kGoalClearance = 4.0;   // A goal stays this far from a post's centre.

bool isPostPlace(std::size_t column, std::size_t row) {
  return column % kPostEvery == kPostPlace && row % kPostEvery == kPostPlace;
}

/// Index `i` of the posts along an axis (places kPostPlace + kPostEvery * i) nearest to
/// lattice coordinate `place`, given `postCount` of them.
std::size_t nearestPost(double place, std::size_t postCount) {
  const double i = std::round((place - static_cast<double>(kPostPlace)) / static_cast<double>(kPostEvery));
  return static_cast<std::size_t>(std::clamp(i, 0.0, static_cast<double>(postCount - 1)));
}

}  // namespace

void buildMix(Scenario& scenario, std::size_t count) {
  const double spacing = std::sqrt(1.0 / kMixDensity);
  // Enough places for `count` agents beside the posts (one place in 49, or fewer).
  const auto columns =
      static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count) * 49.0 / 48.0))) + 1;
  std::size_t rows = 0;
  for (std::size_t places = 0; places < count; ++rows) {
    for (std::size_t c = 0; c < columns; ++c) places += isPostPlace(c, rows) ? 0 : 1;
  }
  const double half = 0.5 * static_cast<double>(std::max(columns, rows)) * spacing;
  requireWithinCoordinateLimit(scenario, count, half + kMixLoopRadius + spacing);
  const auto place = [&](std::size_t column, std::size_t row) {
    return centredLatticePoint(row * columns + column, columns, rows, spacing);
  };

  // Posts, indexed [row][column] along the post axes, each with a loop round it.
  const std::size_t postColumns = (columns + kPostEvery - 1 - kPostPlace) / kPostEvery;
  const std::size_t postRows = (rows + kPostEvery - 1 - kPostPlace) / kPostEvery;
  for (std::size_t r = 0; r < postRows; ++r) {
    for (std::size_t c = 0; c < postColumns; ++c) {
      const Point centre = place(kPostPlace + kPostEvery * c, kPostPlace + kPostEvery * r);
      scenario.circles.push_back(CircleSpec{toVec2(centre), kMixPostRadius});
      scenario.paths.push_back(PathSpec{regularPolygon(centre, kMixLoopRadius, 5), true});
    }
  }
  // Too few agents for a post: followers circle the middle of the square instead.
  if (scenario.paths.empty())
    scenario.paths.push_back(PathSpec{regularPolygon(Point{0, 0}, kMixLoopRadius, 5), true});
  const bool havePosts = !scenario.circles.empty();
  // The post (and loop) nearest to a point in lattice coordinates.
  const auto postNear = [&](double column, double row) -> std::size_t {
    if (!havePosts) return 0;
    return nearestPost(row, postRows) * postColumns + nearestPost(column, postColumns);
  };
  const auto latticeCoordinates = [&](Vec2 p) {
    return Point{p.x / spacing + 0.5 * static_cast<double>(columns - 1),
                 p.y / spacing + 0.5 * static_cast<double>(rows - 1)};
  };

  ScenarioRandom placement(scenario.seed, 0);
  ScenarioRandom goals(scenario.seed, 1);
  const Behavior goalRule;
  const Behavior goalAvoid = behaviorOf({{BehaviorKind::Goal, 1.0f}, {BehaviorKind::AvoidObstacles, 1.0f}});
  const Behavior arrive = behaviorOf({{BehaviorKind::Arrive, 1.0f}});
  const Behavior wander = behaviorOf({{BehaviorKind::Wander, 1.0f}, {BehaviorKind::AvoidObstacles, 1.0f}});
  const Behavior evade = behaviorOf({{BehaviorKind::Evade, 1.0f}});
  double farthest = 0.0;
  std::size_t k = 0;
  for (std::size_t row = 0; row < rows && k < count; ++row) {
    for (std::size_t column = 0; column < columns && k < count; ++column) {
      if (isPostPlace(column, row)) continue;
      const Point slot = place(column, row);
      const double jitterX = placement.between(-kMixJitter, kMixJitter);
      const double jitterY = placement.between(-kMixJitter, kMixJitter);
      AgentDef agent;
      agent.position = toVec2(Point{slot.x + jitterX, slot.y + jitterY});
      std::size_t role = k % 10;
      if (role == 8 && k + 1 == count) role = 0;  // A pursuer without its evader walks instead.
      if (role <= 3) {
        agent.behavior = role <= 1 ? goalRule : role == 2 ? goalAvoid : arrive;
        Vec2 goal = toVec2(Point{goals.between(-half, half), goals.between(-half, half)});
        if (havePosts) {
          // Off the nearest post, where the agent could never stand.
          const Point at = latticeCoordinates(goal);
          const Vec2 post = scenario.circles[postNear(at.x, at.y)].center;
          const Vec2 away = goal - post;
          const float distance = length(away);
          if (distance < kGoalClearance) {
            goal = post + (distance > 0.0f ? away / distance : Vec2(1.0f, 0.0f)) *
                              static_cast<float>(kGoalClearance);
          }
        }
        agent.goal = goal;
        farthest = std::max(farthest, static_cast<double>(length(goal - agent.position)));
      } else if (role <= 5) {
        agent.behavior = wander;
      } else if (role <= 7) {
        agent.behavior = behaviorOf({{BehaviorKind::FollowPath, 1.0f}});
        agent.behavior.path =
            static_cast<int>(postNear(static_cast<double>(column), static_cast<double>(row)));
      } else if (role == 8) {
        agent.behavior = behaviorOf({{BehaviorKind::Pursue, 1.0f}});
        agent.behavior.pursuit = static_cast<PursuitKind>((k / 10) % kPursuitKindCount);
        agent.target = AgentId{static_cast<std::uint32_t>(k + 1), 0};
      } else {
        agent.behavior = evade;
        agent.target = AgentId{static_cast<std::uint32_t>(k - 1), 0};
      }
      scenario.agents.push_back(agent);
      ++k;
    }
  }
  // As random: arrived agents leave, and the budget covers the farthest walk through the crowd;
  // the run ends when the last of them has arrived (the other behaviours have no end).
  scenario.removeArrived = true;
  scenario.endWhenGoalsReached = true;
  const double slack = 4.0 + 2.0 * std::log10(std::max(static_cast<double>(count), 10.0));
  scenario.steps = stepsToWalk(scenario, farthest, slack);
}

}  // namespace crowd::builtin_detail
