// The window `view` opens, planar or 3D (view.cpp, view3.cpp).
#pragma once

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "viewer_support.hpp"

namespace crowd::cli {

/// Whether there is a display for a window; if not, says so on stderr (and what to do instead).
bool windowPossible();
/// Initialises GLFW and opens a `size` window with an OpenGL 3.3 core context, made current
/// (vsync unless `noVsync`); nullptr, after saying why on stderr and ending GLFW, if it cannot.
GLFWwindow* openViewerWindow(PictureSize size, const char* title, bool noVsync);

}  // namespace crowd::cli
