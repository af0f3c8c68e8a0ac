// A planar session (session.hpp): the window's input, the loop that draws the newest state the
// simulation thread (simulation_thread.hpp) has published, and the offscreen frame-rate run.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <thread>

#include <epoxy/gl.h>

#include <crowd/viewer/annotations.hpp>
#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/renderer.hpp>
#include <crowd/viewer/session.hpp>

#include "simulation_thread.hpp"
#include "window.hpp"

namespace crowd::viewer {
namespace {

// The window's input state, reached from GLFW's callbacks through the user pointer.
struct Input {
  Shared* shared = nullptr;
  Camera camera;
  StaticScene scene;
  Overlay* overlay = nullptr;
  bool dragging = false, moved = false;
  double lastX = 0, lastY = 0;
  bool screenshot = false;
  bool fit = true;
  std::vector<AgentId> frameIds;
  std::vector<AgentInstance> frameAgents;
};

Input& of(GLFWwindow* w) {
  return *static_cast<Input*>(glfwGetWindowUserPointer(w));
}

void onKey(GLFWwindow* w, int key, int, int action, int) {
  Input& in = of(w);
  if (action == GLFW_RELEASE || (in.overlay != nullptr && in.overlay->wantsKeyboard())) return;
  Shared& s = *in.shared;
  if (applyPlaybackKey(w, key, s)) return;
  switch (key) {
    case GLFW_KEY_F:
      in.fit = true;
      break;
    case GLFW_KEY_C:
      s.colorBy = (s.colorBy + 1) % static_cast<int>(kColorByNames.size());
      break;
    case GLFW_KEY_P:
      in.screenshot = true;
      break;
    case GLFW_KEY_T:
      s.trails = !s.trails;
      break;
    case GLFW_KEY_L:
      s.annotations = !s.annotations;
      break;
    default:
      break;
  }
}

// The framebuffer's size, and framebuffer pixels per window unit of cursor positions (more than
// 1 on high-density screens).
struct Pixels {
  int width = 0, height = 0;
  double scale = 1.0;
};
Pixels pixelsOf(GLFWwindow* w) {
  Pixels p;
  int ww = 0, wh = 0;
  glfwGetFramebufferSize(w, &p.width, &p.height);
  glfwGetWindowSize(w, &ww, &wh);
  if (ww > 0) p.scale = static_cast<double>(p.width) / ww;
  return p;
}

void onButton(GLFWwindow* w, int button, int action, int) {
  Input& in = of(w);
  if (button != GLFW_MOUSE_BUTTON_LEFT || (in.overlay != nullptr && in.overlay->wantsMouse())) return;
  if (action == GLFW_PRESS) {
    in.dragging = true;
    in.moved = false;
    glfwGetCursorPos(w, &in.lastX, &in.lastY);
    return;
  }
  in.dragging = false;
  if (in.moved) return;
  // A click without a drag selects the agent under the cursor (or none).
  const Pixels px = pixelsOf(w);
  const Vec2 p = in.camera.toWorld(static_cast<float>(in.lastX * px.scale),
                                   static_cast<float>(in.lastY * px.scale), px.width, px.height);
  Frame probe;
  probe.agents = in.frameAgents;
  probe.ids = in.frameIds;
  in.shared->selected = pack(agentAt(probe, p));
}

void onCursor(GLFWwindow* w, double x, double y) {
  Input& in = of(w);
  if (!in.dragging) return;
  const double scale = pixelsOf(w).scale;
  const double dx = x - in.lastX, dy = y - in.lastY;
  if (std::abs(dx) + std::abs(dy) > 2.0) in.moved = true;
  if (in.moved) {
    in.camera.pan(static_cast<float>(dx * scale), static_cast<float>(dy * scale));
    in.lastX = x;
    in.lastY = y;
  }
}

void onScroll(GLFWwindow* w, double, double dy) {
  Input& in = of(w);
  if (in.overlay != nullptr && in.overlay->wantsMouse()) return;
  double x = 0, y = 0;
  glfwGetCursorPos(w, &x, &y);
  const Pixels px = pixelsOf(w);
  in.camera.zoomAt(static_cast<float>(x * px.scale), static_cast<float>(y * px.scale),
                   std::pow(1.15f, static_cast<float>(dy)), px.width, px.height);
}

// Brings the renderer up to the newest published state: a kernel fills the instance buffer from
// the device (interop) or the host copy is uploaded. Keeps the host copy in `in` for picking.
OverlayInfo takeLatest(Shared& shared, const Runner& runner, Renderer& renderer, GpuInstances& gpu, Input* in,
                       const std::string& program) {
  const std::lock_guard<std::mutex> lock(shared.mutex);
  const auto colorBy = static_cast<ColorBy>(shared.colorBy.load());
  if (shared.fresh && shared.interop && GpuInstances::supports(colorBy)) {
    const std::lock_guard<std::mutex> step(shared.stepping);
    const DeviceAgents agents = runner.deviceAgents();
    std::string why;
    if (gpu.fill(renderer.agentBuffer(agents.count), agents, colorBy, why)) {
      renderer.useAgentCount(agents.count);
    } else {
      std::cerr << program << ": CUDA-OpenGL interop failed (" << why << "); drawing from host copies\n";
      shared.interop = false;
    }
  } else if (shared.fresh) {
    renderer.setAgents(shared.latest.agents);
    renderer.setTrails(shared.latest.trails);
    if (in != nullptr) {
      in->frameAgents = shared.latest.agents;
      in->frameIds = shared.latest.ids;
    }
  }
  if (shared.fresh) renderer.setOverlay(shared.latest.route, shared.latest.links, shared.latest.halfPlanes);
  shared.fresh = false;
  renderer.setColorBy(colorBy);
  return shared.info;
}

const char* drawPath(const Shared& shared) {
  return shared.interop ? "CUDA-OpenGL interop" : "host copy";
}

}  // namespace

template <>
struct SessionOf<Vec2>::State {
  DisplaySettings display;
  Shared shared;
  Runner runner;

