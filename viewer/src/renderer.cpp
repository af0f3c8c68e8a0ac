// The OpenGL renderer (renderer.hpp).
#include <algorithm>
#include <stdexcept>
#include <string>

#include <epoxy/gl.h>

#include <crowd/obstacles.hpp>
#include <crowd/viewer/renderer.hpp>

#include "gl_program.hpp"
#include "shaders.hpp"

namespace crowd::viewer {
namespace {

// A vertex array of instanced discs over `instances` (AgentInstance layout) and the unit quad.
GLuint discArray(GLuint quad, GLuint instances) {
  return instancedQuadArray(quad, instances, static_cast<GLsizei>(sizeof(AgentInstance)),
                            {{1, 2, offsetof(AgentInstance, x)},
                             {2, 2, offsetof(AgentInstance, hx)},
                             {3, 1, offsetof(AgentInstance, radius)},
                             {4, 1, offsetof(AgentInstance, value)}});
}

GLuint pointArray(GLuint buffer) {
  GLuint vao = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(Vec2), nullptr);
  glBindVertexArray(0);
  return vao;
}

}  // namespace

Renderer::Renderer() {
  if (epoxy_gl_version() < 33) throw std::runtime_error("viewer: OpenGL 3.3 or newer is needed");
  discProgram_ = link(shaders::kDiscVertex, shaders::fragmentWithPalette(shaders::kDiscFragment).c_str());
  flatProgram_ = link(shaders::kFlatVertex, shaders::kFlatFragment);
  const float corners[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  glGenBuffers(1, &quad_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_);
  glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
  for (GLuint* b : {&agentVbo_, &circleVbo_, &polyVbo_, &lineVbo_, &trailVbo_}) glGenBuffers(1, b);
  agentVao_ = discArray(quad_, agentVbo_);
  circleVao_ = discArray(quad_, circleVbo_);
  polyVao_ = pointArray(polyVbo_);
  lineVao_ = pointArray(lineVbo_);
  trailVao_ = pointArray(trailVbo_);
}

Renderer::~Renderer() {
  for (GLuint vao : {agentVao_, circleVao_, polyVao_, lineVao_, trailVao_}) glDeleteVertexArrays(1, &vao);
  for (GLuint b : {quad_, agentVbo_, circleVbo_, polyVbo_, lineVbo_, trailVbo_}) glDeleteBuffers(1, &b);
  glDeleteProgram(discProgram_);
  glDeleteProgram(flatProgram_);
}

void Renderer::setStatic(const StaticScene& scene) {
  // The full-screen quad first (for boundaries and the stencil cover), then every polygon.
  std::vector<Vec2> points = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  fanFirst_.clear();
  fanCount_.clear();
  segmentFirst_.clear();
  boundaries_ = 0;
  for (const std::vector<Vec2>& polygon : scene.polygons) {
    const auto first = static_cast<std::int32_t>(points.size());
    points.insert(points.end(), polygon.begin(), polygon.end());
    if (polygon.size() == 2) {
      segmentFirst_.push_back(first);
      continue;
    }
    fanFirst_.push_back(first);
    fanCount_.push_back(static_cast<std::int32_t>(polygon.size()));
  }
  // A boundary is blocked outside: the cover counts it once more (draw(), below).
  for (const PolygonRole role : polygonRoles(scene.polygons))
    boundaries_ += role == PolygonRole::Boundary ? 1 : 0;
  glBindBuffer(GL_ARRAY_BUFFER, polyVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(points.size() * sizeof(Vec2)), points.data(),
               GL_STATIC_DRAW);
  std::vector<AgentInstance> circles;
  for (const auto& c : scene.circles) circles.push_back(AgentInstance{c[0], c[1], 0.0f, 0.0f, c[2], 0.0f});
  circleCount_ = circles.size();
  glBindBuffer(GL_ARRAY_BUFFER, circleVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(circles.size() * sizeof(AgentInstance)),
               circles.data(), GL_STATIC_DRAW);
}

std::uint32_t Renderer::agentBuffer(std::size_t count) {
  if (count > agentCapacity_) {
    agentCapacity_ = count + count / 4;
    glBindBuffer(GL_ARRAY_BUFFER, agentVbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(agentCapacity_ * sizeof(AgentInstance)), nullptr,
                 GL_DYNAMIC_DRAW);
  }
  return agentVbo_;
}

void Renderer::setAgents(std::span<const AgentInstance> agents) {
  agentBuffer(agents.size());
  glBindBuffer(GL_ARRAY_BUFFER, agentVbo_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(agents.size_bytes()), agents.data());
  agentCount_ = agents.size();
}

void Renderer::setOverlay(std::span<const Vec2> route, std::span<const Vec2> links,
                          std::span<const Vec2> halfPlanes) {
  std::vector<Vec2> points(route.begin(), route.end());
  points.insert(points.end(), links.begin(), links.end());
  points.insert(points.end(), halfPlanes.begin(), halfPlanes.end());
  routePoints_ = route.size();
  linkPoints_ = links.size();
  halfPlanePoints_ = halfPlanes.size();
  glBindBuffer(GL_ARRAY_BUFFER, lineVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(points.size() * sizeof(Vec2)), points.data(),
               GL_DYNAMIC_DRAW);
}

void Renderer::setTrails(std::span<const Vec2> trails) {
  trailPoints_ = trails.size();
  glBindBuffer(GL_ARRAY_BUFFER, trailVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(trails.size_bytes()), trails.data(), GL_DYNAMIC_DRAW);
}

void Renderer::drawDiscs(std::uint32_t vao, std::size_t count, bool solid) {
  if (count == 0) return;
  glUseProgram(discProgram_);
  const GLint mode = glGetUniformLocation(discProgram_, "mode");
  const bool categorical = colorBy_ == ColorBy::Group || colorBy_ == ColorBy::Behavior;
  glUniform1i(mode, solid ? 2 : (categorical ? 1 : 0));
  rgb(glGetUniformLocation(discProgram_, "solid"), Palette::kObstacle);
  glBindVertexArray(vao);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(count));
}

