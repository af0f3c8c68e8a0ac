// The 3D renderer (sphere_renderer.hpp).
#include <algorithm>
#include <cmath>
#include <cstddef>

#include <epoxy/gl.h>
#include <glm/gtc/type_ptr.hpp>

#include <crowd/viewer/renderer.hpp>
#include <crowd/viewer/sphere_renderer.hpp>

#include "gl_program.hpp"
#include "shaders.hpp"

namespace crowd::viewer {

std::vector<SphereInstance> captureSpheres(const Simulator3& sim) {
  const std::span<const Vec3> positions = sim.positions();
  const std::span<const Vec3> velocities = sim.velocities();
  const std::vector<float> radii = sim.radii();
  const std::vector<float> maxSpeeds = sim.maxSpeeds();
  std::vector<SphereInstance> out(positions.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const float speed = length(velocities[i]);
    out[i] = SphereInstance{positions[i].x, positions[i].y, positions[i].z, radii[i],
                            maxSpeeds[i] > 0.0f ? std::min(speed / maxSpeeds[i], 1.0f) : 0.0f};
  }
  return out;
}

void boundsOf(const Simulator3& sim, bool goals, Vec3& lo, Vec3& hi) {
  lo = Vec3(INFINITY);
  hi = Vec3(-INFINITY);
  auto add = [&](Vec3 p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  };
  for (const Vec3 p : sim.positions()) add(p);
  if (goals) {
    for (const AgentId id : sim.ids()) {
      if (const auto goal = sim.goal(id)) add(*goal);
    }
  }
  if (sim.agentCount() == 0) lo = hi = Vec3(0.0f);
}

SphereRenderer::SphereRenderer() {
  if (epoxy_gl_version() < 33) throw std::runtime_error("viewer: OpenGL 3.3 or newer is needed");
  sphereProgram_ =
      link(shaders::kSphereVertex, shaders::fragmentWithPalette(shaders::kSphereFragment).c_str());
  lineProgram_ = link(shaders::kLine3Vertex, shaders::kFlatFragment);
  const float corners[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  glGenBuffers(1, &quad_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_);
  glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
  glGenBuffers(1, &sphereVbo_);
  glGenBuffers(1, &boxVbo_);

  sphereVao_ = instancedQuadArray(quad_, sphereVbo_, static_cast<GLsizei>(sizeof(SphereInstance)),
                                  {{1, 3, offsetof(SphereInstance, x)},
                                   {2, 1, offsetof(SphereInstance, radius)},
                                   {3, 1, offsetof(SphereInstance, value)}});
  glGenVertexArrays(1, &boxVao_);
  glBindVertexArray(boxVao_);
  glBindBuffer(GL_ARRAY_BUFFER, boxVbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
  glBindVertexArray(0);
}

SphereRenderer::~SphereRenderer() {
  for (GLuint vao : {sphereVao_, boxVao_}) glDeleteVertexArrays(1, &vao);
  for (GLuint b : {quad_, sphereVbo_, boxVbo_}) glDeleteBuffers(1, &b);
  glDeleteProgram(sphereProgram_);
  glDeleteProgram(lineProgram_);
}

void SphereRenderer::setBounds(Vec3 lo, Vec3 hi) {
  // The box's 12 edges: along x, y and z from each corner on the low side of that axis.
  std::vector<Vec3> edges;
  for (int axis = 0; axis < 3; ++axis) {
    for (int corner = 0; corner < 4; ++corner) {
      Vec3 a = lo;
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      a[u] = (corner & 1) != 0 ? hi[u] : lo[u];
      a[v] = (corner & 2) != 0 ? hi[v] : lo[v];
      Vec3 b = a;
      b[axis] = hi[axis];
      edges.push_back(a);
      edges.push_back(b);
    }
  }
  glBindBuffer(GL_ARRAY_BUFFER, boxVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(edges.size() * sizeof(Vec3)), edges.data(),
               GL_STATIC_DRAW);
}

void SphereRenderer::setSpheres(std::span<const SphereInstance> spheres) {
  glBindBuffer(GL_ARRAY_BUFFER, sphereVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(spheres.size_bytes()), spheres.data(),
               GL_STREAM_DRAW);
  sphereCount_ = spheres.size();
}

void SphereRenderer::draw(const OrbitCamera& camera, int width, int height) {
  glViewport(0, 0, width, height);
  glClearColor(Palette::kBackground[0] / 255.0f, Palette::kBackground[1] / 255.0f,
               Palette::kBackground[2] / 255.0f, 1.0f);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  const glm::mat4 view = camera.view();
  const glm::mat4 projection = camera.projection(width, height);
  for (GLuint program : {sphereProgram_, lineProgram_}) {
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "view"), 1, GL_FALSE, glm::value_ptr(view));
    glUniformMatrix4fv(glGetUniformLocation(program, "projection"), 1, GL_FALSE, glm::value_ptr(projection));
  }
  glUseProgram(lineProgram_);
  rgb(glGetUniformLocation(lineProgram_, "tint"), Palette::kObstacle);
  glBindVertexArray(boxVao_);
  glDrawArrays(GL_LINES, 0, 24);
  glUseProgram(sphereProgram_);
  // About a pixel at distance 1 from the eye, in world units per unit of depth.
  const float pixel = 2.0f * std::tan(0.5f * camera.fovY) / static_cast<float>(std::max(height, 1));
  glUniform1f(glGetUniformLocation(sphereProgram_, "minRadius"), pixel);
  glBindVertexArray(sphereVao_);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(sphereCount_));
  glBindVertexArray(0);
  glDisable(GL_DEPTH_TEST);
}

}  // namespace crowd::viewer
