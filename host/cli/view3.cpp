// crowdsim view for a 3D world: spheres seen by an orbit camera, in a window (drag to turn
// round the world, wheel to zoom) or offscreen (--offscreen, reporting the frame rate). The
// simulation steps on the drawing thread, as many steps a frame as keep it at the simulated
// time's pace (times the speed keys), at most a few per frame.
#include <epoxy/gl.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/sphere_renderer.hpp>

#include "run_options.hpp"
#include "viewer_commands.hpp"
#include "viewer_support.hpp"
#include "viewer_window.hpp"

namespace crowd::cli {
namespace {

using Clock = std::chrono::steady_clock;

// What the keys and the mouse change.
struct Window3 {
  viewer::OrbitCamera camera;
  Vec3 lo{0.0f}, hi{0.0f};
  bool paused = false;
  bool reset = false;
  int singleSteps = 0;
  double speed = 1.0;
  bool dragging = false;
  double lastX = 0, lastY = 0;
};

Window3& of(GLFWwindow* w) { return *static_cast<Window3*>(glfwGetWindowUserPointer(w)); }

void onKey(GLFWwindow* w, int key, int, int action, int) {
  if (action == GLFW_RELEASE) return;
  Window3& win = of(w);
  switch (key) {
    case GLFW_KEY_SPACE: win.paused = !win.paused; break;
    case GLFW_KEY_N:
    case GLFW_KEY_PERIOD: win.paused = true; ++win.singleSteps; break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: win.speed = std::min(win.speed * 2.0, 1024.0); break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: win.speed = std::max(win.speed / 2.0, 1.0 / 64.0); break;
    case GLFW_KEY_R: win.reset = true; break;
    case GLFW_KEY_F: win.camera.fit(win.lo, win.hi); break;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(w, GLFW_TRUE); break;
    default: break;
  }
}

void onButton(GLFWwindow* w, int button, int action, int) {
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  Window3& win = of(w);
  win.dragging = action == GLFW_PRESS;
  glfwGetCursorPos(w, &win.lastX, &win.lastY);
}

void onCursor(GLFWwindow* w, double x, double y) {
  Window3& win = of(w);
  if (!win.dragging) return;
  win.camera.orbit(static_cast<float>(x - win.lastX), static_cast<float>(y - win.lastY));
  win.lastX = x;
  win.lastY = y;
}

void onScroll(GLFWwindow* w, double, double dy) { of(w).camera.zoom(dy > 0 ? 0.9f : 1.0f / 0.9f); }

// The world, and the pace it is stepped at.
class World3 {
 public:
  explicit World3(const ViewOptions& o)
      : scenario_(loadScenario3Target(o.scene.target, o.scene.agents, o.scene.seed)), options_(o) {
    for (const std::string& w : scenario_.warnings) std::cerr << "crowdsim: warning: " << w << "\n";
    restart();
  }
  void restart() {
    sim_ = std::make_unique<Simulator3>(makeSimulator3(scenario_, options_.scene.threads,
                                                       backendKind(options_.scene.backend)));
    sim_->prepare();
    simulated_ = 0.0;
  }
  Simulator3& sim() { return *sim_; }
  /// Steps until the simulated time catches up with `seconds` of wall time at `speed` (at most
  /// 8 steps a frame, so a slow world slows down rather than stalls).
  void advance(double seconds, double speed) {
    simulated_ += seconds * speed;
    for (int s = 0; s < 8 && sim_->time() < simulated_; ++s) sim_->step();
    simulated_ = std::min(simulated_, sim_->time() + sim_->config().timeStep);
  }

