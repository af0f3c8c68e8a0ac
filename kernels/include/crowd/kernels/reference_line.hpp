// A reference line for the Frenet planner as the per-agent code reads it: samples every
// `spacing` of arc length, each with its heading and curvature (built on the host by
// buildReferenceLine, crowd/reference_line.hpp). Lookups by arc length are O(1); the projection
// of a point searches a window of samples around a hint, so following an agent costs O(1).
#pragma once

#include <cmath>

#include "config.hpp"
#include "frenet_frame.hpp"
#include "vec2.hpp"

namespace crowd {

struct ReferenceLineView {
  const ReferencePoint* points;  ///< points[i].s == i * spacing.
  int count;                     ///< At least 2.
  double spacing;

  CROWD_HD double length() const { return points[count - 1].s; }
};

/// The paths' reference lines, all sampled every `spacing`: path p's samples are
/// points[begin[p] .. end[p]); none (begin == end) for a path no planner uses, or one too short.
struct ReferenceLines {
  const ReferencePoint* points;
  const int* begin;
  const int* end;
  int count;  ///< Paths.
  double spacing;

  CROWD_HD ReferenceLineView line(int p) const {
    return ReferenceLineView{points + begin[p], end[p] - begin[p], spacing};
  }
  CROWD_HD bool has(int p) const { return p >= 0 && p < count && end[p] - begin[p] >= 2; }
};

/// The line's point at arc length `s` (clamped to the line), interpolated between samples.
CROWD_HD inline ReferencePoint referenceAt(const ReferenceLineView& line, double s) {
  s = s < 0.0 ? 0.0 : (s > line.length() ? line.length() : s);
  int i = static_cast<int>(s / line.spacing);
  i = i > line.count - 2 ? line.count - 2 : i;
  const ReferencePoint& a = line.points[i];
  const ReferencePoint& b = line.points[i + 1];
  const double t = (s - a.s) / line.spacing;
  ReferencePoint r;
  r.s = s;
  r.x = a.x + (b.x - a.x) * t;
  r.y = a.y + (b.y - a.y) * t;
  r.theta = wrapAngle(a.theta + wrapAngle(b.theta - a.theta) * t);
  r.kappa = a.kappa + (b.kappa - a.kappa) * t;
  r.dkappa = a.dkappa + (b.dkappa - a.dkappa) * t;
  return r;
}

/// The arc length of the point of the line nearest to (x, y): the nearest sample within
/// `window` samples of `hint` (all of them when hint < 0), then the foot of the perpendicular on
/// the chord before or after it.
CROWD_HD inline double projectOnto(const ReferenceLineView& line, double x, double y, int hint, int window) {
  int first = 0, last = line.count - 1;
  if (hint >= 0) {
    hint = hint < line.count - 1 ? hint : line.count - 1;
    first = hint - window < 0 ? 0 : hint - window;
    last = hint + window > line.count - 1 ? line.count - 1 : hint + window;
  }
  int best = first;
  double bestSq = INFINITY;
  for (int i = first; i <= last; ++i) {
    const double dx = x - line.points[i].x, dy = y - line.points[i].y;
    const double sq = dx * dx + dy * dy;
    if (sq < bestSq) {
      bestSq = sq;
      best = i;
    }
  }
  double s = line.points[best].s;
  double nearest = bestSq;
  for (int j = best - 1; j <= best; ++j) {
    if (j < 0 || j + 1 >= line.count) continue;
    const ReferencePoint& a = line.points[j];
    const ReferencePoint& b = line.points[j + 1];
    const double ex = b.x - a.x, ey = b.y - a.y;
    const double lenSq = ex * ex + ey * ey;
    if (!(lenSq > 0.0)) continue;
    double t = ((x - a.x) * ex + (y - a.y) * ey) / lenSq;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    const double fx = a.x + ex * t - x, fy = a.y + ey * t - y;
    if (fx * fx + fy * fy <= nearest) {
      nearest = fx * fx + fy * fy;
      s = a.s + t * line.spacing;
    }
  }
  return s;
}

}  // namespace crowd
