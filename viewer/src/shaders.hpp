// GLSL 3.30 sources of the renderers' programs (renderer.cpp, sphere_renderer.cpp).
#pragma once

#include <string>

#include <crowd/viewer/renderer.hpp>

namespace crowd::viewer::shaders {

// Discs: one quad per instance, corners in [-1, 1]^2, scaled by the radius around the centre.
inline constexpr const char* kDiscVertex = R"(#version 330 core
layout(location = 0) in vec2 corner;
layout(location = 1) in vec2 center;
layout(location = 2) in vec2 heading;
layout(location = 3) in float radius;
layout(location = 4) in float value;
uniform vec2 viewCenter;
uniform vec2 viewScale;  // World units to clip units.
uniform float minPixels; // Discs are never drawn smaller than this many pixels across.
uniform vec2 pixelSize;  // One pixel in clip units.
out vec2 local;
out vec2 dir;
flat out float key;
void main() {
  local = corner;
  dir = heading;
  key = value;
  vec2 extent = max(vec2(radius) * viewScale, 0.5 * minPixels * pixelSize);
  gl_Position = vec4((center - viewCenter) * viewScale + corner * extent, 0.0, 1.0);
}
)";

// The colours both kinds of agent use (Palette's ramp and categories, written out as GLSL so
// that the legend and the agents cannot disagree). Put in front of a fragment shader's own code.
inline std::string paletteSource() {
  auto number = [](float x) { return std::to_string(x); };
  auto vec3 = [&](const float(&c)[3]) {
    return "vec3(" + number(c[0]) + ", " + number(c[1]) + ", " + number(c[2]) + ")";
  };
  // The ramp: straight lines between its stops, the last one taking everything above.
  std::string source = "#version 330 core\nvec3 ramp(float t) {\n  t = clamp(t, 0.0, 1.0);\n";
  for (int k = 0; k + 1 < Palette::kRampStops; ++k) {
    const float from = Palette::kRampAt[k], to = Palette::kRampAt[k + 1];
    const std::string line = "return mix(" + vec3(Palette::kRamp[k]) + ", " + vec3(Palette::kRamp[k + 1]) +
                             ", (t - " + number(from) + ") / " + number(to - from) + ");\n";
    source += k + 2 < Palette::kRampStops ? "  if (t < " + number(to) + ") " + line : "  " + line;
  }
  const std::string n = std::to_string(Palette::kCategoryColors);
  source += "}\nvec3 category(float k) {\n  const vec3 table[" + n + "] = vec3[" + n + "](";
  for (int k = 0; k < Palette::kCategoryColors; ++k)
    source += (k > 0 ? ", " : "") + vec3(Palette::kCategory[k]);
  source += ");\n  int i = int(floor(k * 16.0 + 0.5));\n  vec3 c = table[i % " + n +
            "];\n  return i >= " + n + " ? c * " + number(Palette::kCategoryDimmed) + " : c;\n}\n";
  return source;
}

inline std::string fragmentWithPalette(const char* main) {
  return paletteSource() + main;
}

// Discs: the palette's colour, a dark heading mark and rim.
inline constexpr const char* kDiscFragment = R"(
in vec2 local;
in vec2 dir;
flat in float key;
uniform int mode;     // 0 ramp, 1 categories, 2 solid
uniform vec3 solid;
out vec4 color;
void main() {
  float r2 = dot(local, local);
  if (r2 > 1.0) discard;
  vec3 c = mode == 2 ? solid : (mode == 1 ? category(key) : ramp(key));
  if (mode != 2) {
    float along = dot(local, dir);
    float across = abs(local.x * dir.y - local.y * dir.x);
    if (along > 0.15 && across < 0.14) c *= 0.3;
    if (r2 > 0.75) c *= 0.65;
  }
  color = vec4(c, 1.0);
}
)";

// Spheres: one quad per instance facing the camera (view space), the sphere cut and shaded in
// the fragment shader, its depth written per pixel so that spheres intersect correctly.
inline constexpr const char* kSphereVertex = R"(#version 330 core
layout(location = 0) in vec2 corner;
layout(location = 1) in vec3 center;
layout(location = 2) in float radius;
layout(location = 3) in float value;
uniform mat4 view;
uniform mat4 projection;
uniform float minRadius;  // World units: spheres far away stay at least about a pixel wide.
out vec2 local;
out vec3 viewCenter;
out float viewRadius;
flat out float key;
void main() {
  local = corner;
  key = value;
  viewCenter = (view * vec4(center, 1.0)).xyz;
  viewRadius = max(radius, minRadius * -viewCenter.z);
  gl_Position = projection * vec4(viewCenter + vec3(corner * viewRadius, 0.0), 1.0);
}
)";

inline constexpr const char* kSphereFragment = R"(
in vec2 local;
in vec3 viewCenter;
in float viewRadius;
flat in float key;
uniform mat4 projection;
out vec4 color;
void main() {
  float r2 = dot(local, local);
  if (r2 > 1.0) discard;
  vec3 normal = vec3(local, sqrt(1.0 - r2));
  vec3 light = normalize(vec3(-0.4, 0.6, 0.7));
  float shade = 0.3 + 0.7 * max(dot(normal, light), 0.0);
  color = vec4(ramp(key) * shade, 1.0);
  vec4 clip = projection * vec4(viewCenter + normal * viewRadius, 1.0);
  gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;
}
)";

// Lines in 3D (the world's bounding box): world positions through view and projection.
inline constexpr const char* kLine3Vertex = R"(#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 view;
uniform mat4 projection;
void main() { gl_Position = projection * view * vec4(position, 1.0); }
)";

// Flat colour: world positions, or clip positions when `clip` is set (full-screen quads).
inline constexpr const char* kFlatVertex = R"(#version 330 core
layout(location = 0) in vec2 position;
uniform vec2 viewCenter;
uniform vec2 viewScale;
uniform int clip;
void main() {
  gl_Position = vec4(clip == 1 ? position : (position - viewCenter) * viewScale, 0.0, 1.0);
}
)";

inline constexpr const char* kFlatFragment = R"(#version 330 core
uniform vec3 tint;
out vec4 color;
void main() { color = vec4(tint, 1.0); }
)";

}  // namespace crowd::viewer::shaders
