// The window a session opens, planar or 3D (session.cpp, session3.cpp): GLFW with an OpenGL 3.3
// core context, made current, and closed with GLFW itself when the session ends.
#pragma once

#define GLFW_INCLUDE_NONE
#include <algorithm>

#include <GLFW/glfw3.h>

namespace crowd::viewer {

/// The keys every window has, planar or 3D: space pauses, N or . takes one step, + and - double
/// and halve the speed, R restarts, Esc or Q quits. `playback` is whatever holds paused,
/// singleSteps, speed and reset (plain values, or atomics shared with a simulation thread).
/// Returns whether `key` was one of them.
template <class Playback>
bool applyPlaybackKey(GLFWwindow* window, int key, Playback& playback) {
  switch (key) {
    case GLFW_KEY_SPACE:
      playback.paused = !playback.paused;
      return true;
    case GLFW_KEY_N:
    case GLFW_KEY_PERIOD:
      playback.paused = true;
      ++playback.singleSteps;
      return true;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
      playback.speed = std::min(playback.speed * 2.0, 1024.0);
      return true;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
      playback.speed = std::max(playback.speed / 2.0, 1.0 / 64.0);
      return true;
    case GLFW_KEY_R:
      playback.reset = true;
      return true;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q:
      glfwSetWindowShouldClose(window, GLFW_TRUE);
      return true;
    default:
      return false;
  }
}

class Window {
 public:
  /// Initialises GLFW and opens a `width` x `height` window titled `title`, its context current
  /// (vsync unless `noVsync`). Throws std::runtime_error, GLFW ended, when it cannot.
  Window(int width, int height, const char* title, bool noVsync);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  GLFWwindow* get() const { return window_; }

 private:
  GLFWwindow* window_ = nullptr;
};

}  // namespace crowd::viewer
