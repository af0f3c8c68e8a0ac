// The renderer, drawn offscreen (EGL, or a hidden window where a display is): a known scene's
// pixels, the agents counted in the picture, a moved camera, boundaries filled outside, and a
// replayed trajectory drawn exactly like the live run. Skips where no OpenGL 3.3 context can be
// made, saying why.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/simulator3.hpp>
#include <crowd/trajectory.hpp>
#include <crowd/viewer/gpu_instances.hpp>
#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/renderer.hpp>
#include <crowd/viewer/replay.hpp>
#include <crowd/viewer/sphere_renderer.hpp>

#include "require_gpu.hpp"

// LeakSanitizer: allocations the OpenGL drivers (Mesa's software rasteriser and the LLVM it
// compiles shaders with, and LLVM's solver library) keep for the life of the process are theirs,
// not the viewer's.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:swrast_dri.so\nleak:libgallium\nleak:libLLVM\nleak:libz3\nleak:libEGL_mesa\nleak:libGLX_mesa\n"
         "leak:libglapi\n";
}

#include "viewer/picture.hpp"

namespace crowd::viewer {
namespace {

using test::Picture;

class Render : public ::testing::Test {
 protected:
  // The context lives as long as the program: closing it unloads the GL driver, whose own
  // allocations a leak checker then cannot name (see __lsan_default_suppressions below).
  static void SetUpTestSuite() {
    if (context_ != nullptr || !why_.empty()) return;
    try {
      context_ = OffscreenContext::create().release();
    } catch (const std::exception& e) {
      why_ = e.what();
    }
  }
  void SetUp() override {
    if (!context_) GTEST_SKIP() << "skipped: " << why_;
  }

  static Picture draw(const StaticScene& scene, const Frame& frame, const Camera& camera, int width,
                      int height, ColorBy colorBy = ColorBy::Speed) {
    Renderer renderer;
    Framebuffer target(width, height);
    target.bind();
    renderer.setStatic(scene);
    renderer.setAgents(frame.agents);
    renderer.setOverlay(frame.route, frame.links);
    renderer.setColorBy(colorBy);
    renderer.draw(camera, width, height);
    return Picture{width, height, target.readRgb()};
  }

  static OffscreenContext* context_;
  static std::string why_;
};
OffscreenContext* Render::context_ = nullptr;
std::string Render::why_;

// Agents (and their pixels' 4-connected groups) seen in a picture.
int countBlobs(const Picture& p) {
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(p.width) * p.height, 0);
  int blobs = 0;
  std::vector<int> stack;
  for (int start = 0; start < p.width * p.height; ++start) {
    if (seen[start] != 0 || !p.agent(start % p.width, start / p.width)) continue;
    ++blobs;
    stack.push_back(start);
    seen[start] = 1;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      const int x = i % p.width, y = i / p.width;
      const int next[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
      for (const auto& n : next) {
        if (n[0] < 0 || n[1] < 0 || n[0] >= p.width || n[1] >= p.height) continue;
        const int j = n[1] * p.width + n[0];
        if (seen[j] == 0 && p.agent(n[0], n[1])) {
          seen[j] = 1;
          stack.push_back(j);
        }
      }
    }
  }
  return blobs;
}

// A solid square from (-6, -4) to (-2, 4) and twelve agents at rest on a lattice to its right.
Simulator knownScene() {
  Simulator sim;
  const std::vector<Vec2> square = {{-6, -4}, {-2, -4}, {-2, 4}, {-6, 4}};
  sim.addObstacle(square);
  for (const float x : {2.0f, 4.0f, 6.0f}) {
    for (const float y : {-3.0f, -1.0f, 1.0f, 3.0f}) {
      AgentDef agent;
      agent.position = Vec2(x, y);
      agent.params.radius = 0.5f;
      sim.addAgent(agent);
    }
  }
  return sim;
}

TEST_F(Render, KnownSceneHasItsColoursWhereItPutsThem) {
  Simulator sim = knownScene();
  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);
  const Camera camera{Vec2(0, 0), 40.0f};  // 800 x 400 pixels: x -10 .. 10, y -5 .. 5.
  const Picture p = draw(StaticScene::fromSimulator(sim), frame, camera, 800, 400);
  EXPECT_TRUE(p.is(2, 2, Palette::kBackground)) << "corner";
  EXPECT_TRUE(p.is(400, 200, Palette::kBackground)) << "between obstacle and agents";
  EXPECT_TRUE(p.is(160, 200, Palette::kObstacle)) << "the square's centre (-4, 0)";
  EXPECT_TRUE(p.is(100, 200, Palette::kBackground)) << "left of the square (-7.5, 0)";
  // The agent at (2, -3) is at pixel (480, 320); at rest its colour is the ramp's start.
  const std::uint8_t blue[3] = {59, 107, 250};
  EXPECT_TRUE(p.is(480, 320, blue, 3))
      << int(p.at(480, 320)[0]) << "," << int(p.at(480, 320)[1]) << "," << int(p.at(480, 320)[2]);
  EXPECT_TRUE(p.is(480 + 25, 320, Palette::kBackground)) << "just outside its disc (radius 20 pixels)";
  EXPECT_EQ(countBlobs(p), 12);
}

