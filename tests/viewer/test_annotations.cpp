// The annotations drawn over a picture (crowd/viewer/annotations.hpp), read back from the pixels:
// the scale bar spans its round length in metres, the legend shows the colours the agents are
// drawn in, a measurement area's outline and an exit's mark lie where they are in the world, and
// nothing outside the annotations' boxes changes. Skips where no OpenGL 3.3 context can be made.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/viewer/annotations.hpp>
#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/renderer.hpp>

#include "viewer/picture.hpp"

namespace crowd::viewer {
namespace {

using test::Picture;

// A colour from the palette's floats, as the framebuffer stores it.
void bytes(const float (&c)[3], std::uint8_t (&out)[3]) {
  for (int k = 0; k < 3; ++k) out[k] = static_cast<std::uint8_t>(std::lround(c[k] * 255.0f));
}

class Annotate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (context_ != nullptr || !why_.empty()) return;
    try {
      context_ = OffscreenContext::create().release();  // For the program's life (test_render.cpp).
    } catch (const std::exception& e) {
      why_ = e.what();
    }
  }
  void SetUp() override {
    if (!context_) GTEST_SKIP() << "skipped: " << why_;
  }

  // The scene and its agents, then the annotations when `layout` is given.
  static Picture draw(const StaticScene& scene, const Frame& frame, const Camera& camera, int width,
                      int height, ColorBy colorBy, AnnotationLayout* layout, double time = 12.34) {
    Renderer renderer;
    Framebuffer target(width, height);
    target.bind();
    renderer.setStatic(scene);
    renderer.setAgents(frame.agents);
    renderer.setColorBy(colorBy);
    renderer.draw(camera, width, height);
    if (layout != nullptr) {
      Annotator annotator;
      *layout = annotator.draw(camera, width, height, scene, colorBy, time);
    }
    return Picture{width, height, target.readRgb()};
  }

  static OffscreenContext* context_;
  static std::string why_;
};
OffscreenContext* Annotate::context_ = nullptr;
std::string Annotate::why_;

// A wall across the bottom, two agents of two profiles (one walking), a measurement area from
// (2, 2) to (8, 6), an exit at (-6, 4) and a goal at (6, -2).
Simulator markedWorld() {
  Simulator sim;
  sim.addObstacle(std::vector<Vec2>{{-9, -5}, {9, -5}, {9, -4}, {-9, -4}});
  AgentDef a;
  a.position = Vec2(-4, 0);
  a.params.radius = 0.5f;
  a.params.maxSpeed = 1.5f;
  a.goal = Vec2(6, -2);
  sim.addAgent(a);
  AgentDef b = a;
  b.position = Vec2(-1, 0);
  b.params.radius = 0.6f;  // Another profile.
  sim.addAgent(b);
  return sim;
}

StaticScene markedScene(const Simulator& sim) {
  StaticScene scene = StaticScene::fromSimulator(sim);
  Marks marks;
  marks.areas.push_back({{2, 2}, {8, 2}, {8, 6}, {2, 6}});
  marks.exits.emplace_back(-6, 4);
  scene.marks.add(marks);
  return scene;
}

TEST(ScaleBar, IsTheLongestRoundLengthWithinAFifthOfTheWidth) {
  // A fifth of 1280 pixels at 10 pixels a metre is 25.6 m: 20 m. At 1 a metre, 256: 200.
  EXPECT_DOUBLE_EQ(scaleBarMetres(10.0f, 1280), 20.0);
  EXPECT_DOUBLE_EQ(scaleBarMetres(1.0f, 1280), 200.0);
  // 128 pixels at 37 a metre is 3.46 m: 2. At 300 a metre, 0.427: 0.2. At 12.8: exactly 10.
  EXPECT_DOUBLE_EQ(scaleBarMetres(37.0f, 640), 2.0);
  EXPECT_NEAR(scaleBarMetres(300.0f, 640), 0.2, 1e-12);
  EXPECT_DOUBLE_EQ(scaleBarMetres(12.8f, 640), 10.0);
  // 0.9 m in 128 pixels: 0.5 m.
  EXPECT_DOUBLE_EQ(scaleBarMetres(128.0f / 0.9f, 640), 0.5);
}

TEST_F(Annotate, ScaleBarSpansItsLengthInPixels) {
  Simulator sim = markedWorld();
  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);
  const Camera camera{Vec2(0, 0), 32.0f};  // 640 x 360 pixels: x -10 .. 10, y -5.6 .. 5.6.
  AnnotationLayout layout;
  const Picture p = draw(markedScene(sim), frame, camera, 640, 360, ColorBy::Speed, &layout);
  // The longest run of the bar's colour along a row of the scale's panel.
  int longest = 0;
  for (int y = layout.scale.y0; y < layout.scale.y1; ++y) {
    int run = 0;
    for (int x = layout.scale.x0; x < layout.scale.x1; ++x) {
      run = p.is(x, y, AnnotationPalette::kScaleBar, 2) ? run + 1 : 0;
      longest = std::max(longest, run);
    }
  }
  // A fifth of 640 pixels at 32 a metre is 4 m: the bar is 2 m, 64 pixels.
  EXPECT_DOUBLE_EQ(layout.scaleMetres, 2.0);
  EXPECT_EQ(longest, 64);
  EXPECT_EQ(layout.bar.x1 - layout.bar.x0, 64);
}

