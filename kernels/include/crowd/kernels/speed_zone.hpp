// Speed zones: areas that scale the desired speed of whoever stands in them, as RiMEA models
// stairs where a world has no floors (and as slow ground, queues at a ticket gate, a moving
// walkway's faster lane). Polygons in CSR form: zone z's vertices are
// points[start[z] .. start[z + 1]), its factor factor[z]; an agent takes the factor of the first
// zone (in the order they were added) that holds its position.
#pragma once

#include "config.hpp"
#include "vec2.hpp"

namespace crowd {

struct SpeedZoneView {
  const Vec2* points;
  const int* start;
  const float* factor;
  int count;
};

/// Whether `p` lies inside the polygon points[begin .. end) by the even-odd rule (a point on an
/// edge may fall either way; zones meet at such edges, and either neighbour's factor will do).
CROWD_HD inline bool insidePolygon(const Vec2* points, int begin, int end, Vec2 p) {
  bool inside = false;
  for (int i = begin, j = end - 1; i < end; j = i++) {
    const Vec2 a = points[i];
    const Vec2 b = points[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/// The desired-speed factor at `p`: the first zone holding it, 1 outside every zone.
CROWD_HD inline float speedFactorAt(const SpeedZoneView& zones, Vec2 p) {
  for (int z = 0; z < zones.count; ++z) {
    if (insidePolygon(zones.points, zones.start[z], zones.start[z + 1], p)) return zones.factor[z];
  }
  return 1.0f;
}

}  // namespace crowd
