// The viewer's overlay: agent count, backend, how agents reach the GPU, milliseconds per step per
// phase, frames per second, collisions so far and the keys, drawn with Dear ImGui where the
// build has it (else the window title carries the figures and the keys print at start).
#pragma once

#include <cstdint>
#include <string>

#include <crowd/phase_times.hpp>

struct GLFWwindow;

namespace crowd::viewer {

struct OverlayInfo {
  std::size_t agents = 0;
  std::string backend;
  std::string drawPath;  ///< "CUDA-GL interop" or "host copy".
  PhaseTimes stepTimes;  ///< Milliseconds per phase of the last step.
  double framesPerSecond = 0.0;
  double stepsPerSecond = 0.0;
  std::int64_t step = 0;
  double time = 0.0;
  double speed = 1.0;  ///< Simulated seconds per real second asked for.
  bool paused = false;
  std::int64_t collisions = 0;
  std::string colorBy;
  std::string selected;          ///< The selected agent, described; empty for none.
  std::size_t replayFrames = 0;  ///< Frames of a replay (0: a live run); shows a time slider.
  std::size_t replayFrame = 0;
};

/// The keys, one per line, as the overlay and --help list them.
extern const char* const kViewerKeys;

class Overlay {
 public:
  /// Installs Dear ImGui on the window (after the window's own callbacks, which it chains to).
  explicit Overlay(GLFWwindow* window);
  ~Overlay();
  Overlay(const Overlay&) = delete;
  Overlay& operator=(const Overlay&) = delete;
  /// Draws the overlay into the current framebuffer (call after the scene, before the swap).
  /// Returns the replay frame the time slider was moved to, or -1.
  long draw(const OverlayInfo& info);
  /// Whether the overlay has the mouse or the keyboard now (the camera then leaves them alone).
  bool wantsMouse() const;
  bool wantsKeyboard() const;
  /// Whether the build has Dear ImGui.
  static bool available();

 private:
  GLFWwindow* window_;
};

}  // namespace crowd::viewer
