// Path following (Reynolds 1999), as the classic description has it: predict where the agent
// will be lookAhead further along its velocity; find the normal point of that prediction on each
// segment, a normal point outside its segment being replaced by the segment's end point; keep the
// nearest; if it is farther than the path radius from the prediction, seek a point a little
// further along the path, otherwise keep going. Only a window of segments around the agent's
// current one is searched (the previous one to two ahead), so a long path costs O(1) per step;
// an agent that has no current segment yet searches them all once.
#pragma once

#include "config.hpp"
#include "steer_seek.hpp"
#include "steering_terms.hpp"
#include "vec2.hpp"

namespace crowd {

/// The normal point of `p` on segment a-b, or b when it falls outside the segment.
CROWD_HD inline Vec2 normalPoint(Vec2 a, Vec2 b, Vec2 p) {
  const Vec2 ab = b - a;
  const float lenSq = absSq(ab);
  if (!(lenSq > 0.0f)) return b;
  const float t = dot(p - a, ab) / lenSq;
  if (t < 0.0f || t > 1.0f) return b;
  return a + ab * t;
}

/// Where a path follower aims and which segment it is on.
struct PathAim {
  Vec2 normal;   ///< The nearest normal point.
  Vec2 target;   ///< A little further along the path from it (never past an open path's end).
  float distSq;  ///< Squared distance from the prediction to the normal point.
  int segment;
  bool atEnd;    ///< The target is an open path's last point.
};

/// Segments searched around `current`: the previous one to two ahead, or all when current < 0;
/// with `only`, just `current` (a route, whose segment is chosen by line of sight: steer_route.hpp).
CROWD_HD inline PathAim aimAlongPath(const PathView& paths, int path, int current, Vec2 predicted, float ahead,
                                     bool only = false) {
  const int segments = paths.segments(path);
  const bool loop = paths.loop[path] != 0;
  int first = 0;
  int last = segments - 1;
  if (only && current >= 0) {
    first = last = current;
  } else if (current >= 0) {
    first = current - 1;
    last = current + 2;
    if (!loop) {
      first = first < 0 ? 0 : first;
      last = last > segments - 1 ? segments - 1 : last;
    }
  }
  PathAim best{};
  best.distSq = INFINITY;
  best.segment = -1;
  for (int i = first; i <= last; ++i) {
    const int s = ((i % segments) + segments) % segments;
    const Vec2 normal = normalPoint(paths.point(path, s), paths.point(path, s + 1), predicted);
    const float distSq = absSq(predicted - normal);
    // A tie goes to the later segment: past a corner the earlier segment's normal point is its
    // end point, which is where the next segment starts, and the agent should turn onto that one.
    if (distSq <= best.distSq) {
      best.distSq = distSq;
      best.normal = normal;
      best.segment = s;
    }
  }
  const Vec2 a = paths.point(path, best.segment);
  const Vec2 b = paths.point(path, best.segment + 1);
  const Vec2 along = towards(b - a, ahead);
  best.target = best.normal + along;
  best.atEnd = false;
  // On an open path's last segment the target stops at the end point (where the agent arrives).
  if (!loop && best.segment == segments - 1 && dot(b - best.target, b - a) <= 0.0f) {
    best.target = b;
    best.atEnd = true;
  }
  return best;
}

/// The path-following force: seek the aim's target when the prediction strays farther than
/// `radius` from the path (arrive, on an open path's end); inside it, only keep cruising along
/// the current heading at `speed`, so an agent slowed by its neighbours picks up speed again. An
/// agent at rest, or heading back along the path (it overshot a corner), seeks the target too.
CROWD_HD inline Vec2 followForce(const PathAim& aim, Vec2 position, Vec2 velocity, float radius, float speed,
                                 float slowingRadius) {
  if (aim.atEnd) return arriveForce(position, velocity, aim.target, speed, slowingRadius);
  if (aim.distSq > radius * radius || !(dot(velocity, aim.target - aim.normal) > 0.0f)) {
    return seekForce(position, velocity, aim.target, speed);
  }
  return towards(velocity, speed) - velocity;
}

/// Where the agent will be `lookAhead` further along its velocity (where it is, at rest).
CROWD_HD inline Vec2 predictedPosition(Vec2 position, Vec2 velocity, float lookAhead) {
  return position + towards(velocity, lookAhead);
}

}  // namespace crowd