  State(std::optional<Scenario> scenario, std::optional<Replay> replay, const SimulationSettings& simulation,
        const DisplaySettings& d)
      : display(d), shared(d.colorBy), runner(std::move(scenario), std::move(replay), simulation, shared) {}

  // Runs the simulation thread while `draw` runs (the callers throw its failure once both have
  // ended). A session that failed before stays failed.
  template <class Draw>
  void withSimulation(Draw draw) {
    if (!shared.failure.empty()) throw std::runtime_error(shared.failure);
    shared.quit = false;
    std::thread simulation([this] { runner.run(); });
    try {
      draw();
    } catch (...) {
      shared.quit = true;
      simulation.join();
      throw;
    }
    shared.quit = true;
    simulation.join();
  }
};

template <>
SessionOf<Vec2>::SessionOf(SessionSubject<Vec2> subject, const SimulationSettings& simulation,
                           const DisplaySettings& display)
    : state_(std::make_unique<State>(std::move(subject.scenario), std::move(subject.replay), simulation,
                                     display)) {}

template <>
SessionOf<Vec2>::~SessionOf() {}

template <>
SessionReport SessionOf<Vec2>::drawOffscreen() {
  State& st = *state_;
  const DisplaySettings& d = st.display;
  Shared& shared = st.shared;
  const std::unique_ptr<OffscreenContext> context = OffscreenContext::create();
  Renderer renderer;
  GpuInstances gpu;
  Framebuffer target(d.width, d.height);
  renderer.setStatic(st.runner.scene());
  Annotator annotator;
  Camera camera;
  camera.fit(st.runner.scene().lo, st.runner.scene().hi, d.width, d.height);
  const double seconds = d.quitAfter > 0.0 ? d.quitAfter : 10.0;
  SessionReport report;
  OverlayInfo info;
  st.withSimulation([&] {
    const auto start = Clock::now();
    while (!shared.quit && std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
      info = takeLatest(shared, st.runner, renderer, gpu, nullptr, d.program);
      target.bind();
      renderer.draw(camera, d.width, d.height);
      annotator.draw(camera, d.width, d.height, st.runner.scene(),
                     static_cast<ColorBy>(shared.colorBy.load()), info.time);
      glFinish();  // Count finished frames, not queued ones.
      ++report.frames;
    }
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  });
  if (!shared.failure.empty()) throw std::runtime_error(shared.failure);
  report.agents = info.agents;
  report.step = info.step;
  std::cout << d.program << ": drew " << report.frames << " frames in " << report.seconds << " s ("
            << static_cast<double>(report.frames) / std::max(report.seconds, 1e-9) << " frames/s, " << d.width
            << "x" << d.height << ", offscreen: " << context->description() << ") of " << info.agents
            << " agents by " << drawPath(shared) << " (" << st.runner.backend()
            << " backend); the simulation reached step " << info.step << "\n";
  return report;
}

template <>
SessionReport SessionOf<Vec2>::showWindow() {
  State& st = *state_;
  const DisplaySettings& d = st.display;
  Shared& shared = st.shared;
  const Window window(d.width, d.height, d.title.c_str(), d.noVsync);
  GLFWwindow* w = window.get();
  Input in;
  in.shared = &shared;
  in.scene = st.runner.scene();
  glfwSetWindowUserPointer(w, &in);
  glfwSetKeyCallback(w, onKey);
  glfwSetMouseButtonCallback(w, onButton);
  glfwSetCursorPosCallback(w, onCursor);
  glfwSetScrollCallback(w, onScroll);
  SessionReport report;
  {
    Renderer renderer;
    Annotator annotator;
    GpuInstances gpu;
    Overlay overlay(w);  // After the callbacks above: it chains to them.
    in.overlay = &overlay;
    renderer.setStatic(in.scene);
    Clock::time_point opened;
    st.withSimulation([&] {
      if (!Overlay::available()) std::cout << d.program << " view keys:\n" << kViewerKeys << "\n";
      std::cout << d.program << ": agents drawn by " << drawPath(shared) << " (" << st.runner.backend()
                << " backend)\n";
      opened = Clock::now();
      auto lastFrame = Clock::now();
      double fps = 0.0;
      int shots = 0;
      OverlayInfo info;
      while (glfwWindowShouldClose(w) == GLFW_FALSE) {
        glfwPollEvents();
        if (shared.quit) break;  // The simulation failed.
        int width = 0, height = 0;
        glfwGetFramebufferSize(w, &width, &height);
        if (in.fit) {
          in.camera.fit(in.scene.lo, in.scene.hi, width, height);
          in.fit = false;
        }
        info = takeLatest(shared, st.runner, renderer, gpu, &in, d.program);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        renderer.draw(in.camera, width, height);
        const auto now = Clock::now();
        const double dt = std::chrono::duration<double>(now - lastFrame).count();
        lastFrame = now;
        fps = fps == 0.0 ? 1.0 / std::max(dt, 1e-6) : 0.9 * fps + 0.1 / std::max(dt, 1e-6);
        info.backend = st.runner.backend();
        info.drawPath = drawPath(shared);
        info.framesPerSecond = fps;
        info.speed = shared.speed;
        info.paused = shared.paused;
        info.colorBy = kColorByNames[static_cast<std::size_t>(shared.colorBy.load())];
        if (shared.annotations) {
          annotator.draw(in.camera, width, height, in.scene, static_cast<ColorBy>(shared.colorBy.load()),
                         info.time);
        }
        if (in.screenshot) {
          // The scene and its annotations, without the overlay.
          in.screenshot = false;
          const std::string name = "crowd-screenshot-" + std::to_string(++shots) + ".png";
          writePng(name, width, height, readBoundRgb(width, height));
          std::cout << d.program << ": wrote " << name << "\n";
        }
        if (const long seek = overlay.draw(info); seek >= 0) shared.seek = seek;
        glfwSwapBuffers(w);
        ++report.frames;
        if (d.quitAfter > 0.0 && std::chrono::duration<double>(now - opened).count() > d.quitAfter) {
          glfwSetWindowShouldClose(w, GLFW_TRUE);
        }
      }
      report.agents = info.agents;
      report.step = info.step;
    });
    report.seconds = std::chrono::duration<double>(Clock::now() - opened).count();
    std::cout << d.program << ": drew " << report.frames << " frames in " << report.seconds << " s ("
              << static_cast<double>(report.frames) / std::max(report.seconds, 1e-9) << " frames/s) of "
              << report.agents << " agents; the simulation reached step " << report.step << "\n";
    in.overlay = nullptr;
  }
  if (!shared.failure.empty()) throw std::runtime_error(shared.failure);
  return report;
}

}  // namespace crowd::viewer
