// PNG frames of a running world drawn offscreen, and videos made of them by ffmpeg (frames.hpp).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <crowd/stop_request.hpp>
#include <crowd/viewer/annotations.hpp>
#include <crowd/viewer/frames.hpp>
#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/renderer.hpp>
#include <crowd/viewer/sphere_renderer.hpp>

namespace crowd::viewer {
namespace {

// Whether `program` is on the PATH.
bool onPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string rest = path;
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::string folder = rest.substr(0, colon);
    if (!folder.empty() && access((folder + "/" + program).c_str(), X_OK) == 0) return true;
    rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
  }
  return false;
}

// Single quotes for a shell, with any single quote in `text` closed, escaped and reopened.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Writes the bound framebuffer `target` as frame `index` in `folder`.
void writeFrame(const std::filesystem::path& folder, int index, const Framebuffer& target) {
  writePng(framePath(folder, index).string(), target.width(), target.height(), target.readRgb());
}

// Removes the frame-NNNNN.png files in `folder` (an earlier render's); returns how many.
int removeFrames(const std::filesystem::path& folder) {
  int removed = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    const bool frame =
        name.size() == 15 && name.starts_with("frame-") && name.ends_with(".png") &&
        std::all_of(name.begin() + 6, name.begin() + 11, [](char c) { return c >= '0' && c <= '9'; });
    std::error_code removeError;
    if (frame && std::filesystem::remove(entry.path(), removeError)) ++removed;
  }
  return removed;
}

// "after N frames", for the stop request.
void pollStop(int framesWritten) {
  throwIfStopRequested(("after " + std::to_string(framesWritten) + " frames").c_str());
}

}  // namespace

std::filesystem::path framePath(const std::filesystem::path& folder, int index) {
  char name[32];
  std::snprintf(name, sizeof(name), "frame-%05d.png", index);
  return folder / name;
}

RenderedFrames renderFrames(Simulator& sim, const FrameSettings& s) {
  const std::unique_ptr<OffscreenContext> context = OffscreenContext::create();
  const int replaced = removeFrames(s.folder);
  Renderer renderer;
  Framebuffer target(s.width, s.height);
  target.bind();
  for (int step = 0; step < s.start; ++step) sim.step();
  const StaticScene scene = StaticScene::fromSimulator(sim, !s.fitCrowd);
  renderer.setStatic(scene);
  renderer.setColorBy(s.colorBy);
  StaticScene annotated = scene;
  annotated.marks.add(s.marks);
  Camera camera;
  camera.fit(scene.lo, scene.hi, s.width, s.height);
  const std::unique_ptr<Annotator> annotator = s.annotate ? std::make_unique<Annotator>() : nullptr;

  Frame frame;
  for (int f = 0; f < s.frames; ++f) {
    pollStop(f);
    if (f > 0) {
      for (int step = 0; step < s.every; ++step) sim.step();
    }
    captureAgents(sim, s.colorBy, frame);
    renderer.setAgents(frame.agents);
    target.bind();
    renderer.draw(camera, s.width, s.height);
    if (annotator) annotator->draw(camera, s.width, s.height, annotated, s.colorBy, sim.time());
    writeFrame(s.folder, f, target);
    if (s.onFrame) s.onFrame(f, sim.stepCount());
  }
  return RenderedFrames{s.frames, sim.stepCount(), context->description(), replaced};
}

RenderedFrames renderFrames(Simulator3& sim, const FrameSettings& s) {
  const std::unique_ptr<OffscreenContext> context = OffscreenContext::create();
  const int replaced = removeFrames(s.folder);
  SphereRenderer renderer;
  Framebuffer target(s.width, s.height);
  for (int step = 0; step < s.start; ++step) sim.step();
  Vec3 lo, hi;
  boundsOf(sim, !s.fitCrowd, lo, hi);
  renderer.setBounds(lo, hi);
  OrbitCamera camera;
  camera.fit(lo, hi);
  for (int f = 0; f < s.frames; ++f) {
    pollStop(f);
    if (f > 0) {
      for (int step = 0; step < s.every; ++step) sim.step();
      camera.orbit(2.0f, 0.0f);
    }
    renderer.setSpheres(captureSpheres(sim));
    target.bind();
    renderer.draw(camera, s.width, s.height);
    writeFrame(s.folder, f, target);
    if (s.onFrame) s.onFrame(f, sim.stepCount());
  }
  return RenderedFrames{s.frames, sim.stepCount(), context->description(), replaced};
}

bool ffmpegInstalled() {
  return onPath("ffmpeg");
}

std::filesystem::path videoPath(const std::filesystem::path& folder, VideoFormat format) {
  return folder / (format == VideoFormat::Gif ? "crowd.gif" : "crowd.mp4");
}

bool encodeVideo(const std::filesystem::path& folder, VideoFormat format, double fps) {
  const std::string input = quoted((folder / "frame-%05d.png").string());
  // No fps filter: it resampled the frames to its own rate (a GIF at 15 kept every other frame).
  // The input's rate is the output's, given again for the MP4 so that its stream keeps it.
  const std::string filter =
      format == VideoFormat::Gif
          ? "scale='min(640,iw)':-2:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse"
          : "scale=trunc(iw/2)*2:trunc(ih/2)*2";
  char rate[32];
  std::snprintf(rate, sizeof(rate), "%.6g", fps);
  const std::string command =
      "ffmpeg -y -loglevel error -framerate " + std::string(rate) + " -i " + input + " -vf " +
      quoted(filter) +
      (format == VideoFormat::Mp4 ? " -r " + std::string(rate) + " -pix_fmt yuv420p " : " ") +
      quoted(videoPath(folder, format).string());
  return std::system(command.c_str()) == 0;
}

}  // namespace crowd::viewer
