// The 3D view: a camera orbiting a target point at some distance, z up. Dragging turns it round
// the target (yaw) and over it (pitch); the wheel moves it nearer or further.
#pragma once

#include <algorithm>
#include <cmath>

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/mat4x4.hpp>

#include <crowd/kernels/vec3.hpp>

namespace crowd::viewer {

struct OrbitCamera {
  Vec3 target{0.0f};
  float distance = 100.0f;
  float yaw = 0.6f;     ///< Radians round the z axis, from +x.
  float pitch = 0.45f;  ///< Radians above the xy plane. [Limit: -1.5 .. 1.5]
  float fovY = 0.785f;  ///< Vertical field of view, radians (45 degrees).

  /// Frames the box [lo, hi]: the sphere round it fills the picture's height.
  void fit(Vec3 lo, Vec3 hi) {
    target = 0.5f * (lo + hi);
    const float radius = std::max(0.5f * length(hi - lo), 1e-2f);
    distance = 1.1f * radius / std::sin(0.5f * fovY);
  }
  Vec3 eye() const {
    return target +
           distance * Vec3(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch));
  }
  glm::mat4 view() const { return glm::lookAt(eye(), target, Vec3(0.0f, 0.0f, 1.0f)); }
  glm::mat4 projection(int width, int height) const {
    const float aspect = static_cast<float>(width) / static_cast<float>(std::max(height, 1));
    return glm::perspective(fovY, aspect, 0.01f * distance, 100.0f * distance);
  }
  /// Turns by a drag of (dx, dy) pixels.
  void orbit(float dx, float dy) {
    yaw -= 0.005f * dx;
    pitch = std::clamp(pitch + 0.005f * dy, -1.5f, 1.5f);
  }
  /// Moves nearer (factor < 1) or further.
  void zoom(float factor) { distance = std::clamp(distance * factor, 1e-3f, 1e8f); }
};

}  // namespace crowd::viewer