void Renderer::draw(const Camera& camera, int width, int height) {
  glViewport(0, 0, width, height);
  glClearColor(Palette::kBackground[0] / 255.0f, Palette::kBackground[1] / 255.0f,
               Palette::kBackground[2] / 255.0f, 1.0f);
  glClearStencil(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glDisable(GL_DEPTH_TEST);
  const float sx = 2.0f * camera.pixelsPerUnit / static_cast<float>(width);
  const float sy = 2.0f * camera.pixelsPerUnit / static_cast<float>(height);
  for (GLuint program : {discProgram_, flatProgram_}) {
    glUseProgram(program);
    glUniform2f(glGetUniformLocation(program, "viewCenter"), camera.center.x, camera.center.y);
    glUniform2f(glGetUniformLocation(program, "viewScale"), sx, sy);
  }
  glUseProgram(discProgram_);
  glUniform1f(glGetUniformLocation(discProgram_, "minPixels"), 2.0f);
  glUniform2f(glGetUniformLocation(discProgram_, "pixelSize"), 2.0f / static_cast<float>(width),
              2.0f / static_cast<float>(height));

  // Obstacles: the winding number of the polygons round each pixel in the stencil (counter-
  // clockwise fans count up, clockwise ones down), plus one for each boundary, then one full-
  // screen quad where it is not zero: inside solids, outside boundaries, not in holes.
  glUseProgram(flatProgram_);
  const GLint clip = glGetUniformLocation(flatProgram_, "clip");
  const GLint tint = glGetUniformLocation(flatProgram_, "tint");
  rgb(tint, Palette::kObstacle);
  glBindVertexArray(polyVao_);
  if (!fanFirst_.empty()) {
    glEnable(GL_STENCIL_TEST);
    glDisable(GL_CULL_FACE);
    glStencilMask(0xff);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glStencilFunc(GL_ALWAYS, 0, 0xff);
    glStencilOpSeparate(GL_FRONT, GL_KEEP, GL_KEEP, GL_INCR_WRAP);
    glStencilOpSeparate(GL_BACK, GL_KEEP, GL_KEEP, GL_DECR_WRAP);
    glUniform1i(clip, 1);
    for (std::size_t b = 0; b < boundaries_; ++b) glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    glUniform1i(clip, 0);
    glMultiDrawArrays(GL_TRIANGLE_FAN, fanFirst_.data(), fanCount_.data(),
                      static_cast<GLsizei>(fanFirst_.size()));
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glStencilFunc(GL_NOTEQUAL, 0, 0xff);
    glStencilOp(GL_ZERO, GL_ZERO, GL_ZERO);
    glUniform1i(clip, 1);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    glDisable(GL_STENCIL_TEST);
    // Outlines too, so that walls thinner than a pixel still show.
    glUniform1i(clip, 0);
    glMultiDrawArrays(GL_LINE_LOOP, fanFirst_.data(), fanCount_.data(),
                      static_cast<GLsizei>(fanFirst_.size()));
  }
  glUniform1i(clip, 0);
  for (const std::int32_t first : segmentFirst_) glDrawArrays(GL_LINES, first, 2);
  drawDiscs(circleVao_, circleCount_, true);

  if (trailPoints_ >= 2) {
    glUseProgram(flatProgram_);
    glUniform1i(clip, 0);
    rgb(tint, Palette::kTrail);
    glBindVertexArray(trailVao_);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(trailPoints_));
  }
  // The selected agent's route and links, under the agents.
  if (routePoints_ + linkPoints_ > 0) {
    glUseProgram(flatProgram_);
    glUniform1i(clip, 0);
    rgb(tint, Palette::kRoute);
    glBindVertexArray(lineVao_);
    if (routePoints_ >= 2) glDrawArrays(GL_LINE_STRIP, 0, static_cast<GLsizei>(routePoints_));
    if (linkPoints_ >= 2)
      glDrawArrays(GL_LINES, static_cast<GLint>(routePoints_), static_cast<GLsizei>(linkPoints_));
  }
  if (halfPlanePoints_ >= 2) {
    glUseProgram(flatProgram_);
    rgb(tint, Palette::kHalfPlane);
    glBindVertexArray(lineVao_);
    glDrawArrays(GL_LINES, static_cast<GLint>(routePoints_ + linkPoints_),
                 static_cast<GLsizei>(halfPlanePoints_));
  }
  drawDiscs(agentVao_, agentCount_, false);
  glBindVertexArray(0);
}

}  // namespace crowd::viewer
