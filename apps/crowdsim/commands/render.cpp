// crowdsim render: PNG frames of a scenario, planar or 3D, drawn offscreen (EGL, or a hidden
// window under Xvfb), then an MP4 and a GIF made by ffmpeg when it is installed. The drawing is
// the viewer's (crowd/viewer/frames.hpp): this file reads the options, resolves the target,
// makes the simulator and reports what was written.
#include <memory>

#ifdef CROWD_WITH_VIEWER
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

#include <crowd/viewer/frames.hpp>
#endif

#include "command.hpp"
#include "commands/scene_options.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "stop_signals.hpp"
#include "strict_integer.hpp"
#include "targets.hpp"

namespace crowd::cli {
namespace {

void addRenderOptions(CLI::App& render, RenderOptions& o) {
  addSceneOptions(render, o.scene, "1280x720");
  render.add_option("--start", o.start, "Steps to run before the first frame")
      ->check(kWholeNumber)
      ->check(CLI::Range(0, 1000000000))
      ->capture_default_str();
  render.add_option("--frames", o.frames, "Frames to write")
      ->check(kWholeNumber)
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  render.add_option("--every", o.every, "Steps between frames")
      ->check(kWholeNumber)
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  render
      .add_option("--out", o.outDir,
                  "Folder for frame-00000.png, ... (made if missing); the frame-NNNNN.png files of an "
                  "earlier render there are removed before the first frame")
      ->check(kPathGiven)
      ->capture_default_str();
  render.add_option("--video", o.video, "auto: MP4 and GIF when ffmpeg is installed; none; mp4; gif")
      ->check(CLI::IsMember({"auto", "none", "mp4", "gif"}))
      ->capture_default_str();
  render
      .add_option("--fps", o.fps,
                  "Frames a second of the MP4 and the GIF: each frame once, N frames last N / FPS seconds "
                  "(the simulated time between frames is --every steps)")
      ->check(CLI::Range(0.1, 120.0))
      ->capture_default_str();
  render.add_flag("--no-annotations", o.noAnnotations,
                  "The scene alone: no legend, scale bar, simulated time or marks of exits, goals and "
                  "measurement areas");
  render.add_flag("-q,--quiet", o.quiet, "No progress line");
  render.add_flag(
      "--fit-crowd", o.fitCrowd,
      "Frame the obstacles and the crowd as it stands at the first frame (default: their goals too, "
      "the whole journey)");
}

#ifdef CROWD_WITH_VIEWER
// The --out folder, made if missing.
std::filesystem::path outputFolder(const RenderOptions& o) {
  const std::filesystem::path dir(o.outDir);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!std::filesystem::is_directory(dir)) {
    throw std::invalid_argument("--out " + o.outDir + ": not a folder and cannot be made one");
  }
  return dir;
}

viewer::FrameSettings frameSettings(const RenderOptions& o, const std::filesystem::path& dir,
                                    PictureSize size) {
  viewer::FrameSettings frames;
  frames.folder = dir;
  frames.width = size.width;
  frames.height = size.height;
  frames.start = o.start;
  frames.frames = o.frames;
  frames.every = o.every;
  frames.fitCrowd = o.fitCrowd;
  frames.annotate = !o.noAnnotations;
  return frames;
}

// Makes the MP4 and GIF the options ask for (or says why not).
void encodeVideos(const RenderOptions& o, const std::filesystem::path& dir) {
  if (o.video == "none" || o.frames <= 1) return;
  if (!viewer::ffmpegInstalled()) {  // Only --video auto gets here without it (runRender).
    std::printf("no MP4 or GIF: ffmpeg is not installed (apt-get install ffmpeg)\n");
    return;
  }
  const std::pair<const char*, viewer::VideoFormat> formats[] = {{"mp4", viewer::VideoFormat::Mp4},
                                                                 {"gif", viewer::VideoFormat::Gif}};
  for (const auto& [name, format] : formats) {
    if (o.video != "auto" && o.video != name) continue;
    const std::filesystem::path made = viewer::videoPath(dir, format);
    if (viewer::encodeVideo(dir, format, o.fps)) {
      std::printf("wrote %s (%d frames at %.6g a second: %.6g s)\n", made.string().c_str(), o.frames, o.fps,
                  o.frames / o.fps);
    } else {
      std::fprintf(stderr, "crowdsim: warning: ffmpeg could not make %s\n", made.string().c_str());
    }
  }
}

void reportFrames(const viewer::RenderedFrames& r, const char* what, PictureSize size,
                  const std::filesystem::path& dir) {
  // One frame: its own name, the file to open; several: the first and the last.
  const std::string files = r.frames == 1 ? viewer::framePath(dir, 0).string()
                                          : viewer::framePath(dir, 0).string() + " to " +
                                                viewer::framePath(dir, r.frames - 1).filename().string();
  std::printf("wrote %d frame%s%s (%dx%d, up to step %lld) to %s, drawn by %s\n", r.frames,
              r.frames == 1 ? "" : "s", what, size.width, size.height, static_cast<long long>(r.lastStep),
              files.c_str(), r.drawnBy.c_str());
  if (r.replacedFrames > 0)
    std::printf("(the %d frames of an earlier render were removed first)\n", r.replacedFrames);
}

// Frames of a 3D world: spheres seen from an orbit camera that turns a little each frame.
int runRender3(const RenderOptions& o, BackendKind backend, PictureSize size) {
  const Scenario3 scenario = loadScenario3Target(o.scene.target, o.scene.agents, o.scene.seed);
  warn(scenario.warnings);
  const std::filesystem::path dir = outputFolder(o);
  Simulator3 sim = makeSimulator3(scenario, o.scene.threads, backend);
  sim.prepare();
  const viewer::RenderedFrames rendered = viewer::renderFrames(sim, frameSettings(o, dir, size));
  reportFrames(rendered, " of a 3D world", size, dir);
  encodeVideos(o, dir);
  return kExitSuccess;
}
#endif

}  // namespace

