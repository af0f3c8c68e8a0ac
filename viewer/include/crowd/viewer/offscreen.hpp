// Drawing without a window: an OpenGL 3.3 core context from EGL (a GPU's device platform, or
// Mesa's surfaceless platform: no X server either way), else from a hidden GLFW window (which
// needs a display, e.g. Xvfb), and a framebuffer object to draw into and read back.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace crowd::viewer {

class OffscreenContext {
 public:
  /// The first context that works, tried in order: EGL devices, EGL surfaceless, a hidden GLFW
  /// window. CROWD_GL=egl or CROWD_GL=glfw in the environment allows only that one. Throws
  /// std::runtime_error saying what each attempt met.
  static std::unique_ptr<OffscreenContext> create();
  virtual ~OffscreenContext() = default;
  /// How the context was made and the renderer behind it, e.g. "EGL surfaceless, llvmpipe".
  const std::string& description() const { return description_; }

 protected:
  std::string description_;
};

/// A colour (RGBA8) and depth-stencil framebuffer object, bound while drawing.
class Framebuffer {
 public:
  /// Throws std::runtime_error when the framebuffer is incomplete (size over the GL limit, say).
  Framebuffer(int width, int height);
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;
  void bind() const;
  int width() const { return width_; }
  int height() const { return height_; }
  /// The picture as RGB bytes, rows from the top.
  std::vector<std::uint8_t> readRgb() const;

 private:
  int width_, height_;
  std::uint32_t fbo_ = 0, color_ = 0, depthStencil_ = 0;
};

/// The bound framebuffer's `width` x `height` pixels as RGB bytes, rows from the top.
std::vector<std::uint8_t> readBoundRgb(int width, int height);

/// Writes RGB bytes (rows from the top) as a PNG. Throws std::runtime_error naming the file.
void writePng(const std::string& path, int width, int height, std::span<const std::uint8_t> rgb);

}  // namespace crowd::viewer