TEST_F(Render, MovedCameraMovesTheAgents) {
  Simulator sim = knownScene();
  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);
  const StaticScene scene = StaticScene::fromSimulator(sim);
  auto centroidX = [](const Picture& p) {
    double sum = 0, n = 0;
    for (int y = 0; y < p.height; ++y) {
      for (int x = 0; x < p.width; ++x) {
        if (p.agent(x, y)) {
          sum += x;
          ++n;
        }
      }
    }
    return n > 0 ? sum / n : -1.0;
  };
  const Picture before = draw(scene, frame, Camera{Vec2(0, 0), 40.0f}, 800, 400);
  const Picture after = draw(scene, frame, Camera{Vec2(2, 0), 40.0f}, 800, 400);
  EXPECT_NEAR(centroidX(after) - centroidX(before), -80.0, 0.5) << "2 units right is 80 pixels left";
  EXPECT_EQ(countBlobs(after), 12);
  EXPECT_TRUE(after.is(80, 200, Palette::kObstacle)) << "the square moved left too";
}

TEST_F(Render, BoundaryIsFilledOutside) {
  Simulator sim;
  const std::vector<Vec2> room = {{-8, -4}, {-8, 4}, {8, 4}, {8, -4}};  // Clockwise: agents inside.
  sim.addObstacle(room);
  AgentDef agent;
  agent.position = Vec2(0, 0);
  sim.addAgent(agent);
  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);
  const Picture p = draw(StaticScene::fromSimulator(sim), frame, Camera{Vec2(0, 0), 40.0f}, 800, 400);
  EXPECT_TRUE(p.is(2, 2, Palette::kObstacle)) << "outside the room";
  EXPECT_TRUE(p.is(200, 200, Palette::kBackground)) << "inside the room (-5, 0)";
}

TEST_F(Render, HolesInASolidStayOpenInsideABoundary) {
  // A room (clockwise, agents inside) holding a solid block with a hole in it, as a map's
  // outlines come: the block counter-clockwise, its hole clockwise.
  Simulator sim;
  const std::vector<Vec2> room = {{-9, -4.5f}, {-9, 4.5f}, {9, 4.5f}, {9, -4.5f}};
  const std::vector<Vec2> block = {{-6, -4}, {-2, -4}, {-2, 4}, {-6, 4}};
  const std::vector<Vec2> hole = {{-5, -3}, {-5, 3}, {-3, 3}, {-3, -3}};
  for (const auto* polygon : {&room, &block, &hole}) sim.addObstacle(*polygon);
  Frame frame;
  const Picture p = draw(StaticScene::fromSimulator(sim), frame, Camera{Vec2(0, 0), 40.0f}, 800, 400);
  EXPECT_TRUE(p.is(2, 2, Palette::kObstacle)) << "outside the room";
  EXPECT_TRUE(p.is(400, 200, Palette::kBackground)) << "in the room";
  EXPECT_TRUE(p.is(180, 200, Palette::kObstacle)) << "the block (-5.5, 0)";
  EXPECT_TRUE(p.is(120, 200, Palette::kBackground)) << "between the room's wall and the block (-7, 0)";
  EXPECT_TRUE(p.is(240, 200, Palette::kBackground)) << "the hole in the block (-4, 0)";
}

