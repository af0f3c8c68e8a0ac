// The simulation side of a planar session (session.cpp): a thread that steps a simulator (or
// plays a replay) at the speed the window asks for and publishes each finished state for the
// window to draw.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <glm/common.hpp>

#include <crowd/metrics.hpp>
#include <crowd/scenario.hpp>
#include <crowd/viewer/gpu_instances.hpp>
#include <crowd/viewer/overlay.hpp>
#include <crowd/viewer/replay.hpp>
#include <crowd/viewer/session.hpp>

namespace crowd::viewer {

using Clock = std::chrono::steady_clock;

// What the window asks of the simulation thread, and what it publishes back.
struct Shared {
  explicit Shared(ColorBy colors) : colorBy(static_cast<int>(colors)) {}

  std::atomic<bool> quit{false};
  std::atomic<bool> paused{false};
  std::atomic<int> singleSteps{0};
  std::atomic<bool> reset{false};
  std::atomic<double> speed{1.0};  // Simulated seconds per real second.
  std::atomic<int> colorBy{0};
  std::atomic<std::uint64_t> selected{~0ull};  // AgentId index << 32 | generation.
  std::atomic<long> seek{-1};                  // A replay frame to jump to.
  std::atomic<bool> trails{false};
  std::atomic<bool> annotations{true};  // The legend, scale bar, time and marks (annotations.hpp).

  std::mutex mutex;
  // Held while the simulation steps and while the window copies the device state (interop).
  std::mutex stepping;
  std::atomic<bool> interop{false};  // Agents reach the GL buffer by CUDA-OpenGL interop.
  Frame latest;                      // Guarded by mutex.
  OverlayInfo info;
  bool fresh = false;
  std::string failure;
};

inline std::uint64_t pack(AgentId id) {
  return (static_cast<std::uint64_t>(id.index) << 32) | id.generation;
}
inline AgentId unpack(std::uint64_t v) {
  return AgentId{static_cast<std::uint32_t>(v >> 32), static_cast<std::uint32_t>(v)};
}

// Steps a simulator (or plays a replay) at the asked speed, publishing every state it reaches.
class Runner {
 public:
  Runner(std::optional<Scenario> scenario, std::optional<Replay> replay, const SimulationSettings& settings,
         Shared& shared)
      : settings_(settings), shared_(shared), scenario_(std::move(scenario)), replay_(std::move(replay)) {
    restart();
  }
  const StaticScene& scene() const { return scene_; }
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
      sim_.emplace(makeSimulator(*scenario_, settings_.threads, settings_.backend));
      sim_->prepare();
      // With interop, nothing is copied to the host each step: no collision count either.
      shared_.interop = sim_->backendName() == "cuda" && GpuInstances::available();
      metrics_.reset();
      if (!shared_.interop) {
        metrics_.emplace(sim_->agentCount() <= 200000);
        metrics_->observe(*sim_);
      }
      scene_ = StaticScene::fromSimulator(*sim_);
      scene_.marks.add(scenarioMarks(*scenario_, sim_->config().origin));
      timeStep_ = sim_->config().timeStep;
    }
    if (replay_) {
      looks_.clear();
      if (sim_) {
        for (const AgentId id : sim_->ids()) {
          looks_.push_back(
              AgentLook{sim_->params(id).radius, sim_->params(id).maxSpeed, sim_->profileIndex(id)});
        }
      }
      origin_ = sim_ ? sim_->config().origin : glm::dvec2(0.0);
      sim_.reset();  // Only its look was needed: the file drives the agents.
    }
    publish();
    if (replay_ && scenario_ == std::nullopt) {
      // Bounds from the first frame when no scenario gives them.
      for (const AgentInstance& a : shared_.latest.agents) {
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
    Frame next;
    const auto colorBy = static_cast<ColorBy>(shared_.colorBy.load());
    OverlayInfo info;
    if (sim_) {
      const bool onDevice = shared_.interop && GpuInstances::supports(colorBy);
      if (!onDevice) captureAgents(*sim_, colorBy, next);
      next.step = sim_->stepCount();
      next.time = sim_->time();
      captureSelection(*sim_, unpack(shared_.selected), next);
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

  const SimulationSettings settings_;
  Shared& shared_;
  std::optional<Scenario> scenario_;
  std::optional<Simulator> sim_;
  std::optional<MetricsCollector> metrics_;
  std::optional<Replay> replay_;
  std::vector<AgentLook> looks_;
  glm::dvec2 origin_{0.0, 0.0};
  std::size_t frame_ = 0;
  double timeStep_ = 0.25;
  double stepRate_ = 0.0;
  StaticScene scene_;
  Trails trails_;
};

}  // namespace crowd::viewer
