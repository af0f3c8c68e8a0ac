// The 2D view: which world point is at the picture's centre and how many pixels a world unit
// spans. Pixels count from the top left, world y points up.
#pragma once

#include <algorithm>
#include <cmath>

#include <crowd/kernels/vec2.hpp>

namespace crowd::viewer {

struct Camera {
  Vec2 center{0.0f, 0.0f};
  float pixelsPerUnit = 10.0f;

  /// Shows the box [lo, hi] whole in a `width` x `height` picture, with `margin` of it spare.
  void fit(Vec2 lo, Vec2 hi, int width, int height, float margin = 0.05f) {
    center = (lo + hi) * 0.5f;
    const float w = std::max(hi.x - lo.x, 1e-3f) * (1.0f + 2.0f * margin);
    const float h = std::max(hi.y - lo.y, 1e-3f) * (1.0f + 2.0f * margin);
    pixelsPerUnit = std::min(static_cast<float>(width) / w, static_cast<float>(height) / h);
  }
  /// The world point under pixel (px, py).
  Vec2 toWorld(float px, float py, int width, int height) const {
    return Vec2(center.x + (px - 0.5f * static_cast<float>(width)) / pixelsPerUnit,
                center.y - (py - 0.5f * static_cast<float>(height)) / pixelsPerUnit);
  }
  /// The pixel that shows world point p.
  Vec2 toPixel(Vec2 p, int width, int height) const {
    return Vec2(0.5f * static_cast<float>(width) + (p.x - center.x) * pixelsPerUnit,
                0.5f * static_cast<float>(height) - (p.y - center.y) * pixelsPerUnit);
  }
  /// Zooms by `factor`, keeping the world point under pixel (px, py) where it is.
  void zoomAt(float px, float py, float factor, int width, int height) {
    const Vec2 before = toWorld(px, py, width, height);
    pixelsPerUnit = std::clamp(pixelsPerUnit * factor, 1e-4f, 1e5f);
    const Vec2 after = toWorld(px, py, width, height);
    center += before - after;
  }
  /// Moves the picture by (dx, dy) pixels (a drag).
  void pan(float dx, float dy) {
    center.x -= dx / pixelsPerUnit;
    center.y += dy / pixelsPerUnit;
  }
};

}  // namespace crowd::viewer