TEST_F(Annotate, OnlyTheAnnotatedBoxesChange) {
  Simulator sim = markedWorld();
  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);
  const StaticScene scene = markedScene(sim);
  const Camera camera{Vec2(0, 0), 32.0f};
  AnnotationLayout layout;
  const Picture plain = draw(scene, frame, camera, 640, 360, ColorBy::Speed, nullptr);
  const Picture annotated = draw(scene, frame, camera, 640, 360, ColorBy::Speed, &layout);
  std::vector<PixelBox> boxes = layout.marks;
  boxes.insert(boxes.end(), {layout.legend, layout.scale, layout.clock});
  int changedOutside = 0;
  std::vector<int> changedIn(boxes.size(), 0);
  for (int y = 0; y < 360; ++y) {
    for (int x = 0; x < 640; ++x) {
      if (plain.same(annotated, x, y)) continue;
      bool inside = false;
      for (std::size_t b = 0; b < boxes.size(); ++b) {
        if (boxes[b].contains(x, y)) {
          ++changedIn[b];
          inside = true;
        }
      }
      changedOutside += inside ? 0 : 1;
    }
  }
  EXPECT_EQ(changedOutside, 0);
  // The area, the exit, the goal and the three panels all drew something.
  ASSERT_EQ(layout.marks.size(), 3u);
  for (std::size_t b = 0; b < boxes.size(); ++b) EXPECT_GT(changedIn[b], 20) << "box " << b;
  // Panels sit in the corners they were meant for.
  EXPECT_GT(layout.legend.x0, 320);
  EXPECT_LT(layout.legend.y1, 180);
  EXPECT_LT(layout.scale.x1, 320);
  EXPECT_GT(layout.scale.y0, 180);
  EXPECT_GT(layout.clock.x0, 320);
  EXPECT_GT(layout.clock.y0, 180);
  // Labels: text-coloured pixels in every panel.
  EXPECT_GT(annotated.count(layout.legend, AnnotationPalette::kText), 30);
  EXPECT_GT(annotated.count(layout.clock, AnnotationPalette::kText), 30);
  EXPECT_GT(annotated.count(layout.scale, AnnotationPalette::kText), 10);
}

TEST_F(Annotate, SpeedLegendRunsFromTheRestingColourToTheFastest) {
  Simulator sim = markedWorld();
  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);  // Both at rest: drawn in the ramp's first colour.
  const Camera camera{Vec2(0, 0), 32.0f};
  AnnotationLayout layout;
  const Picture p = draw(markedScene(sim), frame, camera, 640, 360, ColorBy::Speed, &layout);
  const Vec2 agent = camera.toPixel(Vec2(-4, 0.25f), 640, 360);  // Beside its heading mark.
  const std::uint8_t* rest = p.at(static_cast<int>(agent.x), static_cast<int>(agent.y));
  const std::uint8_t resting[3] = {rest[0], rest[1], rest[2]};
  std::uint8_t fastest[3];
  bytes(Palette::kRamp[Palette::kRampStops - 1], fastest);
  EXPECT_GT(p.count(layout.legend, resting, 6), 0) << "the legend holds the colour of an agent at rest";
  EXPECT_GT(p.count(layout.legend, fastest, 6), 0) << "and the ramp's last colour";
}

TEST_F(Annotate, GroupLegendShowsEachProfilesColour) {
  Simulator sim = markedWorld();
  Frame frame;
  captureAgents(sim, ColorBy::Group, frame);
  const StaticScene scene = markedScene(sim);
  ASSERT_EQ(scene.profileKeys.size(), 2u);
  const Camera camera{Vec2(0, 0), 32.0f};
  AnnotationLayout layout;
  const Picture p = draw(scene, frame, camera, 640, 360, ColorBy::Group, &layout);
  for (const Vec2 at : {Vec2(-4, 0.3f), Vec2(-1, 0.3f)}) {
    const Vec2 px = camera.toPixel(at, 640, 360);
    const std::uint8_t* c = p.at(static_cast<int>(px.x), static_cast<int>(px.y));
    const std::uint8_t colour[3] = {c[0], c[1], c[2]};
    EXPECT_GT(p.count(layout.legend, colour, 3), 20) << "a swatch of the agent at " << at.x;
  }
}

TEST_F(Annotate, MarksLieWhereTheyAreInTheWorld) {
  Simulator sim = markedWorld();
  Frame frame;
  const Camera camera{Vec2(0, 0), 32.0f};  // World (x, y) at pixel (320 + 32 x, 180 - 32 y).
  AnnotationLayout layout;
  const Picture p = draw(markedScene(sim), frame, camera, 640, 360, ColorBy::Speed, &layout);
  // The area's edges: (2..8, 2) is row 116, (2..8, 6) row -12 (off the picture), x = 2 column 384.
  EXPECT_TRUE(p.is(480, 116, AnnotationPalette::kArea, 2)) << "bottom edge, x = 5";
  EXPECT_TRUE(p.is(384, 100, AnnotationPalette::kArea, 2)) << "left edge, y = 2.5";
  EXPECT_TRUE(p.is(576, 100, AnnotationPalette::kArea, 2)) << "right edge, x = 8";
  EXPECT_FALSE(p.is(480, 60, AnnotationPalette::kArea, 2)) << "inside the area";
  // The exit at (-6, 4), pixel (128, 52): a diamond round it, its centre open.
  EXPECT_GT(p.count(PixelBox{108, 32, 149, 73}, AnnotationPalette::kExit), 30);
  EXPECT_FALSE(p.is(128, 52, AnnotationPalette::kExit, 2));
  EXPECT_EQ(p.count(PixelBox{0, 0, 100, 360}, AnnotationPalette::kExit), 0) << "nowhere else";
  // The goal at (6, -2), pixel (512, 244): a cross through it.
  EXPECT_TRUE(p.is(512, 244, AnnotationPalette::kGoal, 2));
  EXPECT_TRUE(p.is(510, 242, AnnotationPalette::kGoal, 2)) << "up the cross's left arm";
}

}  // namespace
}  // namespace crowd::viewer
