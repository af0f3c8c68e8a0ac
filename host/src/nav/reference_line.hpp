// Building a reference line for the Frenet planner from a polyline (a lane's centre, a route):
// a centripetal Catmull-Rom spline through its points (so a lane bends instead of kinking, and a
// short segment among long ones makes no cusp), resampled at even arc-length spacing with heading,
// curvature and the curvature's derivative at each sample (kernels/reference_line.hpp reads them).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <crowd/kernels/reference_line.hpp>
#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// The spacing of the reference lines the simulator builds for its paths (world units).
inline constexpr double kReferenceSpacing = 0.25;

/// The most samples a reference line may have: 262 km at kReferenceSpacing, far beyond any
/// walk, and about 100 MiB while it is built (four spline points a sample, 24 bytes each).
inline constexpr std::size_t kMaxReferenceSamples = std::size_t{1} << 20;

/// Samples every `spacing` (> 0) along the spline through `polyline` (at least 2 finite points,
/// no two consecutive ones equal, at least `spacing` long), the last at the largest multiple of
/// `spacing` within the spline (so at most `spacing` short of its end). Throws
/// std::invalid_argument otherwise, and InputError, before allocating, for a line of more than
/// kMaxReferenceSamples samples (estimated from its points: the spline is no shorter than they
/// are apart), with the estimate.
std::vector<ReferencePoint> buildReferenceLine(std::span<const Vec2> polyline, double spacing);

/// A view of `points` (built with `spacing`) for the per-agent code.
inline ReferenceLineView referenceLineView(const std::vector<ReferencePoint>& points, double spacing) {
  return ReferenceLineView{points.data(), static_cast<int>(points.size()), spacing};
}

}  // namespace crowd