 private:
  Scenario3 scenario_;
  const ViewOptions& options_;
  std::unique_ptr<Simulator3> sim_;
  double simulated_ = 0.0;
};

void report(long frames, double seconds, const Simulator3& sim, const std::string& how) {
  std::cout << "crowdsim: drew " << frames << " frames in " << seconds << " s ("
            << static_cast<double>(frames) / std::max(seconds, 1e-9) << " frames/s" << how << ") of "
            << sim.agentCount() << " agents in 3D (" << sim.backendName() << " backend); the simulation reached step "
            << sim.stepCount() << "\n";
}

int viewOffscreen(const ViewOptions& o, World3& world, PictureSize size) {
  const std::unique_ptr<viewer::OffscreenContext> context = viewer::OffscreenContext::create();
  viewer::SphereRenderer renderer;
  viewer::Framebuffer target(size.width, size.height);
  viewer::OrbitCamera camera;
  Vec3 lo, hi;
  viewer::boundsOf(world.sim(), true, lo, hi);
  renderer.setBounds(lo, hi);
  camera.fit(lo, hi);
  const double seconds = o.quitAfter > 0.0 ? o.quitAfter : 10.0;
  const auto start = Clock::now();
  auto last = start;
  long frames = 0;
  while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
    const auto now = Clock::now();
    world.advance(std::chrono::duration<double>(now - last).count(), 1.0);
    last = now;
    renderer.setSpheres(viewer::captureSpheres(world.sim()));
    target.bind();
    renderer.draw(camera, size.width, size.height);
    glFinish();  // Count finished frames, not queued ones.
    ++frames;
  }
  report(frames, std::chrono::duration<double>(Clock::now() - start).count(), world.sim(),
         ", " + std::to_string(size.width) + "x" + std::to_string(size.height) + ", offscreen: " +
             context->description());
  return 0;
}

constexpr const char* kViewer3Keys =
    "  drag: turn round the world   wheel: zoom   F: frame it again\n"
    "  space: pause   N or .: one step   + / -: speed x2 / x0.5   R: restart   Esc or Q: quit";

}  // namespace

int runView3(const ViewOptions& o) {
  const PictureSize size = parseSize(o.scene.size);
  if (!o.replayPath.empty()) throw std::invalid_argument("--replay plays planar trajectories; a 3D world runs live");
  World3 world(o);
  if (o.offscreen) return viewOffscreen(o, world, size);
  if (!windowPossible()) return kExitFailure;
  GLFWwindow* window = openViewerWindow(size, "crowd 3D", o.noVsync);
  if (window == nullptr) return kExitFailure;
  Window3 win;
  viewer::boundsOf(world.sim(), true, win.lo, win.hi);
  win.camera.fit(win.lo, win.hi);
  glfwSetWindowUserPointer(window, &win);
  glfwSetKeyCallback(window, onKey);
  glfwSetMouseButtonCallback(window, onButton);
  glfwSetCursorPosCallback(window, onCursor);
  glfwSetScrollCallback(window, onScroll);
  std::cout << "crowdsim view keys (3D):\n" << kViewer3Keys << "\n";
  {
    viewer::SphereRenderer renderer;
    renderer.setBounds(win.lo, win.hi);
    const auto opened = Clock::now();
    auto last = opened;
    long frames = 0;
    while (glfwWindowShouldClose(window) == GLFW_FALSE) {
      glfwPollEvents();
      const auto now = Clock::now();
      const double dt = std::chrono::duration<double>(now - last).count();
      last = now;
      if (win.reset) {
        win.reset = false;
        world.restart();
      }
      if (!win.paused) world.advance(dt, win.speed);
      for (; win.singleSteps > 0; --win.singleSteps) world.sim().step();
      int width = 0, height = 0;
      glfwGetFramebufferSize(window, &width, &height);
      renderer.setSpheres(viewer::captureSpheres(world.sim()));
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      renderer.draw(win.camera, width, height);
      glfwSwapBuffers(window);
      ++frames;
      if (o.quitAfter > 0.0 && std::chrono::duration<double>(now - opened).count() > o.quitAfter) {
        glfwSetWindowShouldClose(window, GLFW_TRUE);
      }
    }
    report(frames, std::chrono::duration<double>(Clock::now() - opened).count(), world.sim(), "");
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}

}  // namespace crowd::cli