TEST_F(Render, CrowdCountSeenInThePicture) {
  // The crossing's 400 agents stand on lattices at the start, a few pixels apart at this zoom.
  const Scenario scenario = builtinScenario("crossing", 400, 1);
  Simulator sim = makeSimulator(scenario, 1);
  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);
  const StaticScene scene = StaticScene::fromSimulator(sim, false);
  Camera camera;
  camera.fit(scene.lo, scene.hi, 1200, 1200);
  const Picture p = draw(scene, frame, camera, 1200, 1200);
  EXPECT_NEAR(countBlobs(p), 400, 20);
}

TEST_F(Render, ReplayDrawsTheSameFrameAsTheLiveRun) {
  const Scenario scenario = builtinScenario("bottleneck", 60, 1);
  Simulator sim = makeSimulator(scenario, 1);
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "crowd_replay_test.csv";
  {
    TrajectoryWriter writer(file.string());
    writer.write(sim);
    for (int s = 0; s < 40; ++s) {
      sim.step();
      writer.write(sim);
    }
    writer.close();
  }
  Frame live;
  captureAgents(sim, ColorBy::Speed, live);
  std::vector<AgentLook> looks;
  for (const AgentId id : sim.ids())
    looks.push_back(AgentLook{sim.params(id).radius, sim.params(id).maxSpeed, 0});
  const Replay replay = Replay::load(file.string());
  std::filesystem::remove(file);
  ASSERT_EQ(replay.frameCount(), 41u);
  EXPECT_EQ(replay.agentCount(), sim.agentCount());
  Frame played;
  replay.fill(replay.frameAt(40), sim.config().origin, looks, ColorBy::Speed, sim.config().timeStep, played);
  ASSERT_EQ(played.agents.size(), live.agents.size());
  const StaticScene scene = StaticScene::fromSimulator(sim);
  Camera camera;
  camera.fit(scene.lo, scene.hi, 640, 480);
  const Picture a = draw(scene, live, camera, 640, 480);
  const Picture b = draw(scene, played, camera, 640, 480);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.rgb.size(); ++i) differ += a.rgb[i] != b.rgb[i];
  EXPECT_EQ(differ, 0u);
  EXPECT_GT(countBlobs(a), 30) << "the picture shows the crowd";
}

TEST_F(Render, InteropDrawsWhatTheHostCopyDraws) {
  std::string why = "this build has no CUDA parts";
  const bool ready = GpuInstances::available() && cudaBackendAvailable(&why);
  CROWD_SKIP_WITHOUT_GPU(ready, "CUDA-OpenGL interop needs the CUDA backend and a GPU (" + why + ")");
  const Scenario scenario = builtinScenario("crossing", 400, 1);
  Simulator sim = makeSimulator(scenario, 1, BackendKind::Cuda);
  for (int s = 0; s < 50; ++s) sim.step();
  const DeviceAgents device = sim.deviceAgents();
  ASSERT_EQ(device.count, sim.agentCount()) << "the device holds the state after a step";
  const StaticScene scene = StaticScene::fromSimulator(sim);
  Camera camera;
  camera.fit(scene.lo, scene.hi, 640, 480);

  Renderer renderer;
  Framebuffer target(640, 480);
  target.bind();
  renderer.setStatic(scene);
  GpuInstances gpu;
  ASSERT_TRUE(gpu.fill(renderer.agentBuffer(device.count), device, ColorBy::Speed, why)) << why;
  renderer.useAgentCount(device.count);
  renderer.draw(camera, 640, 480);
  const Picture viaGpu{640, 480, target.readRgb()};

  Frame frame;
  captureAgents(sim, ColorBy::Speed, frame);
  const Picture viaHost = draw(scene, frame, camera, 640, 480);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < viaGpu.rgb.size(); ++i) differ += viaGpu.rgb[i] != viaHost.rgb[i];
  EXPECT_EQ(differ, 0u) << "the kernel's instances draw the picture the host's do";
  EXPECT_NEAR(countBlobs(viaGpu), 400, 40);
}

