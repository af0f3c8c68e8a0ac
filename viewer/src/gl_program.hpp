// Compiling and linking GLSL programs, and setting colour uniforms: what the planar renderer
// and the sphere renderer share. Needs a current GL context (epoxy).
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace crowd::viewer {

// Throws with the info log when `object`'s `status` (a compile or link status) is not set.
inline void require(GLuint object, GLenum status, PFNGLGETSHADERIVPROC getiv, PFNGLGETSHADERINFOLOGPROC getLog,
             const char* failure) {
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

inline void rgb(GLint location, const std::uint8_t (&c)[3]) {
  glUniform3f(location, static_cast<float>(c[0]) / 255.0f, static_cast<float>(c[1]) / 255.0f,
              static_cast<float>(c[2]) / 255.0f);
}

}  // namespace crowd::viewer
