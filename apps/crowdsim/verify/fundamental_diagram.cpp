// RiMEA test 4, the fundamental diagram: a corridor filled at a given density with people placed
// at random, everyone walking +x at the free speed (a fixed preferred velocity of (1.34, 0)),
// measured in a 2 x 2 m area in the middle from 10 s to 30 s: the mean speed of those inside
// against Weidmann's diagram at the density measured there.
//
// The corridor repeats along x every 20 m (the scenario's "periodic"), as JuPedSim and Vadere
// measure it: whoever walks out at its end comes in at its start, so the density stays what it
// was set to for as long as the run lasts, with no front thinning out and no tail passing the
// area. (Without it, an 84 m crowd was needed to keep both 41 m from the area for 30 s.)
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "floor_run.hpp"
#include "reference_data.hpp"
#include "verify_test.hpp"

namespace crowd::cli::verify {
namespace {

// m: the period, longer than twice the pedestrian preset's neighbour range (4 m) as a repeating
// world requires; the area sits in its middle.
constexpr float kPeriod = 20.0f;
constexpr float kAreaFrom = 9.0f;
constexpr double kWarmUp = 10.0;  // s, discarded (RiMEA: the first 10 s).
constexpr double kWindowEnd = 30.0;
// The criterion, this project's target for a pedestrian model: speeds within 0.15 m/s of
// Weidmann's at the densities measured, and the largest specific flow between 1.0 and 2.0.
constexpr double kSpeedTolerance = 0.15;
constexpr double kPeakFlowLow = 1.0;
constexpr double kPeakFlowHigh = 2.0;
constexpr double kJudgedDensities[] = {0.5, 1.0, 2.0, 3.0, 4.0};

struct AreaMean {
  double density = 0;  // Classic: mean count / area over the window.
  double speed = 0;    // Mean speed of the people in the area over the window.
  double voronoiDensity = 0;
  double voronoiSpeed = 0;
};

AreaMean meanOver(const AreaSeries& area, double t0, double t1) {
  AreaMean mean;
  double samples = 0, people = 0, speedSum = 0;
  for (std::size_t k = 0; k < area.time.size(); ++k) {
    if (area.time[k] < t0 - 1e-9 || area.time[k] > t1 + 1e-9) continue;
    samples += 1;
    mean.density += area.density[k];
    mean.voronoiDensity += area.voronoiDensity[k];
    mean.voronoiSpeed += area.voronoiSpeed[k];
    people += static_cast<double>(area.count[k]);
    speedSum += static_cast<double>(area.count[k]) * area.speed[k];
  }
  if (samples > 0) {
    mean.density /= samples;
    mean.voronoiDensity /= samples;
    mean.voronoiSpeed /= samples;
  }
  mean.speed = people > 0 ? speedSum / people : 0.0;
  return mean;
}

AreaMean measureAt(const Settings& settings, Model model, std::uint64_t seed, double density, float width) {
  Floor floor;
  addSpace(floor, Vec2(0.0f, 0.0f), Vec2(kPeriod, width));
  // The walls run past both ends: a repeating world does not repeat its walls.
  addWall(floor, Vec2(-5.0f, 0.0f), Vec2(kPeriod + 5.0f, 0.0f));
  addWall(floor, Vec2(kPeriod + 5.0f, width), Vec2(-5.0f, width));
  floor.periodicX = PeriodicRange{0.0f, kPeriod};
  const auto count = static_cast<std::size_t>(std::lround(density * kPeriod * width));
  // Uniformly at random, as RiMEA fills the corridor: bodies may overlap at first, and the
  // ten seconds before measuring let the model part them. Inside [0, 20) m, as the period asks.
  const std::vector<Vec2> places =
      scatter(Vec2(0.0f, 0.2f), Vec2(kPeriod - 0.01f, width - 0.2f), count, 0.0f, seed * 1000 + 7);
  std::vector<Person> people(places.size());
  for (std::size_t i = 0; i < places.size(); ++i) {
    people[i].position = places[i];
    people[i].prefVelocity = Vec2(1.34f, 0.0f);
  }
  FloorRun run(floor, settings, model, seed, people);
  run.runUntil(kWarmUp);
  MeasurementPlan plan;
  const float mid = 0.5f * width;
  plan.areas.push_back(
      MeasurementArea{"main", rectangle(Vec2(kAreaFrom, mid - 1.0f), Vec2(kAreaFrom + 2.0f, mid + 1.0f))});
  run.measure(plan);
  run.runUntil(kWindowEnd);
  return meanOver(run.measurements().areas()[0], kWarmUp, kWindowEnd);
}

}  // namespace

Result runFundamentalDiagram(const Settings& settings, Model model) {
  // The guideline's 10 m in both forms: in a narrower corridor (4 m was tried) the walls hold a
  // larger share of the crowd, and a model's speed at a density strays from the open crowd's.
  const float width = 10.0f;
  std::vector<double> densities = {0.5, 1.0, 2.0, 3.0, 4.0};
  if (settings.longForm) densities.insert(densities.end(), {5.0, 6.0});
  Result result;
  Series speeds{"speed", {}, {}};
  Series flows{"flow", {}, {}};
  std::vector<double> worstDeviation, peakFlow, peakAt;
  std::vector<bool> passed;
  std::vector<AreaMean> sums(densities.size());
  const std::vector<std::uint64_t> seeds = seedList(settings);
  for (const std::uint64_t seed : seeds) {
    double worst = 0, peak = 0, peakDensity = 0;
    for (std::size_t d = 0; d < densities.size(); ++d) {
      const AreaMean m = measureAt(settings, model, seed, densities[d], width);
      speeds.x.push_back(m.density);
      speeds.y.push_back(m.speed);
      flows.x.push_back(m.density);
      flows.y.push_back(m.density * m.speed);
      sums[d].density += m.density;
      sums[d].speed += m.speed;
      sums[d].voronoiDensity += m.voronoiDensity;
      sums[d].voronoiSpeed += m.voronoiSpeed;
      if (std::find(std::begin(kJudgedDensities), std::end(kJudgedDensities), densities[d]) !=
          std::end(kJudgedDensities)) {
        worst = std::max(worst, std::fabs(m.speed - weidmannSpeed(m.density)));
      }
      if (m.density * m.speed > peak) {
        peak = m.density * m.speed;
        peakDensity = densities[d];
      }
    }
    worstDeviation.push_back(worst);
    peakFlow.push_back(peak);
    peakAt.push_back(peakDensity);
    passed.push_back(worst <= kSpeedTolerance && peak >= kPeakFlowLow && peak <= kPeakFlowHigh);
  }
  const auto n = static_cast<double>(seeds.size());
  for (std::size_t d = 0; d < densities.size(); ++d) {
    const std::string at = fixed(densities[d], 1);
    result.values.emplace_back("density_" + at + "_measured_per_m2", sums[d].density / n);
    result.values.emplace_back("density_" + at + "_speed_m_per_s", sums[d].speed / n);
    result.values.emplace_back("density_" + at + "_weidmann_m_per_s", weidmannSpeed(sums[d].density / n));
    result.values.emplace_back("density_" + at + "_voronoi_density_per_m2", sums[d].voronoiDensity / n);
    result.values.emplace_back("density_" + at + "_voronoi_speed_m_per_s", sums[d].voronoiSpeed / n);
  }
  result.values.emplace_back("worst_speed_deviation_m_per_s",
                             *std::max_element(worstDeviation.begin(), worstDeviation.end()));
  double meanPeak = 0;
  for (const double peak : peakFlow) meanPeak += peak / n;
  result.values.emplace_back("peak_specific_flow_per_m_s", meanPeak);
  result.outcome = allPassed(passed);
  result.measured = "max |v-vW| " + rangeText(worstDeviation, 2) + " m/s, Jmax " + rangeText(peakFlow, 2) +
                    " at " + rangeText(peakAt, 1) + " P/m2";
  result.series = {std::move(speeds), std::move(flows)};
  return result;
}

}  // namespace crowd::cli::verify
