// crowdsim render: PNG frames drawn offscreen (EGL, or a hidden window under Xvfb), then an MP4
// and a GIF made by ffmpeg when it is installed.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include <crowd/viewer/offscreen.hpp>
#include <crowd/viewer/renderer.hpp>
#include <crowd/viewer/sphere_renderer.hpp>

#include "run_options.hpp"
#include "viewer_commands.hpp"
#include "viewer_support.hpp"

namespace crowd::cli {
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

// Runs ffmpeg over the frames; returns the file made, or an empty string (and says why).
std::string encode(const std::filesystem::path& dir, const std::string& kind) {
  const std::string input = quoted((dir / "frame-%05d.png").string());
  const std::filesystem::path output = dir / ("crowd." + kind);
  const std::string filter = kind == "gif"
                                 ? "fps=15,scale='min(640,iw)':-2:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse"
                                 : "scale=trunc(iw/2)*2:trunc(ih/2)*2";
  const std::string command = "ffmpeg -y -loglevel error -framerate 30 -i " + input + " -vf " + quoted(filter) +
                              (kind == "mp4" ? " -pix_fmt yuv420p " : " ") + quoted(output.string());
  if (std::system(command.c_str()) != 0) {
    std::cerr << "crowdsim: warning: ffmpeg could not make " << output.string() << "\n";
    return {};
  }
  return output.string();
}

// Makes the MP4 and GIF the options ask for (or says why not).
void encodeVideos(const RenderOptions& o, const std::filesystem::path& dir) {
  if (o.video == "none" || o.frames <= 1) return;
  if (!onPath("ffmpeg")) {  // Only --video auto gets here without it (runRender).
    std::printf("no MP4 or GIF: ffmpeg is not installed (apt-get install ffmpeg)\n");
    return;
  }
  for (const std::string kind : {"mp4", "gif"}) {
    if (o.video != "auto" && o.video != kind) continue;
    const std::string made = encode(dir, kind);
    if (!made.empty()) std::printf("wrote %s\n", made.c_str());
  }
}

std::filesystem::path outputFolder(const RenderOptions& o) {
  const std::filesystem::path dir(o.outDir);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!std::filesystem::is_directory(dir)) {
    throw std::invalid_argument("--out " + o.outDir + ": not a folder and cannot be made one");
  }
  return dir;
}

// Writes the bound framebuffer `target` as frame number `f` in `dir`.
void writeFrame(const std::filesystem::path& dir, int f, const viewer::Framebuffer& target) {
  char name[32];
  std::snprintf(name, sizeof(name), "frame-%05d.png", f);
  viewer::writePng((dir / name).string(), target.width(), target.height(), target.readRgb());
}

// Frames of a 3D world: spheres seen from an orbit camera that turns a little each frame.
int runRender3(const RenderOptions& o, const PictureSize& size) {
  const Scenario3 scenario = loadScenario3Target(o.scene.target, o.scene.agents, o.scene.seed);
  for (const std::string& w : scenario.warnings) std::cerr << "crowdsim: warning: " << w << "\n";
  const std::filesystem::path dir = outputFolder(o);
  Simulator3 sim = makeSimulator3(scenario, o.scene.threads, backendKind(o.scene.backend));
  sim.prepare();
  const std::unique_ptr<viewer::OffscreenContext> context = viewer::OffscreenContext::create();
  viewer::SphereRenderer renderer;
  viewer::Framebuffer target(size.width, size.height);
  for (int s = 0; s < o.start; ++s) sim.step();
  Vec3 lo, hi;
  viewer::boundsOf(sim, !o.fitCrowd, lo, hi);
  renderer.setBounds(lo, hi);
  viewer::OrbitCamera camera;
  camera.fit(lo, hi);
  for (int f = 0; f < o.frames; ++f) {
    if (f > 0) {
      for (int s = 0; s < o.every; ++s) sim.step();
      camera.orbit(2.0f, 0.0f);
    }
    renderer.setSpheres(viewer::captureSpheres(sim));
    target.bind();
    renderer.draw(camera, size.width, size.height);
    writeFrame(dir, f, target);
  }
  std::printf("wrote %d frame%s of a 3D world (%dx%d, up to step %lld) to %s/frame-NNNNN.png, drawn by %s\n", o.frames,
              o.frames == 1 ? "" : "s", size.width, size.height, static_cast<long long>(sim.stepCount()),
              dir.string().c_str(), context->description().c_str());
  encodeVideos(o, dir);
  return 0;
}

}  // namespace

int runRender(const RenderOptions& o) {
  requireBackend(o.scene.backend);
  // An explicit video without ffmpeg is refused before a frame is drawn, not after all of them.
  if ((o.video == "mp4" || o.video == "gif") && o.frames > 1 && !onPath("ffmpeg")) {
    throw std::invalid_argument("--video " + o.video + " needs ffmpeg (apt-get install ffmpeg)");
  }
  const PictureSize size = parseSize(o.scene.size);
  if (!o.scene.target.empty() && isTarget3d(o.scene.target)) return runRender3(o, size);
  Scenario scenario = loadSceneTarget(o.scene);
  for (const std::string& w : scenario.warnings) std::cerr << "crowdsim: warning: " << w << "\n";
  const std::filesystem::path dir = outputFolder(o);
  Simulator sim = makeSimulator(scenario, o.scene.threads, backendKind(o.scene.backend));
  sim.prepare();

  const std::unique_ptr<viewer::OffscreenContext> context = viewer::OffscreenContext::create();
  viewer::Renderer renderer;
  viewer::Framebuffer target(size.width, size.height);
  target.bind();
  for (int s = 0; s < o.start; ++s) sim.step();
  const viewer::StaticScene scene = viewer::StaticScene::fromSimulator(sim, !o.fitCrowd);
  renderer.setStatic(scene);
  const viewer::ColorBy colorBy = colorByNamed(o.scene.colorBy);
  renderer.setColorBy(colorBy);
  viewer::Camera camera;
  camera.fit(scene.lo, scene.hi, size.width, size.height);

  const bool progress = !o.quiet && isatty(STDERR_FILENO) != 0;
  viewer::Frame frame;
  for (int f = 0; f < o.frames; ++f) {
    if (f > 0) {
      for (int s = 0; s < o.every; ++s) sim.step();
    }
    viewer::captureAgents(sim, colorBy, frame);
    renderer.setAgents(frame.agents);
    target.bind();
    renderer.draw(camera, size.width, size.height);
    writeFrame(dir, f, target);
    if (progress) std::fprintf(stderr, "\rframe %d/%d  step %lld   ", f + 1, o.frames, static_cast<long long>(sim.stepCount()));
  }
  if (progress) std::fprintf(stderr, "\r%*s\r", 40, "");
  std::printf("wrote %d frame%s (%dx%d, up to step %lld) to %s/frame-NNNNN.png, drawn by %s\n", o.frames,
              o.frames == 1 ? "" : "s", size.width, size.height, static_cast<long long>(sim.stepCount()),
              dir.string().c_str(), context->description().c_str());
  encodeVideos(o, dir);
  return 0;
}

}  // namespace crowd::cli
