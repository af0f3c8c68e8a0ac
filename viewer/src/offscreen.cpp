// Offscreen contexts, framebuffers and PNG files (offscreen.hpp).
#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <crowd/output_file.hpp>
#include <crowd/viewer/offscreen.hpp>
#define GLFW_INCLUDE_NONE
#include <png.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>

#include <GLFW/glfw3.h>

namespace crowd::viewer {
namespace {

std::string rendererName() {
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return name != nullptr ? name : "unknown renderer";
}

void GLAPIENTRY printDebugMessage(GLenum, GLenum type, GLuint, GLenum severity, GLsizei,
                                  const GLchar* message, const void*) {
  std::fprintf(stderr, "GL debug (type 0x%x, severity 0x%x): %s\n", type, severity, message);
}

// CROWD_GL_DEBUG=1: the driver's own account of the context and of every call it rejects, for
// a machine where pictures come out wrong.
void debugOutputIfAsked() {
  const char* asked = std::getenv("CROWD_GL_DEBUG");
  if (asked == nullptr || *asked == '\0' || *asked == '0') return;
  std::fprintf(stderr, "GL: vendor %s, renderer %s, version %s\n",
               reinterpret_cast<const char*>(glGetString(GL_VENDOR)), rendererName().c_str(),
               reinterpret_cast<const char*>(glGetString(GL_VERSION)));
  if (epoxy_gl_version() < 43 && !epoxy_has_gl_extension("GL_KHR_debug")) {
    std::fprintf(stderr, "GL: no debug output on this context\n");
    return;
  }
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(printDebugMessage, nullptr);
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_TRUE);
}

// Contexts alive on each EGL display. A display is one per device (eglGetDisplay returns the
// same handle each time), and terminating it ends every context on it and unloads the driver: so
// the last context on a display terminates it, not each one.
std::map<EGLDisplay, int>& liveContexts() {
  static std::map<EGLDisplay, int> live;
  return live;
}
std::mutex liveContextsMutex;

class EglContext : public OffscreenContext {
 public:
  // A 3.3 core context on `display`, current without a surface. Empty `why` on success.
  EglContext(EGLDisplay display, const std::string& how, std::string& why) : display_(display) {
    EGLint major = 0, minor = 0;
    if (eglInitialize(display_, &major, &minor) == EGL_FALSE) {
      why = how + ": eglInitialize failed";
      display_ = EGL_NO_DISPLAY;
      return;
    }
    {
      const std::lock_guard<std::mutex> lock(liveContextsMutex);
      ++liveContexts()[display_];
    }
    eglBindAPI(EGL_OPENGL_API);
    const EGLint want[] = {EGL_CONTEXT_MAJOR_VERSION,
                           3,
                           EGL_CONTEXT_MINOR_VERSION,
                           3,
                           EGL_CONTEXT_OPENGL_PROFILE_MASK,
                           EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                           EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    const EGLint attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    eglChooseConfig(display_, attributes, &config, 1, &configs);
    context_ = eglCreateContext(display_, configs > 0 ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, want);
    if (context_ == EGL_NO_CONTEXT ||
        eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_) == EGL_FALSE) {
      why = how + ": no OpenGL 3.3 core context without a surface";
      return;
    }
    description_ = how + ", " + rendererName();
    debugOutputIfAsked();
  }
  ~EglContext() override {
    if (display_ == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    const std::lock_guard<std::mutex> lock(liveContextsMutex);
    if (--liveContexts()[display_] == 0) eglTerminate(display_);
  }
  bool ok() const { return !description_.empty(); }

 private:
  EGLDisplay display_;
  EGLContext context_ = EGL_NO_CONTEXT;
};

class GlfwContext : public OffscreenContext {
 public:
  explicit GlfwContext(std::string& why) {
    if (glfwInit() == GLFW_FALSE) {
      why = "hidden GLFW window: no display (set DISPLAY, or run under xvfb-run)";
      return;
    }
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(16, 16, "crowd", nullptr, nullptr);
    if (window_ == nullptr) {
      why = "hidden GLFW window: no OpenGL 3.3 core context on this display";
      return;
    }
    glfwMakeContextCurrent(window_);
    description_ = "hidden GLFW window, " + rendererName();
    debugOutputIfAsked();
  }
  ~GlfwContext() override {
    if (window_ != nullptr) glfwDestroyWindow(window_);
    glfwTerminate();
  }
  bool ok() const { return window_ != nullptr; }

