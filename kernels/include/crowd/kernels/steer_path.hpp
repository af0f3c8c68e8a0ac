// Path following (Reynolds 1999), as the classic description has it: predict where the agent
// will be lookAhead further along its velocity; find the normal point of that prediction on each
// segment, a normal point outside its segment being replaced by the segment's end point; keep the
// nearest; if it is farther than the path radius from the prediction, seek a point a little
// further along the path, otherwise keep going. Where the nearest normal point is a segment's end
// (the prediction has run past a corner), "further along" is along the next segment, as the
// classic description turns the corner, not on past it. Only a window of segments around the
// agent's current one is searched (the previous one, and ahead far enough to cover the
// prediction on a densely sampled path), so a long path costs O(1) per step; an agent that has
// no current segment yet searches them all once.
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
  Vec2 normal;     ///< The nearest normal point.
  Vec2 target;     ///< A little further along the path from it (never past an open path's end).
  Vec2 direction;  ///< The way the path runs at the target (unit).
  float distSq;    ///< Squared distance from the prediction to the normal point.
  int segment;
  bool atEnd;  ///< The target is an open path's last point.
};

/// How many segments past the current one the window may reach on a densely sampled path.
inline constexpr int kPathWindowAhead = 64;

/// The last segment of the window that starts at `current`: at least two ahead, and on until the
/// segments past the current one cover `reach` (within kPathWindowAhead, and short of the whole
/// of a loop).
CROWD_HD inline int windowEnd(const PathView& paths, int path, int current, float reach) {
  const int segments = paths.segments(path);
  const bool loop = paths.loop[path] != 0;
  const int most =
      loop ? current + (segments - 2 < kPathWindowAhead ? segments - 2 : kPathWindowAhead)
           : (current + kPathWindowAhead < segments - 1 ? current + kPathWindowAhead : segments - 1);
  int last = current + 2 < most ? current + 2 : most;
  float covered = 0.0f;
  for (int i = current + 1; i <= last; ++i)
    covered += length(paths.point(path, i + 1) - paths.point(path, i));
  while (covered < reach && last < most) {
    ++last;
    covered += length(paths.point(path, last + 1) - paths.point(path, last));
  }
  return last;
}

/// Segments searched around `current`: the previous one, and ahead as windowEnd says for a
/// prediction `reach` away; all when current < 0; with `only`, just `current` (a route, whose
/// segment is chosen by line of sight: steer_route.hpp).
CROWD_HD inline PathAim aimAlongPath(const PathView& paths, int path, int current, Vec2 predicted,
                                     float ahead, bool only = false, float reach = 0.0f) {
  const int segments = paths.segments(path);
  const bool loop = paths.loop[path] != 0;
  int first = 0;
  int last = segments - 1;
  if (only && current >= 0) {
    first = last = current;
  } else if (current >= 0) {
    first = loop || current > 0 ? current - 1 : 0;
    last = windowEnd(paths, path, current, reach);
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
  const bool finalSegment = !loop && best.segment == segments - 1;
  // Past the segment's end the aim turns the corner: along the next segment from the end point.
  const bool turn = best.normal == b && !finalSegment;
  best.direction = towards(turn ? paths.point(path, best.segment + 2) - b : b - a, 1.0f);
  best.target = best.normal + best.direction * ahead;
  best.atEnd = false;
  // On an open path's last segment the target stops at the end point (where the agent arrives).
  if (finalSegment && dot(b - best.target, b - a) <= 0.0f) {
    best.target = b;
    best.atEnd = true;
  }
  return best;
}

/// Whether an agent moving at `velocity` heads against the path where it aims (or is at rest).
CROWD_HD inline bool headingBack(const PathAim& aim, Vec2 velocity) {
  return !(dot(velocity, aim.direction) > 0.0f);
}

/// The path-following force: seek the aim's target when the prediction strays farther than
/// `radius` from the path (arrive, on an open path's end); inside it, only keep cruising along
/// the current heading at `speed`, so an agent slowed by its neighbours picks up speed again. An
/// agent at rest, or heading back along the path (it overshot a corner), seeks the target too.
CROWD_HD inline Vec2 followForce(const PathAim& aim, Vec2 position, Vec2 velocity, float radius, float speed,
                                 float slowingRadius) {
  if (aim.atEnd) return arriveForce(position, velocity, aim.target, speed, slowingRadius);
  if (aim.distSq > radius * radius || headingBack(aim, velocity)) {
    return seekForce(position, velocity, aim.target, speed);
  }
  return towards(velocity, speed) - velocity;
}

/// Where the agent will be `lookAhead` further along its velocity (where it is, at rest).
CROWD_HD inline Vec2 predictedPosition(Vec2 position, Vec2 velocity, float lookAhead) {
  return position + towards(velocity, lookAhead);
}

/// Where a follower on segment `current` (-1: none yet) aims. An agent heading back along the
/// path predicts itself behind it, and the point a little further on from there is still behind
/// it: such an agent aims from `lookAhead` ahead along the path instead, and turns round.
CROWD_HD inline PathAim aimOfFollower(const PathView& paths, int path, int current, Vec2 position,
                                      Vec2 velocity, float lookAhead, bool route) {
  const float ahead = 0.5f * lookAhead;
  PathAim aim = aimAlongPath(paths, path, current, predictedPosition(position, velocity, lookAhead), ahead,
                             route, lookAhead);
  if (!headingBack(aim, velocity) || aim.atEnd) return aim;
  // The window reaches from behind the agent (the backward prediction's segment) to ahead of it.
  return aimAlongPath(paths, path, aim.segment, position + aim.direction * lookAhead, ahead, route,
                      2.0f * lookAhead);
}

}  // namespace crowd
