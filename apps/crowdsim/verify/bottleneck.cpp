// Flows through a door against the bottleneck experiments (Kretz et al. 2006, Seyfried et al.
// 2009, Liddle et al. 2011), and a crush check: a large room emptying through one door must not
// pack people beyond what bodies allow.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "floor_run.hpp"
#include "reference_data.hpp"
#include "walks.hpp"

namespace crowd::cli::verify {
namespace {

constexpr float kRoomWidth = 10.0f;    // The wall the door is in.
constexpr double kStartDensity = 2.5;  // P/m^2: the door is saturated from the start.

// The steady flow through a door `width` wide out of a room holding `count` people.
double doorFlow(const Settings& settings, Model model, std::uint64_t seed, float width, std::size_t count) {
  const float depth = roomDepthFor(count, kRoomWidth, kStartDensity);
  const Floor floor = doorRoom(depth, kRoomWidth, width);
  FloorRun run(floor, settings, model, seed, roomCrowd(depth, kRoomWidth, floor, count, seed));
  run.runUntilEmpty(settings.longForm ? 900.0 : 400.0);
  return steadyFlow(run.exitTimes());
}

// ---- a saturated 1 m door ----------------------------------------------------------------

Result oneMetreDoor(const Settings& settings, Model model) {
  const std::size_t count = settings.longForm ? 200 : 120;
  std::vector<double> flows;
  std::vector<bool> passed;
  for (const std::uint64_t seed : seedList(settings)) {
    const double flow = doorFlow(settings, model, seed, 1.0f, count);
    flows.push_back(flow);
    passed.push_back(flow >= 1.3 && flow <= 2.0);
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = rangeText(flows, 2) + " /s";
  result.values = {{"flow_min_per_s", *std::min_element(flows.begin(), flows.end())},
                   {"flow_max_per_s", *std::max_element(flows.begin(), flows.end())}};
  return result;
}

// ---- flow against width ---------------------------------------------------------------------

struct LinearFit {
  double slope = 0, intercept = 0, r2 = 0;
};

LinearFit fitLine(const std::vector<double>& x, const std::vector<double>& y) {
  const auto n = static_cast<double>(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  LinearFit fit;
  fit.slope = sxx > 0 ? sxy / sxx : 0;
  fit.intercept = my - fit.slope * mx;
  fit.r2 = sxx > 0 && syy > 0 ? sxy * sxy / (sxx * syy) : 0;
  return fit;
}

// The experiments find the flow growing about linearly with the width, J ~ 1.9 b: a model
// passes when, for every seed, the flow rises with each wider door, a straight line explains
// at least 90% of its variance, and its slope lies within 1.9 +- 0.5 /(m s), the spread of the
// published fits (Kretz ~1.6 over 0.4..1.2 m, Seyfried ~1.75, Liddle ~1.9).
Result widthSeries(const Settings& settings, Model model) {
  const std::vector<float> widths =
      settings.longForm ? std::vector<float>{0.8f, 1.0f, 1.2f, 1.4f, 1.6f, 1.8f, 2.0f, 2.2f, 2.4f}
                        : std::vector<float>{0.8f, 1.2f, 1.6f, 2.4f};
  const std::size_t count = settings.longForm ? 200 : 100;
  Series flows{"flow", {}, {}};
  std::vector<double> slopes, fits;
  std::vector<bool> passed;
  for (const std::uint64_t seed : seedList(settings)) {
    std::vector<double> x, y;
    bool rising = true;
    for (const float width : widths) {
      const double flow = doorFlow(settings, model, seed, width, count);
      rising = rising && (y.empty() || flow > y.back());
      x.push_back(width);
      y.push_back(flow);
      flows.x.push_back(width);
      flows.y.push_back(flow);
    }
    const LinearFit fit = fitLine(x, y);
    slopes.push_back(fit.slope);
    fits.push_back(fit.r2);
    passed.push_back(rising && fit.r2 >= 0.9 && fit.slope >= kBottleneckSpecificFlow - 0.5 &&
                     fit.slope <= kBottleneckSpecificFlow + 0.5);
  }
  Result result;
  result.outcome = allPassed(passed);
  std::string perWidth;
  for (std::size_t w = 0; w < widths.size(); ++w) {
    double mean = 0;
    for (std::size_t s = 0; s < slopes.size(); ++s) mean += flows.y[s * widths.size() + w];
    mean /= static_cast<double>(slopes.size());
    if (w > 0) perWidth += ", ";
    perWidth += fixed(mean, 2);
    result.values.emplace_back("flow_at_" + fixed(widths[w], 1) + "_m_per_s", mean);
  }
  result.measured =
      "slope " + rangeText(slopes, 2) + " /(m s), R2 " + rangeText(fits, 2) + "; J " + perWidth + " /s";
  result.values.emplace_back("slope_per_m_s", slopes.front());
  result.values.emplace_back("r2", fits.front());
  result.series = {std::move(flows)};
  return result;
}

// ---- crush ---------------------------------------------------------------------------------

// A room at 2 P/m^2 empties through one 1 m door. In front of the door six 1 x 1 m squares
// (three across, two deep) measure the density: the Voronoi density must stay at or below
// 7 P/m^2 at every instant, and no two bodies may come closer than 0.8 of the sum of their radii.
// The classic count is shown beside: a 1 m^2 square can hold nine centres of 0.4 m bodies in a
// square lattice without any overlap, so it says less. A criterion for the two pedestrian models
// only: ORCA's figures are shown for comparison.
Result crush(const Settings& settings, Model model) {
  const std::size_t count = settings.longForm ? 1000 : 300;
  const float width = settings.longForm ? 20.0f : 12.0f;
  const float depth = roomDepthFor(count, width, 2.0);
  const double limit = settings.longForm ? 1800.0 : 600.0;
  std::vector<double> voronoi, classic, pairs, lastOut;
  std::vector<bool> passed;
  for (const std::uint64_t seed : seedList(settings)) {
    const Floor floor = doorRoom(depth, width, 1.0f);
    FloorRun run(floor, settings, model, seed, roomCrowd(depth, width, floor, count, seed));
    MeasurementPlan plan;
    plan.voronoiCutOff = 0.8f;  // PedPy's examples' cut-off.
    const float mid = 0.5f * width;
    for (int row = 0; row < 3; ++row) {
      for (int column = 0; column < 2; ++column) {
        const Vec2 lo(depth - 1.0f - static_cast<float>(column), mid - 1.5f + static_cast<float>(row));
        plan.areas.push_back(MeasurementArea{"square " + std::to_string(row * 2 + column),
                                             rectangle(lo, lo + Vec2(1.0f, 1.0f))});
      }
    }
    run.measure(plan);
    run.trackClosestPair();
    run.runUntilEmpty(limit);
    double mostVoronoi = 0, mostClassic = 0;
    for (const AreaSeries& area : run.measurements().areas()) {
      for (const double d : area.voronoiDensity) mostVoronoi = std::max(mostVoronoi, d);
      for (const double d : area.density) mostClassic = std::max(mostClassic, d);
    }
    voronoi.push_back(mostVoronoi);
    classic.push_back(mostClassic);
    pairs.push_back(run.closestPair());
    if (run.lastExitTime() >= 0) lastOut.push_back(run.lastExitTime());
    passed.push_back(mostVoronoi <= 7.0 && run.closestPair() >= 0.8);
  }
  Result result;
  result.outcome = isPedestrianModel(model) ? allPassed(passed) : Outcome::Info;
  result.measured = "Voronoi " + rangeText(voronoi, 1) + " P/m2 (classic " + rangeText(classic, 0) +
                    "), closest pair " + rangeText(pairs, 2) + " x radii; " +
                    (lastOut.size() == voronoi.size() ? "out in " + rangeText(lastOut, 0) + " s"
                                                      : "not all out in " + fixed(limit, 0) + " s");
  result.values = {{"voronoi_density_max_per_m2", *std::max_element(voronoi.begin(), voronoi.end())},
                   {"classic_density_max_per_m2", *std::max_element(classic.begin(), classic.end())},
                   {"closest_pair_ratio", *std::min_element(pairs.begin(), pairs.end())}};
  return result;
}

}  // namespace

std::vector<TestCase> bottleneckTests() {
  return {
      {"Bottleneck 1 m", "saturated door", "Kretz 2006, Seyfried 2009, Liddle 2011", "1.3..2.0 persons/s",
       "200 persons (short form 120) at 2.5 P/m2 leave a room by a 1 m door; the steady flow (the 10% to 90% "
       "crossings)",
       true, nullptr, oneMetreDoor},
      {"Bottleneck widths", "flow against door width", "Kretz 2006, Seyfried 2009, Liddle 2011",
       "J rises with b; R2 >= 0.9; slope 1.4..2.4/(m s)",
       "the same room with doors 0.8 to 2.4 m wide (short form 0.8, 1.2, 1.6, 2.4); slope and R2 of the flow "
       "against the width",
       true, nullptr, widthSeries},
      {"Crush", "room emptying through one door", "this project's safety target",
       "Voronoi <= 7 P/m2, pairs >= 0.8 x (ri+rj)",
       "1000 persons (short form 300) at 2 P/m2 leave by a 1 m door; the densest 1 m2 square in front of it "
       "and "
       "the closest pair of bodies",
       true, nullptr, crush},
  };
}

}  // namespace crowd::cli::verify
