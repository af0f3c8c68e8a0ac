// The legend, scale bar, time and marks drawn over a picture (annotations.hpp). Everything is
// built on the host as coloured triangles in pixels and drawn in one call, in order, so that
// panels lie under their labels.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include <epoxy/gl.h>
#include <glm/common.hpp>

#include <crowd/kernels/behavior_kinds.hpp>
#include <crowd/viewer/annotations.hpp>
#include <crowd/viewer/renderer.hpp>

#include "gl_program.hpp"
#include "glyphs.hpp"

namespace crowd::viewer {
namespace {

constexpr const char* kVertex = R"(#version 330 core
layout(location = 0) in vec2 pixel;
layout(location = 1) in vec4 colour;
uniform vec2 size;
out vec4 tint;
void main() {
  tint = colour;
  gl_Position = vec4(2.0 * pixel.x / size.x - 1.0, 1.0 - 2.0 * pixel.y / size.y, 0.0, 1.0);
}
)";

constexpr const char* kFragment = R"(#version 330 core
in vec4 tint;
out vec4 color;
void main() { color = tint; }
)";

struct Colour {
  float r, g, b, a;
};
struct Vertex {
  float x, y;
  Colour c;
};

Colour of(const std::uint8_t (&c)[3], float alpha = 1.0f) {
  return Colour{c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, alpha};
}
Colour of(const float (&c)[3], float times = 1.0f) {
  return Colour{c[0] * times, c[1] * times, c[2] * times, 1.0f};
}
// The colour agents of categorical key k are drawn in (shaders::paletteSource's category()).
Colour categoryColour(int k) {
  return of(Palette::kCategory[k % Palette::kCategoryColors],
            k >= Palette::kCategoryColors ? Palette::kCategoryDimmed : 1.0f);
}

// Coloured triangles in pixels.
struct Shapes {
  std::vector<Vertex> vertices;

  void quad(Vec2 a, Vec2 b, Vec2 c, Vec2 d, Colour ca, Colour cb, Colour cc, Colour cd) {
    vertices.insert(vertices.end(), {{a.x, a.y, ca}, {b.x, b.y, cb}, {c.x, c.y, cc}});
    vertices.insert(vertices.end(), {{a.x, a.y, ca}, {c.x, c.y, cc}, {d.x, d.y, cd}});
  }
  void rect(const PixelRect& r, Colour c) {
    quad({r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}, c, c, c, c);
  }
  void box(const PixelBox& b, Colour c) {
    rect(PixelRect{static_cast<float>(b.x0), static_cast<float>(b.y0), static_cast<float>(b.x1),
                   static_cast<float>(b.y1)},
         c);
  }
  // Left to right from `left` to `right`.
  void gradient(const PixelRect& r, Colour left, Colour right) {
    quad({r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}, left, right, right, left);
  }
  // A line `thickness` pixels wide, its ends squared off half a thickness beyond a and b so that
  // the sides of an outline meet.
  void segment(Vec2 a, Vec2 b, float thickness, Colour c) {
    const float len = length(b - a);
    const Vec2 along = len > 1e-6f ? (b - a) / len : Vec2(1.0f, 0.0f);
    const Vec2 h = along * (0.5f * thickness);
    const Vec2 across(-h.y, h.x);
    quad(a - h - across, b + h - across, b + h + across, a - h + across, c, c, c, c);
  }
  void text(std::string_view s, float x, float y, float scale, Colour c) {
    std::vector<PixelRect> rects;
    appendText(s, x, y, scale, rects);
    for (const PixelRect& r : rects) rect(r, c);
  }
};

// "1.3", "0.65", "12": a scale's number, short.
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", v);
  return text;
}

// One row of the legend: a sign (a colour swatch or a mark's shape) and what it means.
enum class Sign { Swatch, Exit, Goal, Area, Line };
struct Row {
  Sign sign;
  Colour colour;
  std::string label;
};

// The legend's content for `colorBy`: a title, and either a ramp with three labels or rows.
struct LegendContent {
  std::string title;
  bool ramp = false;
  std::string rampLabels[3];
  std::vector<Row> rows;
};