int runRender(const RenderOptions& o) {
#ifndef CROWD_WITH_VIEWER
  (void)o;
  return viewerMissing("render");
#else
  catchStopSignals();
  const BackendKind backend = backendNamed(o.scene.backend);
  requireBackend(backend);
  // An explicit video without ffmpeg is refused before a frame is drawn, not after all of them.
  if ((o.video == "mp4" || o.video == "gif") && o.frames > 1 && !viewer::ffmpegInstalled()) {
    throw std::invalid_argument("--video " + o.video + " needs ffmpeg (apt-get install ffmpeg)");
  }
  const PictureSize size = parseSize(o.scene.size);
  if (!o.scene.target.empty() && isTarget3d(o.scene.target)) return runRender3(o, backend, size);
  const Scenario scenario = loadSceneTarget(o.scene);
  warn(scenario.warnings);
  const std::filesystem::path dir = outputFolder(o);
  Simulator sim = makeSimulator(scenario, o.scene.threads, backend);
  sim.prepare();

  viewer::FrameSettings frames = frameSettings(o, dir, size);
  frames.colorBy = colorByNamed(o.scene.colorBy);
  frames.marks = viewer::scenarioMarks(scenario, sim.config().origin);
  const bool progress = !o.quiet && isatty(STDERR_FILENO) != 0;
  if (progress) {
    frames.onFrame = [&o](int frame, std::int64_t step) {
      std::fprintf(stderr, "\rframe %d/%d  step %lld   ", frame + 1, o.frames, static_cast<long long>(step));
    };
  }
  const viewer::RenderedFrames rendered = viewer::renderFrames(sim, frames);
  if (progress) std::fprintf(stderr, "\r%*s\r", 40, "");
  reportFrames(rendered, "", size, dir);
  encodeVideos(o, dir);
  return kExitSuccess;
#endif
}

Command renderCommand() {
  auto options = std::make_shared<RenderOptions>();
  return Command{"render",
                 "Write PNG frames of a scenario (and an MP4 and a GIF with ffmpeg), no display needed",
                 [options](CLI::App& app) { addRenderOptions(app, *options); },
                 [options] { return runRender(*options); }};
}

}  // namespace crowd::cli
