// What only a planar world holds besides its agents: the obstacles (and their index for the
// step's queries), the paths agents follow with their reference lines for the Frenet planner,
// and the navigator that routes agents through a grid map. The planar Simulator's pointer to it
// keeps all of this out of the public header.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <crowd/kernels/reference_point.hpp>
#include <crowd/kernels/static_world.hpp>
#include <crowd/obstacles.hpp>

#include "geometry/obstacle_index.hpp"
#include "nav/navigator.hpp"
#include "nav/reference_line.hpp"

namespace crowd {

/// Points a static-world array at a host vector.
template <class T>
void setArray(const T*& data, std::size_t& count, const std::vector<T>& values) {
  data = values.data();
  count = values.size();
}

struct PlanarWorld {
  ObstacleSet obstacles;
  ObstacleIndex obstacleIndex;
  // Paths, CSR: path p's points are pathPoints[pathStart[p] .. pathStart[p + 1]).
  std::vector<Vec2> pathPoints;
  std::vector<int> pathStart{0};
  std::vector<std::uint8_t> pathLoop;
  // The reference lines made so far, one after another; per path, where its line lies (none:
  // begin == end) and whether one was tried (a path can be too short for one).
  std::vector<ReferencePoint> linePoints;
  std::vector<int> lineBegin;
  std::vector<int> lineEnd;
  std::vector<std::uint8_t> lineTried;
  // Speed zones, CSR like the paths (kernels/speed_zone.hpp).
  std::vector<Vec2> zonePoints;
  std::vector<int> zoneStart{0};
  std::vector<float> zoneFactor;
  std::unique_ptr<Navigator> navigator;

  int pathCount() const { return static_cast<int>(pathStart.size()) - 1; }

  /// The static arrays for a step whose obstacle queries reach `maxObstacleRange` (the edge
  /// index brought up to date and its grid readied).
  StaticWorldView staticWorld(float maxObstacleRange) {
    if (!obstacles.empty()) {
      obstacleIndex.update(obstacles);
      obstacleIndex.prepareGrid(maxObstacleRange);
    }
    StaticWorldView world;
    setArray(world.edges, world.edgesCount, obstacleIndex.edges());
    setArray(world.edgeCellStart, world.edgeCellStartCount, obstacleIndex.cellStart());
    setArray(world.cellEdges, world.cellEdgesCount, obstacleIndex.cellEdges());
    setArray(world.circles, world.circlesCount, obstacles.circles());
    setArray(world.pathPoints, world.pathPointsCount, pathPoints);
    setArray(world.pathStart, world.pathStartCount, pathStart);
    setArray(world.pathLoop, world.pathLoopCount, pathLoop);
    setArray(world.linePoints, world.linePointsCount, linePoints);
    setArray(world.lineBegin, world.lineBeginCount, lineBegin);
    setArray(world.lineEnd, world.lineEndCount, lineEnd);
    setArray(world.zonePoints, world.zonePointsCount, zonePoints);
    setArray(world.zoneStart, world.zoneStartCount, zoneStart);
    setArray(world.zoneFactor, world.zoneFactorCount, zoneFactor);
    world.edgeGrid = obstacleIndex.grid();
    world.lineSpacing = kReferenceSpacing;
    return world;
  }

  std::size_t memoryBytes() const {
    return obstacles.memoryBytes() + obstacleIndex.memoryBytes() + pathPoints.capacity() * sizeof(Vec2) +
           linePoints.capacity() * sizeof(ReferencePoint);
  }
};

}  // namespace crowd
