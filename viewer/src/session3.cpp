// A 3D session (session.hpp): spheres seen by an orbit camera, in a window (drag to turn round
// the world, wheel to zoom) or offscreen. The simulation steps on the drawing thread, as many
// steps a frame as keep it at the simulated time's pace (times the speed keys), at most 8.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include <epoxy/gl.h>

#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/session.hpp>
#include <crowd/viewer/sphere_renderer.hpp>

#include "window.hpp"

namespace crowd::viewer {
namespace {

using Clock = std::chrono::steady_clock;

// What the keys and the mouse change.
struct Input3 {
  OrbitCamera camera;
  Vec3 lo{0.0f}, hi{0.0f};
  bool paused = false;
  bool reset = false;
  int singleSteps = 0;
  double speed = 1.0;
  bool dragging = false;
  double lastX = 0, lastY = 0;
};

Input3& of(GLFWwindow* w) {
  return *static_cast<Input3*>(glfwGetWindowUserPointer(w));
}

void onKey(GLFWwindow* w, int key, int, int action, int) {
  if (action == GLFW_RELEASE) return;
  Input3& in = of(w);
  if (applyPlaybackKey(w, key, in)) return;
  if (key == GLFW_KEY_F) in.camera.fit(in.lo, in.hi);
}

void onButton(GLFWwindow* w, int button, int action, int) {
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  Input3& in = of(w);
  in.dragging = action == GLFW_PRESS;
  glfwGetCursorPos(w, &in.lastX, &in.lastY);
}

void onCursor(GLFWwindow* w, double x, double y) {
  Input3& in = of(w);
  if (!in.dragging) return;
  in.camera.orbit(static_cast<float>(x - in.lastX), static_cast<float>(y - in.lastY));
  in.lastX = x;
  in.lastY = y;
}

void onScroll(GLFWwindow* w, double, double dy) {
  of(w).camera.zoom(dy > 0 ? 0.9f : 1.0f / 0.9f);
}

constexpr const char* kViewer3Keys =
    "  drag: turn round the world   wheel: zoom   F: frame it again\n"
    "  space: pause   N or .: one step   + / -: speed x2 / x0.5   R: restart   Esc or Q: quit";

}  // namespace

// The world, and the pace it is stepped at.
template <>
struct SessionOf<Vec3>::State {
  Scenario3 scenario;
  SimulationSettings simulation;
  DisplaySettings display;
  std::unique_ptr<Simulator3> sim;
  double simulated = 0.0;

  void restart() {
    sim = std::make_unique<Simulator3>(makeSimulator3(scenario, simulation.threads, simulation.backend));
    sim->prepare();
    simulated = 0.0;
  }
  /// Steps until the simulated time catches up with `seconds` of wall time at `speed` (at most
  /// 8 steps a frame, so a slow world slows down rather than stalls).
  void advance(double seconds, double speed) {
    simulated += seconds * speed;
    for (int s = 0; s < 8 && sim->time() < simulated; ++s) sim->step();
    simulated = std::min(simulated, sim->time() + sim->config().timeStep);
  }
  SessionReport report(long frames, double seconds, const std::string& how) const {
    std::cout << display.program << ": drew " << frames << " frames in " << seconds << " s ("
              << static_cast<double>(frames) / std::max(seconds, 1e-9) << " frames/s" << how << ") of "
              << sim->agentCount() << " agents in 3D (" << sim->backendName()
              << " backend); the simulation reached step " << sim->stepCount() << "\n";
    return SessionReport{frames, seconds, sim->agentCount(), sim->stepCount()};
  }
};

template <>
SessionOf<Vec3>::SessionOf(SessionSubject<Vec3> subject, const SimulationSettings& simulation,
                           const DisplaySettings& display)
    : state_(std::make_unique<State>(State{std::move(subject.scenario), simulation, display, nullptr, 0.0})) {
  state_->restart();
}

template <>
SessionOf<Vec3>::~SessionOf() {}

template <>
SessionReport SessionOf<Vec3>::drawOffscreen() {
  State& world = *state_;
  const DisplaySettings& d = world.display;
  const std::unique_ptr<OffscreenContext> context = OffscreenContext::create();
  SphereRenderer renderer;
  Framebuffer target(d.width, d.height);
  OrbitCamera camera;
  Vec3 lo, hi;
  boundsOf(*world.sim, true, lo, hi);
  renderer.setBounds(lo, hi);
  camera.fit(lo, hi);
  const double seconds = d.quitAfter > 0.0 ? d.quitAfter : 10.0;
  const auto start = Clock::now();
  auto last = start;
  long frames = 0;
  while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
    const auto now = Clock::now();
    world.advance(std::chrono::duration<double>(now - last).count(), 1.0);
    last = now;
    renderer.setSpheres(captureSpheres(*world.sim));
    target.bind();
    renderer.draw(camera, d.width, d.height);
    glFinish();  // Count finished frames, not queued ones.
    ++frames;
  }
  return world.report(frames, std::chrono::duration<double>(Clock::now() - start).count(),
                      ", " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                          ", offscreen: " + context->description());
}

template <>
SessionReport SessionOf<Vec3>::showWindow() {
  State& world = *state_;
  const DisplaySettings& d = world.display;
  const Window window(d.width, d.height, (d.title + " 3D").c_str(), d.noVsync);
  GLFWwindow* w = window.get();
  Input3 in;
  boundsOf(*world.sim, true, in.lo, in.hi);
  in.camera.fit(in.lo, in.hi);
  glfwSetWindowUserPointer(w, &in);
  glfwSetKeyCallback(w, onKey);
  glfwSetMouseButtonCallback(w, onButton);
  glfwSetCursorPosCallback(w, onCursor);
  glfwSetScrollCallback(w, onScroll);
  std::cout << d.program << " view keys (3D):\n" << kViewer3Keys << "\n";
  SphereRenderer renderer;
  renderer.setBounds(in.lo, in.hi);
  const auto opened = Clock::now();
  auto last = opened;
  long frames = 0;
  while (glfwWindowShouldClose(w) == GLFW_FALSE) {
    glfwPollEvents();
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    if (in.reset) {
      in.reset = false;
      world.restart();
    }
    if (!in.paused) world.advance(dt, in.speed);
    for (; in.singleSteps > 0; --in.singleSteps) world.sim->step();
    int width = 0, height = 0;
    glfwGetFramebufferSize(w, &width, &height);
    renderer.setSpheres(captureSpheres(*world.sim));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    renderer.draw(in.camera, width, height);
    glfwSwapBuffers(w);
    ++frames;
    if (d.quitAfter > 0.0 && std::chrono::duration<double>(now - opened).count() > d.quitAfter) {
      glfwSetWindowShouldClose(w, GLFW_TRUE);
    }
  }
  return world.report(frames, std::chrono::duration<double>(Clock::now() - opened).count(), "");
}

}  // namespace crowd::viewer
