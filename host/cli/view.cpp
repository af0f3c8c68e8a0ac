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
#include <mutex>
#include <optional>
#include <thread>

#include <glm/common.hpp>

#include <crowd/metrics.hpp>
#include <crowd/viewer/gpu_instances.hpp>
#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/overlay.hpp>
#include <crowd/viewer/renderer.hpp>
#include <crowd/viewer/replay.hpp>

#include "run_options.hpp"
#include "viewer_commands.hpp"
#include "viewer_support.hpp"

namespace crowd::cli {
namespace {

using Clock = std::chrono::steady_clock;

// What the window asks of the simulation thread, and what it publishes back.
struct Shared {
  std::atomic<bool> quit{false};
  std::atomic<bool> paused{false};
  std::atomic<int> singleSteps{0};
  std::atomic<bool> reset{false};
  std::atomic<double> speed{1.0};  // Simulated seconds per real second.
  std::atomic<int> colorBy{0};
  std::atomic<std::uint64_t> selected{~0ull};  // AgentId index << 32 | generation.
  std::atomic<long> seek{-1};                   // A replay frame to jump to.
  std::atomic<bool> trails{false};

  std::mutex mutex;
  // Held while the simulation steps and while the window copies the device state (interop).
  std::mutex stepping;
  std::atomic<bool> interop{false};  // Agents reach the GL buffer by CUDA-OpenGL interop.
  viewer::Frame latest;  // Guarded by mutex.
  viewer::OverlayInfo info;
  bool fresh = false;
  std::string failure;
};

std::uint64_t pack(AgentId id) { return (static_cast<std::uint64_t>(id.index) << 32) | id.generation; }
AgentId unpack(std::uint64_t v) { return AgentId{static_cast<std::uint32_t>(v >> 32), static_cast<std::uint32_t>(v)}; }

// Steps a simulator (or plays a replay) at the asked speed, publishing every state it reaches.
class Runner {
 public:
  Runner(const ViewOptions& o, Shared& shared) : o_(o), shared_(shared) {
    if (!o.replayPath.empty()) replay_ = viewer::Replay::load(o.replayPath);
    if (!o.scene.target.empty() || o.replayPath.empty()) scenario_ = loadSceneTarget(o.scene);
    restart();
  }
  const viewer::StaticScene& scene() const { return scene_; }
  /// The device's agents (interop); call with Shared::stepping held.
  DeviceAgents deviceAgents() const { return sim_ ? sim_->deviceAgents() : DeviceAgents{}; }
  std::string backend() const { return sim_ ? sim_->backendName() : "replay"; }

  void run() {
    try {
      loop();
    } catch (const std::exception& e) {
      const std::lock_guard<std::mutex> lock(shared_.mutex);
      shared_.failure = e.what();
      shared_.quit = true;
    }
  }

