// The obstacles as ORCA and the detection box query them: every polygon of an ObstacleSet as
// RVO2-linked directed edges (kernels/obstacle_edge.hpp), with a uniform grid over the edges for
// range queries. Kept up to date with the set by update(), which indexes only the polygons added
// since; the simulator hands the edges and the grid to the step (kernels/static_world.hpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include <crowd/kernels/obstacle_edge.hpp>
#include <crowd/kernels/uniform_grid.hpp>
#include <crowd/kernels/vec2.hpp>
#include <crowd/obstacles.hpp>

namespace crowd {

class ObstacleIndex {
 public:
  /// Links the polygons `obstacles` gained since the last call (each vertex starts the edge to
  /// the next one, as in RVO2; a circle's polygon's edges name the circle).
  void update(const ObstacleSet& obstacles);
  /// Makes the edge grid ready for queries of radius up to `maxRange`. Cheap when nothing
  /// changed; rebuilds after update() added edges or when the range outgrows the cells.
  void prepareGrid(float maxRange);

  const std::vector<ObstacleEdge>& edges() const { return edges_; }
  const GridGeometry& grid() const { return grid_; }
  /// Edge indices listed per cell, CSR style: cell c holds cellEdges()[cellStart()[c] .. cellStart()[c+1]).
  const std::vector<int>& cellStart() const { return cellStart_; }
  const std::vector<int>& cellEdges() const { return cellEdges_; }
  std::size_t memoryBytes() const;

 private:
  std::vector<ObstacleEdge> edges_;
  std::size_t indexed_ = 0;      // Polygons of the set linked so far.
  Vec2 lo_{INFINITY, INFINITY};  // The vertices' bounding box.
  Vec2 hi_{-INFINITY, -INFINITY};
  GridGeometry grid_{};
  bool gridValid_ = false;
  std::vector<int> cellStart_;
  std::vector<int> cellEdges_;
};

}  // namespace crowd
