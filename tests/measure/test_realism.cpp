// Re-enacting recorded scenes and measuring them as the recordings are measured. The recorded
// figures are checked against those published with the ETH/UCY files (their README in
// ../shared/data/pedestrians, computed independently with numpy); those tests skip without it.
#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include <crowd/realism.hpp>

namespace crowd {
namespace {

std::filesystem::path pedestrians() {
  return std::filesystem::path(CROWD_SHARED_DATA_DIR) / "pedestrians";
}

RecordedScene sharedScene(const char* file) {
  return loadRecordedScene((pedestrians() / file).string());
}

#define SKIP_WITHOUT_PEDESTRIANS()                                                                \
  if (!std::filesystem::exists(pedestrians() / "crowds_zara01.txt")) {                            \
    GTEST_SKIP() << "the ETH/UCY recordings are not at " << pedestrians() << " (../shared/data)"; \
  }

// A pedestrian every 0.4 s (frames 10 apart), walking along x at `speed` from `x0`.
std::string straightWalk(int pedestrian, double x0, double y, double speed, int annotations,
                         int firstFrame = 0) {
  std::string text;
  for (int j = 0; j < annotations; ++j) {
    text += std::to_string(firstFrame + 10 * j) + " " + std::to_string(pedestrian) + " " +
            std::to_string(x0 + speed * 0.4 * j) + " " + std::to_string(y) + "\n";
  }
  return text;
}

TEST(Realism, PercentilesInterpolateAsNumpyDoes) {
  const Distribution d = distributionOf({4.0, 1.0, 3.0, 2.0});
  EXPECT_EQ(d.count, 4u);
  EXPECT_DOUBLE_EQ(d.mean, 2.5);
  EXPECT_DOUBLE_EQ(d.min, 1.0);
  EXPECT_NEAR(d.p5, 1.15, 1e-12);  // numpy.percentile([1, 2, 3, 4], 5)
  EXPECT_NEAR(d.p50, 2.5, 1e-12);
  EXPECT_NEAR(d.p95, 3.85, 1e-12);
  EXPECT_TRUE(std::isnan(distributionOf({}).p50));
}

TEST(Realism, RecordedFiguresMatchThosePublishedWithTheData) {
  SKIP_WITHOUT_PEDESTRIANS();
  struct Published {
    const char* file;
    double frameTime;
    std::size_t pedestrians, speeds;
    double speedMean, speedP5, speedP50, speedP95;
    std::size_t instants;
    double closeMean, closeP5, closeP50, closeP95, closeMin;
    int mostAtOnce;
  };
  const Published published[] = {{"crowds_zara01.txt", 0.4, 148, 5005, 1.071, 0.269, 1.154, 1.542, 861, 0.949,
                                  0.493, 0.749, 1.638, 0.291, 20},
                                 {"biwi_eth.txt", 0.4 * 10 / 6, 360, 5132, 1.376, 0.117, 1.471, 1.937, 799,
                                  1.323, 0.503, 0.828, 4.162, 0.155, 27}};
  for (const Published& p : published) {
    SCOPED_TRACE(p.file);
    const RecordedScene scene = sharedScene(p.file);
    EXPECT_EQ(scene.tracks.size(), p.pedestrians);
    EXPECT_EQ(scene.mostAtOnce(), p.mostAtOnce);
    const SceneStats s = measureScene(scene, recordedTrajectories(scene), p.frameTime, 0.5);
    EXPECT_EQ(s.speed.count, p.speeds);
    EXPECT_NEAR(s.speed.mean, p.speedMean, 5e-4);
    EXPECT_NEAR(s.speed.p5, p.speedP5, 5e-4);
    EXPECT_NEAR(s.speed.p50, p.speedP50, 5e-4);
    EXPECT_NEAR(s.speed.p95, p.speedP95, 5e-4);
    EXPECT_EQ(s.closestPair.count, p.instants);
    EXPECT_NEAR(s.closestPair.mean, p.closeMean, 5e-4);
    EXPECT_NEAR(s.closestPair.p5, p.closeP5, 5e-4);
    EXPECT_NEAR(s.closestPair.p50, p.closeP50, 5e-4);
    EXPECT_NEAR(s.closestPair.p95, p.closeP95, 5e-4);
    EXPECT_NEAR(s.closestPair.min, p.closeMin, 5e-4);
    EXPECT_EQ(s.ade, -1.0);  // Not compared with anything.
  }
}

TEST(Realism, ALoneWalkerKeepsToTheRecordedLineAndTime) {
  const RecordedScene scene = parseRecordedScene(straightWalk(3, 2.0, 5.0, 1.2, 21), "alone");
  for (const Pace pace : {Pace::Schedule, Pace::Mean}) {
    RealismOptions options;
    options.pace = pace;
    const SceneTrajectories sim = simulateRecordedScene(scene, options);
    ASSERT_EQ(sim.size(), 1u);
    ASSERT_EQ(sim[0].size(), 21u);
    EXPECT_NEAR(sim[0][0].x, 2.0, 1e-5);  // Enters where the recording shows them.
    for (const glm::dvec2& p : sim[0]) EXPECT_NEAR(p.y, 5.0, 1e-5);
    const SceneTrajectories recorded = recordedTrajectories(scene);
    const SceneStats s = measureScene(scene, sim, options.frameTime, 0.495, &recorded);
    if (pace == Pace::Schedule) {
      // Paced to arrive on time: on the recording at every annotation.
      EXPECT_LT(s.ade, 1e-3);
      EXPECT_LT(s.fde, 1e-3);
    } else {
      // RVO2's goal rule slows down over the last prefSpeed metres: only the end lags.
      EXPECT_LT(s.ade, 0.05);
      EXPECT_GT(s.fde, 0.2);
      EXPECT_LT(s.fde, 0.6);
    }
    EXPECT_NEAR(s.speed.p50, 1.2, 1e-3);
  }
}

TEST(Realism, OrcaKeepsAHeadOnPairApartWhereStraightWalksCollide) {
  // Recorded walking straight through each other (1 m/s, 8 m apart, head on, 0.1 m offset).
  std::string text = straightWalk(1, 0.0, 0.0, 1.0, 21);
  for (int j = 0; j < 21; ++j) {
    text += std::to_string(10 * j) + " 2 " + std::to_string(8.0 - 0.4 * j) + " 0.1\n";
  }
  const RecordedScene scene = parseRecordedScene(text, "head-on");
  RealismOptions orca;
  RealismOptions straight;
  straight.avoidance = AvoidanceMode::None;
  const double contact = 0.99 * 2 * orca.params.radius;
  const SceneStats withOrca =
      measureScene(scene, simulateRecordedScene(scene, orca), orca.frameTime, contact);
  const SceneStats without =
      measureScene(scene, simulateRecordedScene(scene, straight), orca.frameTime, contact);
  EXPECT_GE(withOrca.closestPair.min, contact);
  EXPECT_EQ(withOrca.closeInstants, 0u);
  EXPECT_LT(without.closestPair.min, 0.2);
  EXPECT_GT(without.closeInstants, 0u);
}

TEST(Realism, PedestriansEnterAndLeaveWithTheirAnnotations) {
  // 5 appears at frame 100 and leaves after frame 140; 1 walks the whole time.
  const RecordedScene scene = parseRecordedScene(
      straightWalk(1, 0.0, 0.0, 1.0, 21) + straightWalk(5, 0.0, 10.0, 1.0, 5, 100), "staggered");
  const SceneTrajectories sim = simulateRecordedScene(scene, RealismOptions{});
  ASSERT_EQ(sim[1].size(), 5u);
  EXPECT_NEAR(sim[1][0].x, 0.0, 1e-5);
  EXPECT_NEAR(sim[1][0].y, 10.0, 1e-5);
  EXPECT_GT(sim[1][4].x, 1.0);  // Walked for 1.6 s after entering, not for 5.6.
  EXPECT_LT(sim[1][4].x, 1.7);
}

// Steps are spent only where somebody is in the scene: two walks of 20 intervals overlapping in
// 10, then an empty stretch, then one of 4, at 3 substeps: (30 + 4) x 3.
TEST(Realism, ReenactmentStepsCountOnlyInstantsWithSomeoneInTheScene) {
  const RecordedScene scene =
      parseRecordedScene(straightWalk(1, 0.0, 0.0, 1.0, 21) + straightWalk(2, 0.0, 5.0, 1.0, 21, 100) +
                             straightWalk(3, 0.0, 9.0, 1.0, 5, 1000),
                         "gaps");
  ASSERT_EQ(scene.instants, 105);
  EXPECT_EQ(reenactmentSteps(scene, 3), (30 + 4) * 3);
  EXPECT_EQ(reenactmentSteps(scene, 1), 34);
}

TEST(Realism, ReenactmentsMatchTheRecordingsWhereORCAShouldAndDifferWhereItMust) {
  SKIP_WITHOUT_PEDESTRIANS();
  const RecordedScene scene = sharedScene("crowds_zara01.txt");
  RealismOptions orca;
  orca.threads = 2;
  RealismOptions straight = orca;
  straight.avoidance = AvoidanceMode::None;
  const double contact = 0.99 * 2 * orca.params.radius;
  const SceneTrajectories recorded = recordedTrajectories(scene);
  const SceneTrajectories orcaPaths = simulateRecordedScene(scene, orca);
  const SceneStats real = measureScene(scene, recorded, orca.frameTime, contact);
  const SceneStats withOrca = measureScene(scene, orcaPaths, orca.frameTime, contact, &recorded);
  const SceneStats without =
      measureScene(scene, simulateRecordedScene(scene, straight), orca.frameTime, contact, &recorded);
  // Walking speeds within 10% of the recorded ones at the median.
  EXPECT_NEAR(withOrca.speed.p50, real.speed.p50, 0.1 * real.speed.p50);
  // ORCA keeps pairs apart more than real people do (who walk in touching groups); without
  // avoidance, pairs overlap far more often than in the recording.
  EXPECT_LT(withOrca.closeInstants, real.closeInstants / 4);
  EXPECT_GT(without.closeInstants, 2 * real.closeInstants);
  // Every pedestrian ends near where the recording does.
  EXPECT_LT(withOrca.fde, 1.0);
  // The same for any thread count.
  orca.threads = 1;
  EXPECT_EQ(simulateRecordedScene(scene, orca), orcaPaths);
}

TEST(Realism, RefusesOptionsOutsideTheirLimits) {
  const RecordedScene scene = parseRecordedScene(straightWalk(1, 0, 0, 1, 3), "s");
  RealismOptions o;
  o.frameTime = 0.0;
  EXPECT_THROW(simulateRecordedScene(scene, o), std::invalid_argument);
  o = RealismOptions{};
  o.substeps = 0;
  EXPECT_THROW(simulateRecordedScene(scene, o), std::invalid_argument);
  o = RealismOptions{};
  o.maxSpeedFactor = 0.5;
  EXPECT_THROW(simulateRecordedScene(scene, o), std::invalid_argument);
  o = RealismOptions{};
  o.params.radius = -1.0f;
  EXPECT_THROW(simulateRecordedScene(scene, o), std::invalid_argument);
  o = RealismOptions{};
  o.frameTime = 1e-12;  // A time step below the simulator's limit.
  EXPECT_THROW(simulateRecordedScene(scene, o), std::invalid_argument);
  o = RealismOptions{};
  o.threads = -3;
  EXPECT_THROW(simulateRecordedScene(scene, o), std::invalid_argument);
  // A pedestrian beyond the speed limit: a recording read with far too short a frame time.
  o = RealismOptions{};
  o.frameTime = 1e-5;
  o.substeps = 1;
  try {
    simulateRecordedScene(scene, o);
    ADD_FAILURE() << "a pedestrian at 1e5 m/s was re-enacted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pedestrian 1 walks"), std::string::npos) << e.what();
  }
}

