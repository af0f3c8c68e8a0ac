// The viewer application, for any program that embeds it: a world shown as it runs, in a window
// that takes keys and the mouse until it is closed, or drawn offscreen as fast as it can go to
// measure the frame rate. A planar world (Session) runs on a thread of its own and the window
// draws the newest state it has published, so neither waits for the other; a 3D world (Session3)
// steps on the drawing thread. crowdsim's `view` command is built on this (apps/crowdsim).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/simulator_config.hpp>
#include <crowd/viewer/replay.hpp>
#include <crowd/viewer/scene.hpp>

namespace crowd::viewer {

/// How a session's simulator is made (and made again by the reset key).
struct SimulationSettings {
  int threads = 0;  ///< CPU threads (0: all cores).
  BackendKind backend = BackendKind::Auto;
};

/// How a session is shown.
struct DisplaySettings {
  int width = 1280;  ///< Window or picture size, pixels.
  int height = 800;
  ColorBy colorBy = ColorBy::Speed;  ///< The agents' colours at the start (a 3D world colours by speed).
  /// Seconds of wall time, then the window closes; 0: it stays open until closed. Offscreen,
  /// 0 draws for 10 seconds.
  double quitAfter = 0.0;
  bool noVsync = false;           ///< Draw as fast as possible rather than at the display's refresh.
  std::string title = "crowd";    ///< The window's title (a 3D world adds " 3D").
  std::string program = "crowd";  ///< What the messages printed start with ("crowd: drew ...").
};

/// What a session drew.
struct SessionReport {
  long frames = 0;
  double seconds = 0.0;    ///< Wall time the window was open (or the offscreen drawing ran).
  std::size_t agents = 0;  ///< Agents in the last state drawn.
  std::int64_t step = 0;   ///< The step the simulation reached.
};

/// Whether there is a display for a window (DISPLAY or WAYLAND_DISPLAY set).
bool displayPresent();

/// What a session shows. A planar world: a scenario run live, a trajectory file played back
/// (looping), or a playback drawn with a scenario's obstacles, agent sizes and profiles (at least
/// one of the two).
template <class Vector>
struct SessionSubject {
  std::optional<Scenario> scenario;
  std::optional<Replay> replay;
};
/// A 3D world: spheres seen by an orbit camera (drag to turn round the world, wheel to zoom),
/// stepped as many times a frame as keep it at the simulated time's pace, at most 8.
template <>
struct SessionSubject<Vec3> {
  Scenario3 scenario;
};

/// A world shown in a window, or drawn offscreen, while it runs; in either world (Session,
/// Session3), each with its own drawing (session.cpp, session3.cpp).
template <class Vector>
class SessionOf {
 public:
  /// Makes the simulator (and readies its backend) and shows its first state. Throws what making
  /// the simulator throws.
  SessionOf(SessionSubject<Vector> subject, const SimulationSettings& simulation,
            const DisplaySettings& display);
  ~SessionOf();
  SessionOf(const SessionOf&) = delete;
  SessionOf& operator=(const SessionOf&) = delete;

  /// Opens a window and runs until it is closed (Esc or Q, or DisplaySettings::quitAfter);
  /// prints the keys (without the overlay), how agents reach the GPU and, at the end, the frame
  /// rate. Throws std::runtime_error when no window can be opened or the simulation failed.
  SessionReport showWindow();
  /// No window, no input: draws into an offscreen framebuffer (OffscreenContext) as fast as it
  /// can for DisplaySettings::quitAfter seconds while the simulation runs, then prints the frame
  /// rate. Throws std::runtime_error when no context can be made or the simulation failed.
  SessionReport drawOffscreen();
  // Either may be called again: the world goes on from where it was left.

 private:
  struct State;
  std::unique_ptr<State> state_;
};
using Session = SessionOf<Vec2>;
using Session3 = SessionOf<Vec3>;

}  // namespace crowd::viewer