// The goals not at an exit (within half a metre: a routed agent's goal is its exit, moved to the
// nearest free cell of the map), which the exit's mark already shows.
std::vector<Vec2> goalsAwayFromExits(const Marks& marks) {
  std::vector<Vec2> away;
  for (const Vec2 goal : marks.goals) {
    const bool atExit = std::any_of(marks.exits.begin(), marks.exits.end(),
                                    [goal](Vec2 exit) { return absSq(exit - goal) < 0.25f; });
    if (!atExit) away.push_back(goal);
  }
  return away;
}

// A ramp's legend. (Built whole rather than assigned field by field: GCC 12 at -O3 warns
// falsely of overlapping copies when a short literal is assigned to a std::string.)
LegendContent rampLegend(std::string title, std::string low, std::string middle, std::string high) {
  return LegendContent{std::move(title), true, {std::move(low), std::move(middle), std::move(high)}, {}};
}

LegendContent legendContent(const StaticScene& scene, ColorBy colorBy) {
  LegendContent l;
  switch (colorBy) {
    case ColorBy::Speed:
      l = scene.commonMaxSpeed > 0.0f ? rampLegend("speed, m/s", "0", number(0.5 * scene.commonMaxSpeed),
                                                   number(scene.commonMaxSpeed))
                                      : rampLegend("speed / own max speed", "0", "0.5", "1");
      break;
    case ColorBy::Density:
      l = rampLegend("others within 2 radii", "0", "3", "6+");
      break;
    case ColorBy::Group:
      l = LegendContent{scene.profiles > 16 ? "profile (mod 16)" : "profile", false, {}, {}};
      for (const int k : scene.profileKeys)
        l.rows.push_back({Sign::Swatch, categoryColour(k), std::to_string(k)});
      break;
    case ColorBy::Behavior:
      l = LegendContent{"first behaviour", false, {}, {}};
      for (const int k : scene.behaviorKeys) {
        const std::string name = k == 0 ? "none" : k <= kBehaviorKindCount ? kBehaviorNames[k - 1] : "?";
        l.rows.push_back({Sign::Swatch, categoryColour(k), name});
      }
      break;
  }
  const Marks& m = scene.marks;
  if (!m.exits.empty()) l.rows.push_back({Sign::Exit, of(AnnotationPalette::kExit), "exit"});
  if (!goalsAwayFromExits(m).empty()) l.rows.push_back({Sign::Goal, of(AnnotationPalette::kGoal), "goal"});
  if (!m.areas.empty()) l.rows.push_back({Sign::Area, of(AnnotationPalette::kArea), "measurement area"});
  if (!m.lines.empty()) l.rows.push_back({Sign::Line, of(AnnotationPalette::kArea), "measurement line"});
  return l;
}

// The shape of a mark around pixel `p`, `r` pixels across half-way: a diamond for an exit, a
// cross for a goal, a square for a measurement area.
void sign(Shapes& s, Sign kind, Vec2 p, float r, float thickness, Colour c) {
  switch (kind) {
    case Sign::Swatch:
      s.rect(PixelRect{p.x - r, p.y - r, p.x + r, p.y + r}, c);
      break;
    case Sign::Exit: {
      const Vec2 corners[4] = {p + Vec2(0, -r), p + Vec2(r, 0), p + Vec2(0, r), p + Vec2(-r, 0)};
      for (int k = 0; k < 4; ++k) s.segment(corners[k], corners[(k + 1) % 4], thickness, c);
      break;
    }
    case Sign::Goal:
      s.segment(p + Vec2(-r, -r), p + Vec2(r, r), thickness, c);
      s.segment(p + Vec2(-r, r), p + Vec2(r, -r), thickness, c);
      break;
    case Sign::Line:
      s.segment(p + Vec2(-r, r), p + Vec2(r, -r), thickness, c);
      break;
    case Sign::Area: {
      const Vec2 corners[4] = {p + Vec2(-r, -r), p + Vec2(r, -r), p + Vec2(r, r), p + Vec2(-r, r)};
      for (int k = 0; k < 4; ++k) s.segment(corners[k], corners[(k + 1) % 4], thickness, c);
      break;
    }
  }
}

// The box round pixels [lo, hi] grown by `grow`, within the picture.
PixelBox around(Vec2 lo, Vec2 hi, float grow, int width, int height) {
  return PixelBox{std::clamp(static_cast<int>(std::floor(lo.x - grow)), 0, width),
                  std::clamp(static_cast<int>(std::floor(lo.y - grow)), 0, height),
                  std::clamp(static_cast<int>(std::ceil(hi.x + grow)) + 1, 0, width),
                  std::clamp(static_cast<int>(std::ceil(hi.y + grow)) + 1, 0, height)};
}

