// Draws a scene with OpenGL 3.3 core: obstacle polygons filled through the stencil buffer (any
// simple polygon; clockwise ones are holes inside a solid, or boundaries filled outside), circles and agents
// as instanced discs (one quad per instance, the disc cut in the fragment shader, a heading mark and a rim),
// the selected agent's route and neighbour links as lines. Needs a current GL context.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <crowd/viewer/camera.hpp>
#include <crowd/viewer/scene.hpp>

namespace crowd::viewer {

/// The palette, as 8-bit RGB: what tests look for in a picture.
struct Palette {
  static constexpr std::uint8_t kBackground[3] = {24, 26, 32};
  static constexpr std::uint8_t kObstacle[3] = {112, 118, 132};
  static constexpr std::uint8_t kRoute[3] = {255, 255, 255};
  static constexpr std::uint8_t kHalfPlane[3] = {255, 150, 40};
  static constexpr std::uint8_t kTrail[3] = {70, 78, 96};
  /// The ramp of Speed and Density: kRamp[k] at kRampAt[k], straight lines between.
  static constexpr int kRampStops = 4;
  static constexpr float kRampAt[kRampStops] = {0.0f, 0.333f, 0.667f, 1.0f};
  static constexpr float kRamp[kRampStops][3] = {
      {0.23f, 0.42f, 0.98f}, {0.10f, 0.80f, 0.85f}, {0.98f, 0.84f, 0.18f}, {0.96f, 0.26f, 0.20f}};
  /// The categories of Group and Behavior: key k in kCategory[k % 8], dimmed from k = 8 up.
  static constexpr int kCategoryColors = 8;
  static constexpr float kCategory[kCategoryColors][3] = {
      {0.30f, 0.60f, 1.00f}, {1.00f, 0.55f, 0.20f}, {0.35f, 0.85f, 0.40f}, {0.95f, 0.35f, 0.45f},
      {0.70f, 0.50f, 0.95f}, {0.95f, 0.85f, 0.25f}, {0.25f, 0.85f, 0.85f}, {0.95f, 0.55f, 0.80f}};
  static constexpr float kCategoryDimmed = 0.7f;
};

class Renderer {
 public:
  /// Compiles the shaders and makes the buffers. Throws std::runtime_error when GL 3.3 core is
  /// not available or a shader does not compile.
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  /// The static scene, uploaded once.
  void setStatic(const StaticScene& scene);
  /// Agents to draw, uploaded from the host (the CPU path, or a GPU backend read back).
  void setAgents(std::span<const AgentInstance> agents);
  /// The GL buffer the agent instances live in, with room for `count` (for CUDA-GL interop:
  /// register it once, fill it each frame, then call useAgentCount).
  std::uint32_t agentBuffer(std::size_t count);
  void useAgentCount(std::size_t count) { agentCount_ = count; }
  /// The selected agent's route (a polyline), neighbour links and half-planes (pairs; Frame).
  void setOverlay(std::span<const Vec2> route, std::span<const Vec2> links,
                  std::span<const Vec2> halfPlanes = {});
  /// Agents' trails (pairs of points; none to hide them).
  void setTrails(std::span<const Vec2> trails);
  /// Whether the palette is categorical (Group, Behavior) or a ramp (Speed, Density).
  void setColorBy(ColorBy colorBy) { colorBy_ = colorBy; }

  /// Draws into the bound framebuffer, `width` x `height` pixels.
  void draw(const Camera& camera, int width, int height);

 private:
  void drawDiscs(std::uint32_t vao, std::size_t count, bool solid);

  std::uint32_t discProgram_ = 0, flatProgram_ = 0;
  std::uint32_t quad_ = 0;  // Unit quad corners.
  std::uint32_t agentVao_ = 0, agentVbo_ = 0;
  std::uint32_t circleVao_ = 0, circleVbo_ = 0;
  std::uint32_t polyVao_ = 0, polyVbo_ = 0;
  std::uint32_t lineVao_ = 0, lineVbo_ = 0;
  std::uint32_t trailVao_ = 0, trailVbo_ = 0;
  std::size_t trailPoints_ = 0;
  std::size_t agentCount_ = 0, agentCapacity_ = 0, circleCount_ = 0;
  std::vector<std::int32_t> fanFirst_, fanCount_;  // Polygons of 3+ vertices: triangle fans.
  std::vector<std::int32_t> segmentFirst_;         // Two-vertex walls: lines.
  std::size_t boundaries_ = 0;                     // Clockwise polygons in no solid (filled outside).
  std::size_t routePoints_ = 0, linkPoints_ = 0, halfPlanePoints_ = 0;
  ColorBy colorBy_ = ColorBy::Speed;
};

}  // namespace crowd::viewer
