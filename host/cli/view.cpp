// crowdsim view: a window that shows a scenario running (or a trajectory file playing back).
// The simulation runs on its own thread and publishes each finished state; the window draws the
// latest one, so neither waits for the other.
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <mutex>
#include <optional>
#include <thread>

#include <crowd/viewer/gpu_instances.hpp>
#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/overlay.hpp>
#include <crowd/viewer/renderer.hpp>

#include "run_options.hpp"
#include "view_runner.hpp"
#include "viewer_commands.hpp"
#include "viewer_support.hpp"
#include "viewer_window.hpp"

namespace crowd::cli {
namespace {

// The window's input state, reached from GLFW's callbacks through the user pointer.
struct Window {
  Shared* shared = nullptr;
  viewer::Camera camera;
  viewer::StaticScene scene;
  viewer::Overlay* overlay = nullptr;
  bool dragging = false, moved = false;
  double lastX = 0, lastY = 0;
  bool screenshot = false;
  bool fit = true;
  std::vector<AgentId> frameIds;
  std::vector<viewer::AgentInstance> frameAgents;
};

Window& of(GLFWwindow* w) { return *static_cast<Window*>(glfwGetWindowUserPointer(w)); }

void onKey(GLFWwindow* w, int key, int, int action, int) {
  Window& win = of(w);
  if (action == GLFW_RELEASE || (win.overlay != nullptr && win.overlay->wantsKeyboard())) return;
  Shared& s = *win.shared;
  switch (key) {
    case GLFW_KEY_SPACE: s.paused = !s.paused; break;
    case GLFW_KEY_N:
    case GLFW_KEY_PERIOD: s.paused = true; ++s.singleSteps; break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: s.speed = std::min(s.speed * 2.0, 1024.0); break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: s.speed = std::max(s.speed / 2.0, 1.0 / 64.0); break;
    case GLFW_KEY_R: s.reset = true; break;
    case GLFW_KEY_F: win.fit = true; break;
    case GLFW_KEY_C: s.colorBy = (s.colorBy + 1) % static_cast<int>(viewer::kColorByNames.size()); break;
    case GLFW_KEY_P: win.screenshot = true; break;
    case GLFW_KEY_T: s.trails = !s.trails; break;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(w, GLFW_TRUE); break;
    default: break;
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
  Window& win = of(w);
  if (button != GLFW_MOUSE_BUTTON_LEFT || (win.overlay != nullptr && win.overlay->wantsMouse())) return;
  if (action == GLFW_PRESS) {
    win.dragging = true;
    win.moved = false;
    glfwGetCursorPos(w, &win.lastX, &win.lastY);
    return;
  }
  win.dragging = false;
  if (win.moved) return;
  // A click without a drag selects the agent under the cursor (or none).
  const Pixels px = pixelsOf(w);
  const Vec2 p = win.camera.toWorld(static_cast<float>(win.lastX * px.scale), static_cast<float>(win.lastY * px.scale),
                                    px.width, px.height);
  viewer::Frame probe;
  probe.agents = win.frameAgents;
  probe.ids = win.frameIds;
  win.shared->selected = pack(viewer::agentAt(probe, p));
}

void onCursor(GLFWwindow* w, double x, double y) {
  Window& win = of(w);
  if (!win.dragging) return;
  const double scale = pixelsOf(w).scale;
  const double dx = x - win.lastX, dy = y - win.lastY;
  if (std::abs(dx) + std::abs(dy) > 2.0) win.moved = true;
  if (win.moved) {
    win.camera.pan(static_cast<float>(dx * scale), static_cast<float>(dy * scale));
    win.lastX = x;
    win.lastY = y;
  }
}

void onScroll(GLFWwindow* w, double, double dy) {
  Window& win = of(w);
  if (win.overlay != nullptr && win.overlay->wantsMouse()) return;
  double x = 0, y = 0;
  glfwGetCursorPos(w, &x, &y);
  const Pixels px = pixelsOf(w);
  win.camera.zoomAt(static_cast<float>(x * px.scale), static_cast<float>(y * px.scale),
                    std::pow(1.15f, static_cast<float>(dy)), px.width, px.height);
}

// Brings the renderer up to the newest published state: a kernel fills the instance buffer from
// the device (interop) or the host copy is uploaded. Keeps the host copy in `win` for picking.
viewer::OverlayInfo takeLatest(Shared& shared, const Runner& runner, viewer::Renderer& renderer,
                               viewer::GpuInstances& gpu, Window* win) {
  const std::lock_guard<std::mutex> lock(shared.mutex);
  const auto colorBy = static_cast<viewer::ColorBy>(shared.colorBy.load());
  if (shared.fresh && shared.interop && viewer::GpuInstances::supports(colorBy)) {
    const std::lock_guard<std::mutex> step(shared.stepping);
    const DeviceAgents agents = runner.deviceAgents();
    std::string why;
    if (gpu.fill(renderer.agentBuffer(agents.count), agents, colorBy, why)) {
      renderer.useAgentCount(agents.count);
    } else {
      std::cerr << "crowdsim: CUDA-OpenGL interop failed (" << why << "); drawing from host copies\n";
      shared.interop = false;
    }
  } else if (shared.fresh) {
    renderer.setAgents(shared.latest.agents);
    renderer.setTrails(shared.latest.trails);
    if (win != nullptr) {
      win->frameAgents = shared.latest.agents;
      win->frameIds = shared.latest.ids;
    }
  }
  if (shared.fresh) renderer.setOverlay(shared.latest.route, shared.latest.links, shared.latest.halfPlanes);
  shared.fresh = false;
  renderer.setColorBy(colorBy);
  return shared.info;
}

// --offscreen: no window, no input; draws into a framebuffer object as fast as it can for
// --quit-after seconds while the simulation runs, and reports the frame rate (EGL on a GPU).
int measureOffscreen(const ViewOptions& o, Shared& shared, Runner& runner, PictureSize size) {
  const std::unique_ptr<viewer::OffscreenContext> context = viewer::OffscreenContext::create();
  viewer::Renderer renderer;
  viewer::GpuInstances gpu;
  viewer::Framebuffer target(size.width, size.height);
  renderer.setStatic(runner.scene());
  viewer::Camera camera;
  camera.fit(runner.scene().lo, runner.scene().hi, size.width, size.height);
  std::thread simulation([&runner] { runner.run(); });
  const double seconds = o.quitAfter > 0.0 ? o.quitAfter : 10.0;
  const auto start = Clock::now();
  long frames = 0;
  viewer::OverlayInfo info;
  while (!shared.quit && std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
    info = takeLatest(shared, runner, renderer, gpu, nullptr);
    target.bind();
    renderer.draw(camera, size.width, size.height);
    glFinish();  // Count finished frames, not queued ones.
    ++frames;
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  shared.quit = true;
  simulation.join();
  if (!shared.failure.empty()) throw std::runtime_error(shared.failure);
  std::cout << "crowdsim: drew " << frames << " frames in " << elapsed << " s ("
            << static_cast<double>(frames) / std::max(elapsed, 1e-9) << " frames/s, " << size.width << "x"
            << size.height << ", offscreen: " << context->description() << ") of " << info.agents
            << " agents by " << (shared.interop ? "CUDA-OpenGL interop" : "host copy") << " (" << runner.backend()
            << " backend); the simulation reached step " << info.step << "\n";
  return 0;
}

}  // namespace

bool windowPossible() {
  if (displayPresent()) return true;
  std::cerr << "crowdsim: error: no display for a window (DISPLAY is not set). Use 'crowdsim render' to write "
               "pictures without one, or run under xvfb-run.\n";
  return false;
}

GLFWwindow* openViewerWindow(PictureSize size, const char* title, bool noVsync) {
  if (glfwInit() == GLFW_FALSE) {
    std::cerr << "crowdsim: error: GLFW could not open the display\n";
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_STENCIL_BITS, 8);
  glfwWindowHint(GLFW_DEPTH_BITS, 24);
  GLFWwindow* window = glfwCreateWindow(size.width, size.height, title, nullptr, nullptr);
  if (window == nullptr) {
    glfwTerminate();
    std::cerr << "crowdsim: error: no OpenGL 3.3 core window on this display\n";
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(noVsync ? 0 : 1);
  return window;
}

int runView(const ViewOptions& o) {
  requireBackend(o.scene.backend);
  const PictureSize size = parseSize(o.scene.size);
  if (!o.scene.target.empty() && isTarget3d(o.scene.target)) return runView3(o);
  if (o.offscreen) {
    Shared shared;
    shared.colorBy = static_cast<int>(colorByNamed(o.scene.colorBy));
    Runner runner(o, shared);
    return measureOffscreen(o, shared, runner, size);
  }
  if (!windowPossible()) return kExitFailure;
  Shared shared;
  shared.colorBy = static_cast<int>(colorByNamed(o.scene.colorBy));
  Runner runner(o, shared);
  GLFWwindow* window = openViewerWindow(size, "crowd", o.noVsync);
  if (window == nullptr) return kExitFailure;
  Window win;
  win.shared = &shared;
  win.scene = runner.scene();
  glfwSetWindowUserPointer(window, &win);
  glfwSetKeyCallback(window, onKey);
  glfwSetMouseButtonCallback(window, onButton);
  glfwSetCursorPosCallback(window, onCursor);
  glfwSetScrollCallback(window, onScroll);
  int result = 0;
  {
    viewer::Renderer renderer;
    viewer::GpuInstances gpu;
    viewer::Overlay overlay(window);  // After the callbacks above: it chains to them.
    win.overlay = &overlay;
    renderer.setStatic(win.scene);
    std::thread simulation([&runner] { runner.run(); });
    if (!viewer::Overlay::available()) std::cout << "crowdsim view keys:\n" << viewer::kViewerKeys << "\n";
    std::cout << "crowdsim: agents drawn by " << (shared.interop ? "CUDA-OpenGL interop" : "host copy") << " ("
              << runner.backend() << " backend)\n";
    const auto opened = Clock::now();
    auto lastFrame = Clock::now();
    double fps = 0.0;
    int shots = 0;
    long frames = 0;
    viewer::OverlayInfo info;
    while (glfwWindowShouldClose(window) == GLFW_FALSE) {
      glfwPollEvents();
      if (shared.quit) break;  // The simulation failed.
      int width = 0, height = 0;
      glfwGetFramebufferSize(window, &width, &height);
      if (win.fit) {
        win.camera.fit(win.scene.lo, win.scene.hi, width, height);
        win.fit = false;
      }
      info = takeLatest(shared, runner, renderer, gpu, &win);
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      renderer.draw(win.camera, width, height);
      const auto now = Clock::now();
      const double dt = std::chrono::duration<double>(now - lastFrame).count();
      lastFrame = now;
      fps = fps == 0.0 ? 1.0 / std::max(dt, 1e-6) : 0.9 * fps + 0.1 / std::max(dt, 1e-6);
      info.backend = runner.backend();
      info.drawPath = shared.interop ? "CUDA-OpenGL interop" : "host copy";
      info.framesPerSecond = fps;
      info.speed = shared.speed;
      info.paused = shared.paused;
      info.colorBy = viewer::kColorByNames[static_cast<std::size_t>(shared.colorBy.load())];
      if (win.screenshot) {
        // The scene without the overlay.
        win.screenshot = false;
        const std::string name = "crowd-screenshot-" + std::to_string(++shots) + ".png";
        viewer::writePng(name, width, height, viewer::readBoundRgb(width, height));
        std::cout << "crowdsim: wrote " << name << "\n";
      }
      if (const long seek = overlay.draw(info); seek >= 0) shared.seek = seek;
      glfwSwapBuffers(window);
      ++frames;
      if (o.quitAfter > 0.0 && std::chrono::duration<double>(now - opened).count() > o.quitAfter) {
        glfwSetWindowShouldClose(window, GLFW_TRUE);
      }
    }
    shared.quit = true;
    simulation.join();
    const double open = std::chrono::duration<double>(Clock::now() - opened).count();
    std::cout << "crowdsim: drew " << frames << " frames in " << open << " s (" << static_cast<double>(frames) / std::max(open, 1e-9)
              << " frames/s) of " << info.agents << " agents; the simulation reached step " << info.step << "\n";
    win.overlay = nullptr;
    if (!shared.failure.empty()) {
      std::cerr << "crowdsim: error: " << shared.failure << "\n";
      result = kExitFailure;
    }
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  return result;
}

}  // namespace crowd::cli