 private:
  void loop() {
    auto last = Clock::now();
    double owed = 0.0;  // Steps due at the asked speed and not yet taken.
    while (!shared_.quit) {
      if (shared_.reset.exchange(false)) {
        restart();
        owed = 0.0;
      }
      if (const long seek = shared_.seek.exchange(-1); seek >= 0 && replay_) {
        frame_ = std::min(static_cast<std::size_t>(seek), replay_->frameCount() - 1);
        publish();
      }
      const auto now = Clock::now();
      const double elapsed = std::chrono::duration<double>(now - last).count();
      last = now;
      int steps = 0;
      if (!shared_.paused) {
        owed = std::min(owed + elapsed * shared_.speed / timeStep_, 8.0);  // Never more than 8 behind.
        steps = static_cast<int>(owed);
        owed -= steps;
      } else {
        steps = shared_.singleSteps.exchange(0);
      }
      if (steps == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      const auto started = Clock::now();
      for (int s = 0; s < steps && !shared_.quit; ++s) advance();
      stepRate_ = steps / std::max(1e-6, std::chrono::duration<double>(Clock::now() - started).count());
      publish();
    }
  }

  void restart() {
    frame_ = 0;
    if (scenario_) {
      const std::lock_guard<std::mutex> lock(shared_.stepping);  // The window may be reading it.
      sim_.emplace(makeSimulator(*scenario_, o_.scene.threads, backendKind(o_.scene.backend)));
      sim_->prepare();
      // With interop, nothing is copied to the host each step: no collision count either.
      shared_.interop = sim_->backendName() == "cuda" && viewer::GpuInstances::available();
      metrics_.reset();
      if (!shared_.interop) {
        metrics_.emplace(sim_->agentCount() <= 200000);
        metrics_->observe(*sim_);
      }
      scene_ = viewer::StaticScene::fromSimulator(*sim_);
      timeStep_ = sim_->config().timeStep;
    }
    if (replay_) {
      looks_.clear();
      if (sim_) {
        for (const AgentId id : sim_->ids()) {
          looks_.push_back(viewer::AgentLook{sim_->params(id).radius, sim_->params(id).maxSpeed, sim_->profileIndex(id)});
        }
      }
      origin_ = sim_ ? sim_->config().origin : glm::dvec2(0.0);
      sim_.reset();  // Only its look was needed: the file drives the agents.
    }
    publish();
    if (replay_ && scenario_ == std::nullopt) {
      // Bounds from the first frame when no scenario gives them.
      for (const viewer::AgentInstance& a : shared_.latest.agents) {
        scene_.lo = glm::min(scene_.lo, Vec2(a.x - a.radius, a.y - a.radius));
        scene_.hi = glm::max(scene_.hi, Vec2(a.x + a.radius, a.y + a.radius));
      }
    }
  }

  void advance() {
    if (sim_) {
      const std::lock_guard<std::mutex> lock(shared_.stepping);
      sim_->step();
      if (metrics_) metrics_->observe(*sim_);
    } else if (replay_) {
      frame_ = frame_ + 1 < replay_->frameCount() ? frame_ + 1 : 0;  // Loops.
    }
  }

  void publish() {
    viewer::Frame next;
    const auto colorBy = static_cast<viewer::ColorBy>(shared_.colorBy.load());
    viewer::OverlayInfo info;
    if (sim_) {
      const bool onDevice = shared_.interop && viewer::GpuInstances::supports(colorBy);
      if (!onDevice) viewer::captureAgents(*sim_, colorBy, next);
      next.step = sim_->stepCount();
      next.time = sim_->time();
      viewer::captureSelection(*sim_, unpack(shared_.selected), next);
      info.stepTimes = sim_->lastStepTimes();
      info.collisions = metrics_ ? metrics_->result().collisions : -1;
      if (sim_->contains(unpack(shared_.selected))) {
        const AgentId id = unpack(shared_.selected);
        const Vec2 v = sim_->velocity(id);
        info.selected = "agent " + std::to_string(id.index) + ": speed " + std::to_string(length(v)) + ", " +
                        std::to_string(next.links.size() / 2) + " neighbours shown";
      }
    } else if (replay_) {
      replay_->fill(frame_, origin_, looks_, colorBy, timeStep_, next);
    }
    if (shared_.trails) {
      trails_.update(next);
    } else {
      trails_.clear();
    }
    info.agents = sim_ ? sim_->agentCount() : next.agents.size();
    info.step = next.step;
    info.time = next.time;
    info.stepsPerSecond = stepRate_;
    const std::lock_guard<std::mutex> lock(shared_.mutex);
    shared_.info.replayFrames = replay_ ? replay_->frameCount() : 0;
    shared_.info.replayFrame = frame_;
    shared_.latest = std::move(next);
    shared_.info.agents = info.agents;
    shared_.info.step = info.step;
    shared_.info.time = info.time;
    shared_.info.stepTimes = info.stepTimes;
    shared_.info.collisions = info.collisions;
    shared_.info.stepsPerSecond = info.stepsPerSecond;
    shared_.info.selected = info.selected;
    shared_.fresh = true;
  }

  const ViewOptions& o_;
  Shared& shared_;
  std::optional<Scenario> scenario_;
  std::optional<Simulator> sim_;
  std::optional<MetricsCollector> metrics_;
  std::optional<viewer::Replay> replay_;
  std::vector<viewer::AgentLook> looks_;
  glm::dvec2 origin_{0.0, 0.0};
  std::size_t frame_ = 0;
  double timeStep_ = 0.25;
  double stepRate_ = 0.0;
  viewer::StaticScene scene_;
  viewer::Trails trails_;
};

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
  int width = 0, height = 0;
  glfwGetFramebufferSize(w, &width, &height);
  int ww = 0, wh = 0;
  glfwGetWindowSize(w, &ww, &wh);
  const double scale = ww > 0 ? static_cast<double>(width) / ww : 1.0;
  const Vec2 p = win.camera.toWorld(static_cast<float>(win.lastX * scale), static_cast<float>(win.lastY * scale), width, height);
  viewer::Frame probe;
  probe.agents = win.frameAgents;
  probe.ids = win.frameIds;
  win.shared->selected = pack(viewer::agentAt(probe, p));
}

void onCursor(GLFWwindow* w, double x, double y) {
  Window& win = of(w);
  if (!win.dragging) return;
  int width = 0, ww = 0, wh = 0, height = 0;
  glfwGetFramebufferSize(w, &width, &height);
  glfwGetWindowSize(w, &ww, &wh);
  const double scale = ww > 0 ? static_cast<double>(width) / ww : 1.0;
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
  int width = 0, height = 0, ww = 0, wh = 0;
  glfwGetFramebufferSize(w, &width, &height);
  glfwGetWindowSize(w, &ww, &wh);
  const double scale = ww > 0 ? static_cast<double>(width) / ww : 1.0;
  win.camera.zoomAt(static_cast<float>(x * scale), static_cast<float>(y * scale), std::pow(1.15f, static_cast<float>(dy)),
                    width, height);
}

}  // namespace

int runView(const ViewOptions& o) {
  const PictureSize size = parseSize(o.scene.size);
  if (!displayPresent()) {
    std::cerr << "crowdsim: error: no display for a window (DISPLAY is not set). Use 'crowdsim render' to write "
                 "pictures without one, or run under xvfb-run.\n";
    return kExitFailure;
  }
  Shared shared;
  shared.colorBy = static_cast<int>(colorByNamed(o.scene.colorBy));
  Runner runner(o, shared);
  if (glfwInit() == GLFW_FALSE) {
    std::cerr << "crowdsim: error: GLFW could not open the display\n";
    return kExitFailure;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_STENCIL_BITS, 8);
  GLFWwindow* window = glfwCreateWindow(size.width, size.height, "crowd", nullptr, nullptr);
  if (window == nullptr) {
    glfwTerminate();
    std::cerr << "crowdsim: error: no OpenGL 3.3 core window on this display\n";
    return kExitFailure;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(o.noVsync ? 0 : 1);
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
      {
        const std::lock_guard<std::mutex> lock(shared.mutex);
        if (shared.fresh && shared.interop &&
            viewer::GpuInstances::supports(static_cast<viewer::ColorBy>(shared.colorBy.load()))) {
          // The kernel writes the instances into the GL buffer; the frame carries no host copy.
          const std::lock_guard<std::mutex> step(shared.stepping);
          const DeviceAgents agents = runner.deviceAgents();
          std::string why;
          if (gpu.fill(renderer.agentBuffer(agents.count), agents, static_cast<viewer::ColorBy>(shared.colorBy.load()),
                       why)) {
            renderer.useAgentCount(agents.count);
          } else {
            std::cerr << "crowdsim: CUDA-OpenGL interop failed (" << why << "); drawing from host copies\n";
            shared.interop = false;
          }
          renderer.setOverlay(shared.latest.route, shared.latest.links, shared.latest.halfPlanes);
          shared.fresh = false;
        } else if (shared.fresh) {
          renderer.setAgents(shared.latest.agents);
          renderer.setOverlay(shared.latest.route, shared.latest.links, shared.latest.halfPlanes);
          renderer.setTrails(shared.latest.trails);
          win.frameAgents = shared.latest.agents;
          win.frameIds = shared.latest.ids;
          shared.fresh = false;
        }
        info = shared.info;
      }
      renderer.setColorBy(static_cast<viewer::ColorBy>(shared.colorBy.load()));
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
        std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
        std::vector<std::uint8_t> flipped(rgb.size());
        const auto row = static_cast<std::size_t>(width) * 3;
        for (int y = 0; y < height; ++y) {
          std::copy_n(rgb.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(height - 1 - y) * row), row,
                      flipped.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * row));
        }
        const std::string name = "crowd-screenshot-" + std::to_string(++shots) + ".png";
        viewer::writePng(name, width, height, flipped);
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
