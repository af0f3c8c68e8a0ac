// Draws a 3D world with OpenGL 3.3 core: each agent a shaded sphere (an instanced quad facing
// the camera, cut and lit in the fragment shader, with per-pixel depth), coloured by speed,
// inside the outline of the box the world spans. Needs a current GL context.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <crowd/simulator3.hpp>
#include <crowd/viewer/orbit_camera.hpp>

namespace crowd::viewer {

/// One agent as drawn: the instance buffer's layout (5 floats).
struct SphereInstance {
  float x, y, z;  ///< Centre.
  float radius;
  float value;  ///< Speed / maxSpeed, in [0, 1].
};
static_assert(sizeof(SphereInstance) == 5 * sizeof(float));

/// The agents of `sim` (host state) as spheres.
std::vector<SphereInstance> captureSpheres(const Simulator3& sim);

/// The box holding `sim`'s agents, and their goals too unless `goals` is false.
void boundsOf(const Simulator3& sim, bool goals, Vec3& lo, Vec3& hi);

class SphereRenderer {
 public:
  /// Compiles the shaders and makes the buffers. Throws std::runtime_error when GL 3.3 core is
  /// not available or a shader does not compile.
  SphereRenderer();
  ~SphereRenderer();
  SphereRenderer(const SphereRenderer&) = delete;
  SphereRenderer& operator=(const SphereRenderer&) = delete;

  /// The box outlined around the world.
  void setBounds(Vec3 lo, Vec3 hi);
  void setSpheres(std::span<const SphereInstance> spheres);
  /// Draws into the bound framebuffer, `width` x `height` pixels.
  void draw(const OrbitCamera& camera, int width, int height);

 private:
  std::uint32_t sphereProgram_ = 0, lineProgram_ = 0;
  std::uint32_t quad_ = 0, sphereVao_ = 0, sphereVbo_ = 0, boxVao_ = 0, boxVbo_ = 0;
  std::size_t sphereCount_ = 0;
};

}  // namespace crowd::viewer