// The scene's marks, in pixels from `camera`; their boxes into `layout`.
void drawMarks(Shapes& s, const Camera& camera, int width, int height, const Marks& marks, int u,
               AnnotationLayout& layout) {
  const float thickness = static_cast<float>(u + 1);
  auto pixel = [&](Vec2 p) { return camera.toPixel(p, width, height); };
  auto outline = [&](const std::vector<Vec2>& points, bool closed) {
    Vec2 lo = pixel(points.front()), hi = lo;
    for (std::size_t k = 0; k + (closed ? 0 : 1) < points.size(); ++k) {
      const Vec2 a = pixel(points[k]), b = pixel(points[(k + 1) % points.size()]);
      s.segment(a, b, thickness, of(AnnotationPalette::kArea));
      lo = glm::min(lo, glm::min(a, b));
      hi = glm::max(hi, glm::max(a, b));
    }
    layout.marks.push_back(around(lo, hi, thickness, width, height));
  };
  for (const std::vector<Vec2>& area : marks.areas) {
    if (area.size() >= 2) outline(area, true);
  }
  for (const auto& line : marks.lines) outline({line[0], line[1]}, false);
  const float r = static_cast<float>(6 * u);
  for (const Vec2 goal : goalsAwayFromExits(marks)) {
    const Vec2 p = pixel(goal);
    sign(s, Sign::Goal, p, 0.6f * r, thickness, of(AnnotationPalette::kGoal));
    layout.marks.push_back(around(p, p, r, width, height));
  }
  for (const Vec2 exit : marks.exits) {
    const Vec2 p = pixel(exit);
    sign(s, Sign::Exit, p, r, thickness, of(AnnotationPalette::kExit));
    layout.marks.push_back(around(p, p, r + thickness, width, height));
  }
}

// The legend in the top right corner.
PixelBox drawLegend(Shapes& s, const LegendContent& l, int width, int u) {
  const float f = static_cast<float>(u);
  const float pad = 4 * f, lineHeight = kTextHeight * f, rowHeight = 12 * f, rampWidth = 110 * f;
  float contentWidth = textWidth(l.title, f);
  float contentHeight = lineHeight;
  if (l.ramp) {
    contentWidth = std::max(contentWidth, rampWidth);
    contentHeight += 3 * f + 7 * f + 2 * f + lineHeight;
  }
  for (const Row& row : l.rows) contentWidth = std::max(contentWidth, 14 * f + textWidth(row.label, f));
  contentHeight += static_cast<float>(l.rows.size()) * rowHeight;
  const auto panelWidth = static_cast<int>(contentWidth + 2 * pad);
  const auto panelHeight = static_cast<int>(contentHeight + 2 * pad);
  const int margin = 6 * u;
  const PixelBox panel{width - margin - panelWidth, margin, width - margin, margin + panelHeight};
  s.box(panel, of(AnnotationPalette::kPanel, 0.8f));
  const float x = static_cast<float>(panel.x0) + pad;
  float y = static_cast<float>(panel.y0) + pad;
  const Colour text = of(AnnotationPalette::kText);
  s.text(l.title, x, y, f, text);
  y += lineHeight;
  if (l.ramp) {
    y += 3 * f;
    for (int k = 0; k + 1 < Palette::kRampStops; ++k) {
      s.gradient(PixelRect{x + rampWidth * Palette::kRampAt[k], y, x + rampWidth * Palette::kRampAt[k + 1],
                           y + 7 * f},
                 of(Palette::kRamp[k]), of(Palette::kRamp[k + 1]));
    }
    y += 7 * f + 2 * f;
    const float mid = std::round(x + 0.5f * (rampWidth - textWidth(l.rampLabels[1], f)));
    s.text(l.rampLabels[0], x, y, f, text);
    s.text(l.rampLabels[1], mid, y, f, text);
    s.text(l.rampLabels[2], x + rampWidth - textWidth(l.rampLabels[2], f), y, f, text);
    y += lineHeight;
  }
  for (const Row& row : l.rows) {
    sign(s, row.sign, Vec2(x + 4 * f, y + 5 * f), 3.5f * f, f, row.colour);
    s.text(row.label, x + 14 * f, y + f, f, text);
    y += rowHeight;
  }
  return panel;
}

}  // namespace

