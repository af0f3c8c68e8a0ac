// The window a session opens (window.hpp), and whether there is a display for one (session.hpp).
#include "window.hpp"

#include <cstdlib>
#include <stdexcept>

#include <crowd/viewer/session.hpp>

namespace crowd::viewer {

bool displayPresent() {
  const char* x = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x != nullptr && *x != '\0') || (wayland != nullptr && *wayland != '\0');
}

Window::Window(int width, int height, const char* title, bool noVsync) {
  if (glfwInit() == GLFW_FALSE) throw std::runtime_error("GLFW could not open the display");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_STENCIL_BITS, 8);
  glfwWindowHint(GLFW_DEPTH_BITS, 24);
  window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (window_ == nullptr) {
    glfwTerminate();
    throw std::runtime_error("no OpenGL 3.3 core window on this display");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(noVsync ? 0 : 1);
}

Window::~Window() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

}  // namespace crowd::viewer
