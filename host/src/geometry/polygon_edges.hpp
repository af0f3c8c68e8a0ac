// Whether a polygon's edges touch one another, for checkPolygon. Two edges touch when the closed
// segments share a point; neighbouring edges share their vertex, which does not count.
//
// A sweep line decides whether any pair touches in O(n log n); when one does, a grid search
// names the first such pair in the order a test of every pair would meet them. Both test pairs
// with the same predicate (orientation signs in double precision), so the answer is the one
// testing all n^2 / 2 pairs gives, at a fraction of the cost.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// Which side of the line a -> b the point c lies on, in double precision: +1 left, -1 right,
/// 0 on the line.
int orientation(Vec2 a, Vec2 b, Vec2 c);

/// Two edges of a polygon, by number (edge i runs from vertex i to vertex i + 1), first < second.
struct EdgePair {
  std::size_t first;
  std::size_t second;
};

/// The touching pair of non-neighbouring edges with the smallest first edge, and of those the
/// smallest second; none when the polygon does not touch itself. Needs 3 or more vertices, no
/// two consecutive ones equal.
std::optional<EdgePair> firstTouchingEdges(std::span<const Vec2> polygon);

}  // namespace crowd