TEST(Realism, RefusesScenesMadeWrongInCode) {
  RecordedScene scene = parseRecordedScene(straightWalk(1, 0, 0, 1, 3) + straightWalk(2, 0, 5, 1, 3), "s");
  const RealismOptions o;
  RecordedScene empty = scene;
  empty.tracks[0].points.clear();
  EXPECT_THROW(simulateRecordedScene(empty, o), std::invalid_argument);
  EXPECT_THROW(measureScene(empty, recordedTrajectories(scene), o.frameTime, 0.5), std::invalid_argument);
  RecordedScene unordered = scene;
  std::swap(unordered.tracks[1].points[0], unordered.tracks[1].points[2]);
  EXPECT_THROW(simulateRecordedScene(unordered, o), std::invalid_argument);
  RecordedScene beyond = scene;
  beyond.tracks[0].points.back().instant = scene.instants;
  EXPECT_THROW(simulateRecordedScene(beyond, o), std::invalid_argument);
  RecordedScene notFinite = scene;
  notFinite.tracks[1].points[1].position.x = INFINITY;
  EXPECT_THROW(simulateRecordedScene(notFinite, o), std::invalid_argument);
  // Trajectories of another scene.
  EXPECT_THROW(measureScene(scene, SceneTrajectories(1), o.frameTime, 0.5), std::invalid_argument);
}

}  // namespace
}  // namespace crowd