TEST(Replay, MalformedFilesNameTheLine) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "crowd_replay_bad.csv";
  {
    std::FILE* f = std::fopen(file.string().c_str(), "w");
    std::fputs("step,agent,x,y,vx,vy\n0,0,1,2,0,0\n0,1,abc,2,0,0\n", f);
    std::fclose(f);
  }
  try {
    Replay::load(file.string());
    ADD_FAILURE() << "a bad row was accepted";
  } catch (const ReplayError& e) {
    EXPECT_NE(std::string(e.what()).find(":3:"), std::string::npos) << e.what();
  }
  {
    std::FILE* f = std::fopen(file.string().c_str(), "w");
    std::fputs("step,agent,x,y,z,vx,vy,vz\n0,0,1,2,3,0,0,0\n", f);
    std::fclose(f);
  }
  try {
    Replay::load(file.string());
    ADD_FAILURE() << "a 3D trajectory was read as a planar one";
  } catch (const ReplayError& e) {
    EXPECT_NE(std::string(e.what()).find("a 3D trajectory"), std::string::npos) << e.what();
  }
  std::filesystem::remove(file);
  EXPECT_THROW(Replay::load(file.string()), ReplayError) << "a missing file";
}

// A 3D world: spheres where the orbit camera puts them, the nearer of two in front, lit from one
// side, and a world's agents counted in its picture.
TEST_F(Render, SpheresAreDrawnInDepthOrder) {
  SphereRenderer renderer;
  Framebuffer target(200, 200);
  target.bind();
  renderer.setBounds(Vec3(-10.0f), Vec3(10.0f));
  OrbitCamera camera;
  camera.target = Vec3(0.0f);
  camera.distance = 50.0f;
  camera.yaw = 0.0f;  // The eye on the +x axis, looking back at the origin, z up.
  camera.pitch = 0.0f;
  // The far sphere (value 0: blue) hidden behind the near one (value 1: red) at the centre;
  // a small one (value 0) up on the picture's right.
  const SphereInstance spheres[] = {
      {-5.0f, 0.0f, 0.0f, 3.0f, 0.0f}, {5.0f, 0.0f, 0.0f, 3.0f, 1.0f}, {0.0f, 8.0f, 8.0f, 1.0f, 0.0f}};
  renderer.setSpheres(spheres);
  renderer.draw(camera, 200, 200);
  const Picture p{200, 200, target.readRgb()};
  const std::uint8_t* centre = p.at(100, 100);
  EXPECT_GT(centre[0], 2 * centre[2]) << "the near sphere (red) is not in front";
  EXPECT_TRUE(p.is(5, 5, Palette::kBackground));
  // Seen from +x with z up, +y is to the right of the picture and +z up (rows from the top).
  bool small = false;
  for (int y = 0; y < 100 && !small; ++y) {
    for (int x = 100; x < 200 && !small; ++x) small = p.agent(x, y) && p.at(x, y)[2] > p.at(x, y)[0];
  }
  EXPECT_TRUE(small) << "no blue sphere up on the right";
  // Lit from the upper left: the sphere's upper left brighter than its lower right.
  const std::uint8_t* lit = p.at(92, 92);
  const std::uint8_t* shadow = p.at(108, 108);
  EXPECT_GT(lit[0], shadow[0]);
}

TEST_F(Render, AWorldsSpheresAreAllInThePicture) {
  Simulator3 sim;
  for (int i = 0; i < 5; ++i) {
    AgentDef3 def;
    def.position =
        Vec3(20.0f * static_cast<float>(i), 10.0f * static_cast<float>(i % 2), 5.0f * static_cast<float>(i));
    def.params.radius = 1.5f;
    sim.addAgent(def);
  }
  Vec3 lo, hi;
  boundsOf(sim, true, lo, hi);
  EXPECT_EQ(lo, Vec3(0.0f));
  EXPECT_EQ(hi, Vec3(80.0f, 10.0f, 20.0f));
  SphereRenderer renderer;
  Framebuffer target(400, 300);
  target.bind();
  renderer.setBounds(lo, hi);
  renderer.setSpheres(captureSpheres(sim));
  OrbitCamera camera;
  camera.fit(lo, hi);
  renderer.draw(camera, 400, 300);
  EXPECT_EQ(countBlobs(Picture{400, 300, target.readRgb()}), 5);
}

}  // namespace
}  // namespace crowd::viewer
