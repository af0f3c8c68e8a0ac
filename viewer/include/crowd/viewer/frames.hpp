// Pictures of a world as it runs, no display needed: PNG frames drawn offscreen (EGL, or a
// hidden window under Xvfb; OffscreenContext) every few steps, and an MP4 or a GIF made of them
// by ffmpeg where it is installed. crowdsim's `render` command is built on this (apps/crowdsim).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>
#include <crowd/viewer/scene.hpp>

namespace crowd::viewer {

/// Which frames to draw, and how.
struct FrameSettings {
  std::filesystem::path folder;  ///< Where frame-00000.png, ... go; an existing folder.
  int width = 1280;              ///< Picture size, pixels.
  int height = 720;
  int start = 0;  ///< Steps taken before the first frame.
  int frames = 60;
  int every = 1;                     ///< Steps between frames.
  ColorBy colorBy = ColorBy::Speed;  ///< A planar world's colours (a 3D world colours by speed).
  /// Frame the obstacles and the crowd as it stands at the first frame, rather than their goals
  /// too (the whole journey).
  bool fitCrowd = false;
  /// Draw the legend, scale bar, simulated time and marks (annotations.hpp) over a planar
  /// world's frames; false for the scene alone.
  bool annotate = true;
  /// Exits and measurement areas to mark (scenarioMarks), besides the agents' goals.
  Marks marks;
  /// Called after each frame is written: its number from 0, and the simulator's step.
  std::function<void(int frame, std::int64_t step)> onFrame;
};

/// What was drawn.
struct RenderedFrames {
  int frames = 0;
  std::int64_t lastStep = 0;  ///< The simulator's step at the last frame.
  std::string drawnBy;        ///< The context and renderer (OffscreenContext::description).
  int replacedFrames = 0;     ///< frame-NNNNN.png files of an earlier render removed first.
};

/// The path of frame `index` in `folder`: folder/frame-NNNNN.png.
std::filesystem::path framePath(const std::filesystem::path& folder, int index);

/// Steps `sim` (readied, Simulator::prepare) and writes its frames from a camera that frames the
/// world at the first one. The folder's frame-NNNNN.png files of an earlier render are removed
/// once the offscreen context is made, before the first frame, so that the folder never mixes
/// two renders' frames; each frame is written under a temporary name and renamed into place
/// when complete. Polls for a stop (crowd/stop_request.hpp) before each frame, throwing
/// Interrupted: the frames written so far stay. Throws std::runtime_error when no offscreen
/// context can be made or a file cannot be written.
RenderedFrames renderFrames(Simulator& sim, const FrameSettings& settings);
/// The same for a 3D world: spheres from an orbit camera that turns a little each frame.
RenderedFrames renderFrames(Simulator3& sim, const FrameSettings& settings);

enum class VideoFormat { Mp4, Gif };

/// Whether ffmpeg is on the PATH.
bool ffmpegInstalled();
/// The video encodeVideo makes from the frames in `folder`: folder/crowd.mp4 or crowd.gif.
std::filesystem::path videoPath(const std::filesystem::path& folder, VideoFormat format);
/// Frames a second of a video when none is asked for.
inline constexpr double kDefaultFramesPerSecond = 30.0;
/// Runs ffmpeg over the frames in `folder` into videoPath, every frame once, `fps` of them a
/// second (a GIF at most 640 pixels wide, its delays in hundredths of a second as ffmpeg rounds
/// them, adding up to the frames' time). False when ffmpeg fails (it has said why on stderr).
bool encodeVideo(const std::filesystem::path& folder, VideoFormat format,
                 double fps = kDefaultFramesPerSecond);

}  // namespace crowd::viewer
