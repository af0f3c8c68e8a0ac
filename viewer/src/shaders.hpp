// GLSL 3.30 sources of the renderer's two programs (renderer.cpp).
#pragma once

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

// A ramp (speed, density) or a categorical palette of 16; a dark heading mark and rim.
inline constexpr const char* kDiscFragment = R"(#version 330 core
in vec2 local;
in vec2 dir;
flat in float key;
uniform int mode;     // 0 ramp, 1 categories, 2 solid
uniform vec3 solid;
out vec4 color;
vec3 ramp(float t) {
  vec3 a = vec3(0.23, 0.42, 0.98), b = vec3(0.10, 0.80, 0.85), c = vec3(0.98, 0.84, 0.18), d = vec3(0.96, 0.26, 0.20);
  t = clamp(t, 0.0, 1.0);
  if (t < 0.333) return mix(a, b, t / 0.333);
  if (t < 0.667) return mix(b, c, (t - 0.333) / 0.334);
  return mix(c, d, (t - 0.667) / 0.333);
}
vec3 category(float k) {
  const vec3 table[8] = vec3[8](vec3(0.30, 0.60, 1.00), vec3(1.00, 0.55, 0.20), vec3(0.35, 0.85, 0.40),
                                vec3(0.95, 0.35, 0.45), vec3(0.70, 0.50, 0.95), vec3(0.95, 0.85, 0.25),
                                vec3(0.25, 0.85, 0.85), vec3(0.95, 0.55, 0.80));
  int i = int(floor(k * 16.0 + 0.5));
  vec3 c = table[i % 8];
  return i >= 8 ? c * 0.7 : c;
}
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