 private:
  GLFWwindow* window_ = nullptr;
};

}  // namespace

std::unique_ptr<OffscreenContext> OffscreenContext::create() {
  const char* only = std::getenv("CROWD_GL");
  const std::string choice = only != nullptr ? only : "";
  std::string tried;
  auto note = [&tried](const std::string& why) { tried += (tried.empty() ? "" : "; ") + why; };
  if (choice.empty() || choice == "egl") {
    // Devices first (a GPU's driver), then Mesa's surfaceless platform.
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_enumeration")) {
      EGLDeviceEXT devices[8];
      EGLint count = 0;
      eglQueryDevicesEXT(8, devices, &count);
      for (EGLint d = 0; d < count; ++d) {
        const EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr);
        if (display == EGL_NO_DISPLAY) continue;
        std::string why;
        auto context = std::make_unique<EglContext>(display, "EGL device " + std::to_string(d), why);
        if (context->ok()) return context;
        note(why);
      }
    }
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
      const EGLDisplay display =
          eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
      std::string why;
      if (display != EGL_NO_DISPLAY) {
        auto context = std::make_unique<EglContext>(display, "EGL surfaceless", why);
        if (context->ok()) return context;
        note(why);
      }
    } else {
      note("EGL: no device or surfaceless platform");
    }
  }
  if (choice.empty() || choice == "glfw") {
    std::string why;
    auto context = std::make_unique<GlfwContext>(why);
    if (context->ok()) return context;
    note(why);
  }
  throw std::runtime_error("no OpenGL 3.3 context for drawing offscreen (" + tried + ")");
}

Framebuffer::Framebuffer(int width, int height) : width_(width), height_(height) {
  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glGenRenderbuffers(1, &color_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  glGenRenderbuffers(1, &depthStencil_);
  glBindRenderbuffer(GL_RENDERBUFFER, depthStencil_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depthStencil_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    throw std::runtime_error("viewer: a " + std::to_string(width) + "x" + std::to_string(height) +
                             " framebuffer is not supported here");
  }
}

Framebuffer::~Framebuffer() {
  glDeleteRenderbuffers(1, &color_);
  glDeleteRenderbuffers(1, &depthStencil_);
  glDeleteFramebuffers(1, &fbo_);
}

void Framebuffer::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
}

std::vector<std::uint8_t> readBoundRgb(int width, int height) {
  const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
  std::vector<std::uint8_t> pixels(w * h * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  // GL's rows run from the bottom.
  std::vector<std::uint8_t> flipped(pixels.size());
  for (std::size_t y = 0; y < h; ++y) {
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>((h - 1 - y) * w * 3), w * 3,
                flipped.begin() + static_cast<std::ptrdiff_t>(y * w * 3));
  }
  return flipped;
}

std::vector<std::uint8_t> Framebuffer::readRgb() const {
  bind();
  return readBoundRgb(width_, height_);
}

void writePng(const std::string& path, int width, int height, std::span<const std::uint8_t> rgb) {
  // Under a temporary name until complete: a stopped render leaves no truncated picture.
  OutputFile out(path);
  FILE* file = out.stream();
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (png == nullptr || info == nullptr || setjmp(png_jmpbuf(png)) != 0) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error(path + ": writing the PNG failed");
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y) {
    png_write_row(png, rgb.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width) * 3);
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  out.commit();
}

}  // namespace crowd::viewer
