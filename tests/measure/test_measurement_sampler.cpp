// A run's measurements (MeasurementSampler over a scenario file's "measure") against a stream of
// walkers worked out by hand: ten agents in file 0.5 m apart, walking at a fixed 1 m/s with no
// model to disturb them, through a line and an area; sampled at the time step, at an interval the
// step does not divide, and far from the origin, where the simulator computes in its own frame.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/measurement_sampler.hpp>
#include <crowd/scenario.hpp>

namespace crowd {
namespace {

// Agent k starts at x = offset - 0.25 - 0.5 k on y = 0 with velocity and preferred velocity
// (1, 0) and no model: it moves exactly 1 m/s. The line x = offset (from y = 1 to y = -1, so
// forward is +x) is crossed by agent k at 0.25 + 0.5 k s. The area [offset - 3, offset - 1] x
// [-1, 1] (4 m^2) holds the four agents whose x lies in it.
std::string stream(double offset, const std::string& interval) {
  std::string agents;
  for (int k = 0; k < 10; ++k) {
    const double x = offset - 0.25 - 0.5 * k;
    agents += (k == 0 ? "" : ", ") + std::string(R"({"position": [)") + std::to_string(x) +
              R"(, 0], "velocity": [1, 0], "prefVelocity": [1, 0]})";
  }
  const std::string at = std::to_string(offset);
  return R"({"timeStep": 0.1, "steps": 50,
    "agentDefaults": {"model": "none", "radius": 0.2, "maxSpeed": 2, "neighborDist": 2},
    "agents": [)" +
         agents + R"(],
    "measure": {"interval": )" +
         interval + R"(,
      "areas": [{"name": "before", "min": [)" +
         std::to_string(offset - 3) + R"(, -1], "max": [)" + std::to_string(offset - 1) + R"(, 1]}],
      "lines": [{"name": "gate", "from": [)" +
         at + R"(, 1], "to": [)" + at + R"(, -1]}]}})";
}

// The sampler after the run (it holds the measurements, which are not copied).
MeasurementSampler runStream(double offset, const std::string& interval) {
  const Scenario scenario = parseScenario(stream(offset, interval), "stream.json");
  Simulator sim = makeSimulator(scenario, 2);
  MeasurementSampler sampler(*scenario.measure, sim);
  for (std::int64_t s = 0; s < scenario.steps; ++s) {
    sim.step();
    sampler.afterStep(sim);
  }
  return sampler;
}

TEST(MeasurementSampler, AStreamThroughALineGivesItsFlowAndNt) {
  const MeasurementSampler run = runStream(0.0, "0.1");
  const Measurements& m = run.measurements();
  const LineSeries& line = m.lines()[0];
  // Sampled at t = 0 and after every step: 51 instants, 0.1 s apart.
  ASSERT_EQ(line.time.size(), 51u);
  EXPECT_DOUBLE_EQ(line.time[0], 0.0);
  EXPECT_NEAR(line.time[50], 5.0, 1e-5);
  ASSERT_EQ(line.crossings.size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) {
    EXPECT_EQ(line.crossings[k].id.index, k);
    EXPECT_EQ(line.crossings[k].direction, +1);
    EXPECT_NEAR(line.crossings[k].time, 0.25 + 0.5 * static_cast<double>(k), 1e-4) << "agent " << k;
  }
  // N(t) at sample j (t = 0.1 j): the agents with 0.25 + 0.5 k <= 0.1 j, that is k <= (j - 2.5) / 5.
  for (std::size_t j = 0; j < line.time.size(); ++j) {
    const std::int64_t expected = j < 3 ? 0 : static_cast<std::int64_t>((j - 3) / 5 + 1);
    EXPECT_EQ(line.forward[j], expected) << "at sample " << j;
    EXPECT_EQ(line.backward[j], 0);
  }
  // Ten persons in 5 s through 2 m: 2 P/s, 1 P/(m s).
  EXPECT_NEAR(flowRate(line, 0.0, line.time.back()), 2.0, 1e-5);
  EXPECT_NEAR(specificFlow(line, 0.0, line.time.back()), 1.0, 1e-5);
  // The area: four agents (x = -1.25 .. -2.75) in 4 m^2 at the start, and four again at t = 1
  // (agents 4 to 7, at -1.25 .. -2.75 once more), all at 1 m/s.
  const AreaSeries& area = m.areas()[0];
  EXPECT_DOUBLE_EQ(area.area, 4.0);
  for (const std::size_t j : {std::size_t{0}, std::size_t{10}}) {
    EXPECT_EQ(area.count[j], 4) << "at sample " << j;
    EXPECT_DOUBLE_EQ(area.density[j], 1.0);
    EXPECT_NEAR(area.speed[j], 1.0, 1e-6);
  }
  // By t = 5 every agent has passed x = -1 (the last, from -4.75, is at 0.25): nobody is inside.
  EXPECT_EQ(area.count[50], 0);
}

TEST(MeasurementSampler, AnIntervalTheStepDoesNotDivideIsSampledAtTheFirstStepPastEachMultiple) {
  // Multiples of 0.25 s with 0.1 s steps: reached at 0.3, 0.5, 0.8, 1.0, ... (the first step at or
  // past each), 20 of them in 5 s, and the start.
  const MeasurementSampler run = runStream(0.0, "0.25");
  const Measurements& m = run.measurements();
  const LineSeries& line = m.lines()[0];
  ASSERT_EQ(line.time.size(), 21u);
  for (std::size_t n = 1; n < line.time.size(); ++n) {
    const double expected = 0.1 * std::ceil(2.5 * static_cast<double>(n) - 1e-9);
    EXPECT_NEAR(line.time[n], expected, 1e-5) << "sample " << n;
  }
  // Crossings are interpolated between samples, whatever their spacing.
  ASSERT_EQ(line.crossings.size(), 10u);
  EXPECT_NEAR(line.crossings[3].time, 1.75, 1e-4);
  EXPECT_EQ(line.forward.back(), 10);
}

TEST(MeasurementSampler, FarFromTheOriginTheSameStreamGivesTheSameFigures) {
  // At x = 1e5 the simulator computes in a frame near the scene (SimulatorConfig::origin); the
  // sampler moves the plan there, so that the stream crosses its line as it does at 0 (unmoved,
  // the line would lie 1e5 m from every agent: no crossing at all). The frame's origin is a
  // multiple of 4096, here 98304, some 1700 m from the agents, where floats lie 1.2e-4 m apart:
  // 50 steps' rounding moves a walker by up to a few millimetres, a few milliseconds at 1 m/s.
  const MeasurementSampler nearRun = runStream(0.0, "0.1");
  const MeasurementSampler farRun = runStream(100000.0, "0.1");
  const Measurements& near = nearRun.measurements();
  const Measurements& far = farRun.measurements();
  ASSERT_EQ(far.lines()[0].crossings.size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) {
    EXPECT_NEAR(far.lines()[0].crossings[k].time, near.lines()[0].crossings[k].time, 5e-3) << "agent " << k;
  }
  EXPECT_EQ(far.lines()[0].forward, near.lines()[0].forward);
  EXPECT_EQ(far.areas()[0].count, near.areas()[0].count);
}

}  // namespace
}  // namespace crowd