double scaleBarMetres(float pixelsPerUnit, int width) {
  // A millionth more, so that a float zoom that lands a round length on the fifth keeps it.
  const double most = 0.2 * width / std::max(pixelsPerUnit, 1e-9f) * (1.0 + 1e-6);
  double power = std::pow(10.0, std::floor(std::log10(most)));
  for (;;) {
    for (const double step : {5.0, 2.0, 1.0}) {
      if (step * power <= most) return step * power;
    }
    power /= 10.0;
  }
}

int annotationScale(int height) {
  return height <= 540 ? 1 : 1 + (height - 540 + 359) / 360;
}

Annotator::Annotator() {
  program_ = link(kVertex, kFragment);
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(Vertex), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(Vertex),
                        reinterpret_cast<const void*>(offsetof(Vertex, c)));
  glBindVertexArray(0);
}

Annotator::~Annotator() {
  glDeleteVertexArrays(1, &vao_);
  glDeleteBuffers(1, &vbo_);
  glDeleteProgram(program_);
}

AnnotationLayout Annotator::draw(const Camera& camera, int width, int height, const StaticScene& scene,
                                 ColorBy colorBy, double time) {
  const int u = annotationScale(height);
  const float f = static_cast<float>(u);
  const int margin = 6 * u, pad = 4 * u;
  const int lineHeight = static_cast<int>(kTextHeight) * u;
  AnnotationLayout layout;
  Shapes s;
  drawMarks(s, camera, width, height, scene.marks, u, layout);
  layout.legend = drawLegend(s, legendContent(scene, colorBy), width, u);

  // The scale bar, bottom left: its label over a bar with ticks at its ends.
  layout.scaleMetres = scaleBarMetres(camera.pixelsPerUnit, width);
  const auto barPixels = static_cast<int>(std::lround(layout.scaleMetres * camera.pixelsPerUnit));
  const std::string scaleLabel = number(layout.scaleMetres) + " m";
  const int scaleWidth = std::max(barPixels, static_cast<int>(textWidth(scaleLabel, f))) + 2 * pad;
  const int scaleHeight = lineHeight + 2 * u + 4 * u + 2 * pad;
  layout.scale = PixelBox{margin, height - margin - scaleHeight, margin + scaleWidth, height - margin};
  s.box(layout.scale, of(AnnotationPalette::kPanel, 0.8f));
  const int barTop = layout.scale.y1 - pad - 2 * u;
  layout.bar = PixelBox{layout.scale.x0 + pad, barTop, layout.scale.x0 + pad + barPixels, barTop + 2 * u};
  const Colour bar = of(AnnotationPalette::kScaleBar);
  s.box(layout.bar, bar);
  s.box(PixelBox{layout.bar.x0, barTop - 4 * u, layout.bar.x0 + u, barTop}, bar);
  s.box(PixelBox{layout.bar.x1 - u, barTop - 4 * u, layout.bar.x1, barTop}, bar);
  s.text(scaleLabel, static_cast<float>(layout.scale.x0 + pad), static_cast<float>(layout.scale.y0 + pad), f,
         of(AnnotationPalette::kText));

  // The simulated time, bottom right.
  char clock[48];
  std::snprintf(clock, sizeof(clock), "t = %.1f s", time);
  const int clockWidth = static_cast<int>(textWidth(clock, f)) + 2 * pad;
  layout.clock = PixelBox{width - margin - clockWidth, height - margin - lineHeight - 2 * pad, width - margin,
                          height - margin};
  s.box(layout.clock, of(AnnotationPalette::kPanel, 0.8f));
  s.text(clock, static_cast<float>(layout.clock.x0 + pad), static_cast<float>(layout.clock.y0 + pad), f,
         of(AnnotationPalette::kText));

  glViewport(0, 0, width, height);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glUseProgram(program_);
  glUniform2f(glGetUniformLocation(program_, "size"), static_cast<float>(width), static_cast<float>(height));
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.vertices.size() * sizeof(Vertex)),
               s.vertices.data(), GL_STREAM_DRAW);
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(s.vertices.size()));
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  return layout;
}

}  // namespace crowd::viewer
