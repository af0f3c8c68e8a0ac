// Map and request builders shared by the route planner's tests.
#pragma once

#include <random>
#include <span>
#include <vector>

#include <crowd/route_planner.hpp>

namespace crowd::test {

inline GridMap placedMap(GridMap map, float cellSize, Vec2 origin = Vec2(0.0f, 0.0f)) {
  map.setPlacement(GridPlacement{cellSize, origin});
  return map;
}

inline GridMap randomMap(std::mt19937& rng, int width, int height, double density) {
  GridMap map(width, height);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) map.setPassable(GridCell{x, y}, unit(rng) >= density);
  }
  return map;
}

inline double polylineLength(std::span<const Vec2> route) {
  double sum = 0.0;
  for (std::size_t k = 1; k < route.size(); ++k) sum += length(route[k] - route[k - 1]);
  return sum;
}

inline RouteRequest request(Vec2 start, std::vector<Vec2> goals, float radius) {
  return RouteRequest{start, std::move(goals), radius};
}

}  // namespace crowd::test
