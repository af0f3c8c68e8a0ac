// Compiling and linking GLSL programs, and setting colour uniforms: what the planar renderer
// and the sphere renderer share. Needs a current GL context (epoxy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include <epoxy/gl.h>

namespace crowd::viewer {

// Throws with the info log when `object`'s `status` (a compile or link status) is not set.
inline void require(GLuint object, GLenum status, PFNGLGETSHADERIVPROC getiv,
                    PFNGLGETSHADERINFOLOGPROC getLog, const char* failure) {
  GLint ok = 0;
  getiv(object, status, &ok);
  if (ok != 0) return;
  char log[2048] = {};
  getLog(object, sizeof(log), nullptr, log);
  throw std::runtime_error(std::string("viewer: ") + failure + ": " + log);
}

inline GLuint compile(GLenum type, const char* source) {
  const GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  require(shader, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog, "a shader did not compile");
  return shader;
}

inline GLuint link(const char* vertex, const char* fragment) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment);
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  require(program, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog, "a shader program did not link");
  return program;
}

/// One float attribute of an instance buffer: its location, float count and byte offset.
struct InstanceField {
  GLuint index;
  GLint size;
  std::size_t offset;
};

/// A vertex array over the unit quad `quad` (corners at location 0) and the instance buffer
/// `instances` (`stride` bytes an instance, one per quad drawn, laid out as `fields`).
inline GLuint instancedQuadArray(GLuint quad, GLuint instances, GLsizei stride,
                                 std::initializer_list<InstanceField> fields) {
  GLuint vao = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, quad);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, instances);
  for (const InstanceField& f : fields) {
    glEnableVertexAttribArray(f.index);
    glVertexAttribPointer(f.index, f.size, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(f.offset));
    glVertexAttribDivisor(f.index, 1);
  }
  glBindVertexArray(0);
  return vao;
}

inline void rgb(GLint location, const std::uint8_t (&c)[3]) {
  glUniform3f(location, static_cast<float>(c[0]) / 255.0f, static_cast<float>(c[1]) / 255.0f,
              static_cast<float>(c[2]) / 255.0f);
}

}  // namespace crowd::viewer
