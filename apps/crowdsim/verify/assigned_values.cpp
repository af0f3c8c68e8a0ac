// The tests that check what a scenario assigns its people, rather than how they avoid each other:
// the speed on a stair (a speed zone; RiMEA 2 and 3), premovement times (RiMEA 5, NIST 1.1) and
// walking speeds drawn from a distribution (RiMEA 7, NIST 2.4). Values are drawn with the
// scenario reader's own sampler (crowd/distribution.hpp); what the tests judge is what the
// simulated people do with them, against the distribution's published form.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <crowd/distribution.hpp>

#include "floor_run.hpp"
#include "walks.hpp"

namespace crowd::cli::verify {
namespace {

// ---- RiMEA 2 and 3: walking speed on stairs ----------------------------------------------------

// One person at 1.33 m/s crosses a 10 m stair drawn as a speed zone: the scenario format's factors
// for stairs on one floor (docs/scenario-format.md: 0.5 up, 0.75 down). RiMEA asks that the time
// match the stair speed; the tolerance is RiMEA 1's 5% of speed.
Result stairTime(const Settings& settings, Model model, float factor) {
  const float speed = 1.33f, length = 10.0f;
  const double expected = length / (speed * factor);
  Result result =
      judgedTime(corridorTime(settings, model, speed, length, factor), expected / 1.05, expected / 0.95, 2);
  result.values.emplace_back("expected_s", expected);
  result.measured += " (" + fixed(expected, 2) + " s expected)";
  return result;
}

// ---- the distribution a value was drawn from, as its publication gives it ---------------------

double normalCdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

// P(X <= v) for a draw X of `d`, computed from the distribution's definition (the clipped
// normal's point masses at its ends included; Weidmann's speeds by age through the age table).
double cdf(const ValueDistribution& d, double v) {
  switch (d.kind) {
    case ValueDistribution::Kind::Constant:
      return v >= d.a ? 1.0 : 0.0;
    case ValueDistribution::Kind::Uniform:
      return std::clamp((v - d.a) / (d.b - d.a), 0.0, 1.0);
    case ValueDistribution::Kind::Normal:
      if (v < d.min) return 0.0;
      if (v >= d.max) return 1.0;
      return normalCdf((v - d.a) / d.b);
    case ValueDistribution::Kind::WeidmannAge: {
      // The share of ages in [a, b] whose speed is at most v, on a fine grid of ages.
      constexpr int kAges = 20000;
      int below = 0;
      for (int i = 0; i < kAges; ++i) {
        const double age = d.a + (d.b - d.a) * (i + 0.5) / kAges;
        if (weidmannSpeedAtAge(age) <= v) ++below;
      }
      return static_cast<double>(below) / kAges;
    }
  }
  return 0.0;
}

// The Kolmogorov-Smirnov distance between a sample and `d`.
double ksDistance(std::vector<double> sample, const ValueDistribution& d) {
  std::sort(sample.begin(), sample.end());
  const auto n = static_cast<double>(sample.size());
  double most = 0.0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const double f = cdf(d, sample[i]);
    most = std::max({most, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return most;
}

// The distance a sample of n from `d` stays under 99 times in 100.
double ksCritical(std::size_t n) {
  return 1.63 / std::sqrt(static_cast<double>(n));
}

// ---- people walking alone, each in its own lane --------------------------------------------------

struct LaneWalk {
  std::vector<double> setOff;  ///< When each set off (half its speed reached), s; -1: never.
  std::vector<double> speed;   ///< Each one's mean speed over 10 m, m/s; -1: did not cover it.
};

// Lanes far enough apart that no model lets one walker feel another.
constexpr float kLaneSpacing = 3.0f;

// Each person i stands in its own lane until startTimes[i], then walks +x at speeds[i]; its
// speed is timed between lines 5 m and 15 m from its start (it is up to speed by then).
LaneWalk laneWalk(const Settings& settings, Model model, std::uint64_t seed, const std::vector<float>& speeds,
                  const std::vector<float>& startTimes) {
  const std::size_t count = speeds.size();
  const float width = kLaneSpacing * static_cast<float>(count);
  Floor floor;
  addSpace(floor, Vec2(-1.0f, 0.0f), Vec2(20.0f, width));
  floor.exits.push_back(Segment{Vec2(18.0f, width), Vec2(18.0f, 0.0f)});
  std::vector<Person> people(count);
  double latest = 0.0, slowest = 10.0;
  for (std::size_t i = 0; i < count; ++i) {
    people[i].position = Vec2(0.0f, kLaneSpacing * (static_cast<float>(i) + 0.5f));
    people[i].prefSpeed = speeds[i];
    people[i].prefVelocity = Vec2(speeds[i], 0.0f);
    people[i].startTime = startTimes[i];
    latest = std::max(latest, static_cast<double>(startTimes[i]));
    slowest = std::min(slowest, static_cast<double>(speeds[i]));
  }
  FloorRun run(floor, settings, model, seed, people);
  MeasurementPlan plan;
  plan.lines = {MeasurementLine{"5 m", Vec2(5.0f, width), Vec2(5.0f, 0.0f)},
                MeasurementLine{"15 m", Vec2(15.0f, width), Vec2(15.0f, 0.0f)}};
  run.measure(plan);
  run.runUntilEmpty(latest + 3.0 * 20.0 / slowest + 10.0);
  LaneWalk walk;
  walk.setOff.resize(count);
  walk.speed.assign(count, -1.0);
  for (std::size_t i = 0; i < count; ++i) walk.setOff[i] = run.walkers()[i].setOffAt;
  std::vector<double> first(count, -1.0);
  const std::vector<LineSeries>& lines = run.measurements().lines();
  for (const LineCrossing& c : lines[0].crossings) {
    if (first[c.id.index] < 0) first[c.id.index] = c.time;
  }
  for (const LineCrossing& c : lines[1].crossings) {
    const std::size_t i = c.id.index;
    if (walk.speed[i] < 0 && first[i] >= 0 && c.time > first[i]) walk.speed[i] = 10.0 / (c.time - first[i]);
  }
  return walk;
}

// How much later than its premovement time a person may set off: the step and observation
// (0.1 s each), the time to reach half its speed (a quarter of a second for the social force
// model's 0.5 s relaxation), and a moment's wait for one walking past.
constexpr double kSetOffSlack = 1.0;

// Counts, over people, those that set off before their time and those that set off too late
// (or never), and the largest delay.
struct SetOffCheck {
  std::size_t early = 0, late = 0;
  double worstDelay = 0.0;
  void add(double setOff, double startTime) {
    if (setOff < 0) {
      ++late;
      return;
    }
    if (setOff < startTime) ++early;
    if (setOff > startTime + kSetOffSlack) ++late;
    worstDelay = std::max(worstDelay, setOff - startTime);
  }
  bool passed() const { return early == 0 && late == 0; }
};

std::vector<float> drawAll(const ValueDistribution& d, std::uint64_t seed, std::size_t count,
                           std::uint32_t stream) {
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(d.draw(seed, i, stream));
  return values;
}

// ---- RiMEA 7 and NIST 2.4: walking speeds from a distribution ----------------------------------

// `count` persons draw their walking speeds from `d`; each walks alone. Passes when everyone
// walks within 5% of the speed drawn and the walked speeds follow `d`.
Result speedsFollow(const Settings& settings, Model model, const ValueDistribution& d, std::size_t count) {
  std::vector<double> distances, worstOff;
  std::vector<bool> passed;
  for (const std::uint64_t seed : seedList(settings)) {
    const std::vector<float> speeds = drawAll(d, seed, count, 0);
    const LaneWalk walk = laneWalk(settings, model, seed, speeds, std::vector<float>(count, 0.0f));
    double off = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
      off = std::max(off, walk.speed[i] < 0 ? 1.0 : std::fabs(walk.speed[i] / speeds[i] - 1.0));
    }
    const double distance = ksDistance(walk.speed, d);
    distances.push_back(distance);
    worstOff.push_back(100.0 * off);
    passed.push_back(off <= 0.05 && distance <= ksCritical(count));
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = "KS distance " + rangeText(distances, 3) + " (<= " + fixed(ksCritical(count), 3) +
                    "); walked within " + rangeText(worstOff, 1) + "% of the speed drawn";
  result.values = {{"ks_max", *std::max_element(distances.begin(), distances.end())},
                   {"worst_speed_error_percent", *std::max_element(worstOff.begin(), worstOff.end())}};
  return result;
}

}  // namespace

Result rimeaStairsUp(const Settings& settings, Model model) {
  return stairTime(settings, model, 0.5f);
}

Result rimeaStairsDown(const Settings& settings, Model model) {
  return stairTime(settings, model, 0.75f);
}

// ---- RiMEA 5: premovement time -----------------------------------------------------------------

Result rimeaPremovement(const Settings& settings, Model model) {
  // Ten persons in an 8 x 5 m room with a 1 m door, premovement times uniform on 10..100 s.
  const ValueDistribution times{ValueDistribution::Kind::Uniform, 10.0, 100.0};
  SetOffCheck check;
  std::vector<bool> passed;
  std::size_t out = 0, people = 0;
  for (const std::uint64_t seed : seedList(settings)) {
    const Floor floor = doorRoom(8.0f, 5.0f, 1.0f);
    // Placed a metre apart and 0.6 m from the walls: a standing body the social force model
    // puts against a wall or a neighbour is pushed off at once, which would be no premovement.
    const std::vector<Vec2> places = scatter(Vec2(0.6f, 0.6f), Vec2(7.4f, 4.4f), 10, 1.0f, seed);
    const std::vector<float> startTimes = drawAll(times, seed, places.size(), 1);
    std::vector<Person> crowd(places.size());
    for (std::size_t i = 0; i < crowd.size(); ++i) {
      crowd[i].position = places[i];
      crowd[i].route = {floor.exits[0]};
      crowd[i].startTime = startTimes[i];
    }
    FloorRun run(floor, settings, model, seed, crowd);
    run.runUntilEmpty(160.0);
    SetOffCheck seedCheck;
    for (std::size_t i = 0; i < crowd.size(); ++i) seedCheck.add(run.walkers()[i].setOffAt, startTimes[i]);
    passed.push_back(seedCheck.passed() && run.leftCount() == crowd.size());
    check.early += seedCheck.early;
    check.late += seedCheck.late;
    check.worstDelay = std::max(check.worstDelay, seedCheck.worstDelay);
    out += run.leftCount();
    people += crowd.size();
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = std::to_string(check.early) + " early, " + std::to_string(check.late) +
                    " late; set off at most " + fixed(check.worstDelay, 2) + " s after their time; " +
                    std::to_string(out) + "/" + std::to_string(people) + " out";
  result.values = {{"early", static_cast<double>(check.early)},
                   {"late", static_cast<double>(check.late)},
                   {"worst_delay_s", check.worstDelay}};
  return result;
}

// ---- NIST 1.1: pre-evacuation time distributions -------------------------------------------------

Result nistPreEvacuation(const Settings& settings, Model model) {
  // 100 persons each draw a pre-evacuation time; the times they set off must follow the
  // distribution. Uniform on 10..100 s and a normal N(60, 15) s clipped to 10..110 s.
  const std::size_t count = 100;
  const ValueDistribution distributions[] = {
      {ValueDistribution::Kind::Uniform, 10.0, 100.0},
      {ValueDistribution::Kind::Normal, 60.0, 15.0, 10.0, 110.0},
  };
  SetOffCheck check;
  std::vector<double> distances;
  std::vector<bool> passed;
  for (const std::uint64_t seed : seedList(settings)) {
    for (const ValueDistribution& d : distributions) {
      const std::vector<float> startTimes = drawAll(d, seed, count, 1);
      const LaneWalk walk = laneWalk(settings, model, seed, std::vector<float>(count, 1.0f), startTimes);
      SetOffCheck seedCheck;
      for (std::size_t i = 0; i < count; ++i) seedCheck.add(walk.setOff[i], startTimes[i]);
      const double distance = ksDistance(walk.setOff, d);
      distances.push_back(distance);
      passed.push_back(seedCheck.passed() && distance <= ksCritical(count));
      check.early += seedCheck.early;
      check.late += seedCheck.late;
      check.worstDelay = std::max(check.worstDelay, seedCheck.worstDelay);
    }
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = "KS distance " + rangeText(distances, 3) + " (<= " + fixed(ksCritical(count), 3) + "); " +
                    std::to_string(check.early) + " early, " + std::to_string(check.late) + " late";
  result.values = {{"ks_max", *std::max_element(distances.begin(), distances.end())},
                   {"early", static_cast<double>(check.early)},
                   {"late", static_cast<double>(check.late)}};
  return result;
}

Result rimeaDemographics(const Settings& settings, Model model) {
  // 50 adults, ages 20 to 80, and the walking speed of each age on RiMEA's curve after Weidmann.
  return speedsFollow(settings, model, ValueDistribution{ValueDistribution::Kind::WeidmannAge, 20.0, 80.0},
                      50);
}

Result nistDemographics(const Settings& settings, Model model) {
  // 100 persons, N(1.2, 0.2) m/s clipped to three standard deviations.
  return speedsFollow(settings, model, ValueDistribution{ValueDistribution::Kind::Normal, 1.2, 0.2, 0.6, 1.8},
                      100);
}

}  // namespace crowd::cli::verify
