// The static world a step reads besides the agents (a planar world's obstacles, circles, paths,
// the planners' reference lines and the speed zones), declared once as a list of arrays. The host fills the
// view from its own storage, the CUDA executor uploads every array and makes the same view over device
// memory, and the byte counts loop over the list: a new static input is one line here, where the
// host fills it, and its use.
#pragma once

#include <cstddef>
#include <cstdint>

#include "circle_obstacle.hpp"
#include "config.hpp"
#include "frenet_frame.hpp"
#include "obstacle_edge.hpp"
#include "obstacle_query.hpp"
#include "reference_line.hpp"
#include "speed_zone.hpp"
#include "steering_terms.hpp"
#include "uniform_grid.hpp"
#include "vec2.hpp"

namespace crowd {

// CROWD_STATIC_WORLD_ARRAYS(ARRAY) expands ARRAY(Type, name) once per array.
#define CROWD_STATIC_WORLD_ARRAYS(ARRAY)                                                                    \
  ARRAY(ObstacleEdge, edges) /* Obstacle edges, RVO2-linked (obstacle_edge.hpp). */                         \
  ARRAY(int, edgeCellStart)  /* The edge grid, CSR: cell c lists cellEdges[edgeCellStart[c]..]. */          \
  ARRAY(int, cellEdges)                                                                                     \
  ARRAY(CircleObstacle, circles) /* Discs, for the detection box (indexed by ObstacleEdge::circle). */      \
  ARRAY(Vec2, pathPoints)        /* Paths, CSR: path p's points from pathStart[p] to pathStart[p+1]. */     \
  ARRAY(int, pathStart)                                                                                     \
  ARRAY(std::uint8_t, pathLoop)     /* Per path: closed. */                                                 \
  ARRAY(ReferencePoint, linePoints) /* The planners' reference lines, one after another. */                 \
  ARRAY(int, lineBegin)             /* Per path: where its line lies in linePoints (none: begin == end). */ \
  ARRAY(int, lineEnd)                                                                                       \
  ARRAY(Vec2, zonePoints) /* Speed zones, CSR: zone z's polygon from zoneStart[z] to zoneStart[z+1]. */     \
  ARRAY(int, zoneStart)                                                                                     \
  ARRAY(float, zoneFactor) /* Per zone: what it multiplies the desired speed by. */

/// Every static array as a pointer and a count (host or device memory alike), plus the few
/// values that go with them.
struct StaticWorldView {
#define CROWD_STATIC_WORLD_FIELD(Type, name) \
  const Type* name = nullptr;                \
  std::size_t name##Count = 0;
  CROWD_STATIC_WORLD_ARRAYS(CROWD_STATIC_WORLD_FIELD)
#undef CROWD_STATIC_WORLD_FIELD
  GridGeometry edgeGrid{};   ///< The edge grid's cells (meaningful when there are edges).
  double lineSpacing = 0.0;  ///< Arc length between reference-line samples.

  /// Bytes over every array.
  std::size_t bytes() const {
    std::size_t total = 0;
#define CROWD_STATIC_WORLD_BYTES(Type, name) total += name##Count * sizeof(Type);
    CROWD_STATIC_WORLD_ARRAYS(CROWD_STATIC_WORLD_BYTES)
#undef CROWD_STATIC_WORLD_BYTES
    return total;
  }

  /// The obstacle edges and their grid, as the ORCA and avoidance code query them.
  CROWD_HD ObstacleView obstacles() const {
    return ObstacleView{edges, static_cast<int>(edgesCount), edgeGrid, edgeCellStart, cellEdges};
  }
  CROWD_HD PathView paths() const {
    return PathView{pathPoints, pathStart, pathLoop,
                    pathStartCount > 0 ? static_cast<int>(pathStartCount) - 1 : 0};
  }
  CROWD_HD SpeedZoneView speedZones() const {
    return SpeedZoneView{zonePoints, zoneStart, zoneFactor, static_cast<int>(zoneFactorCount)};
  }
  CROWD_HD ReferenceLines lines() const {
    return ReferenceLines{linePoints, lineBegin, lineEnd, static_cast<int>(lineBeginCount), lineSpacing};
  }
};

}  // namespace crowd
