// Reference lines from polylines (crowd/reference_line.hpp).
#include <crowd/reference_line.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <glm/geometric.hpp>

namespace crowd {
namespace {

// Catmull-Rom (uniform) point between p1 and p2 at t in [0, 1], p0 and p3 the neighbours.
glm::dvec2 catmullRom(glm::dvec2 p0, glm::dvec2 p1, glm::dvec2 p2, glm::dvec2 p3, double t) {
  const double t2 = t * t, t3 = t2 * t;
  return 0.5 * ((2.0 * p1) + (p2 - p0) * t + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2 +
                (3.0 * p1 - p0 - 3.0 * p2 + p3) * t3);
}

}  // namespace

std::vector<ReferencePoint> buildReferenceLine(std::span<const Vec2> polyline, double spacing) {
  if (polyline.size() < 2) throw std::invalid_argument("a reference line needs at least 2 points");
  if (!(spacing > 0.0) || !std::isfinite(spacing)) throw std::invalid_argument("the spacing must be > 0");
  std::vector<glm::dvec2> knots;
  for (std::size_t i = 0; i < polyline.size(); ++i) {
    const glm::dvec2 p(polyline[i]);
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) throw std::invalid_argument("point " + std::to_string(i) + " is not finite");
    if (!knots.empty() && knots.back() == p) {
      throw std::invalid_argument("points " + std::to_string(i - 1) + " and " + std::to_string(i) + " are the same");
    }
    knots.push_back(p);
  }
  // The spline, finely: the end points repeated as their own neighbours.
  std::vector<glm::dvec2> fine;
  std::vector<double> along;
  const std::size_t n = knots.size();
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const glm::dvec2 p0 = knots[k == 0 ? 0 : k - 1], p1 = knots[k], p2 = knots[k + 1];
    const glm::dvec2 p3 = knots[k + 2 < n ? k + 2 : n - 1];
    const int pieces = std::max(8, static_cast<int>(std::ceil(4.0 * glm::length(p2 - p1) / spacing)));
    for (int j = (k == 0 ? 0 : 1); j <= pieces; ++j) {
      const glm::dvec2 p = catmullRom(p0, p1, p2, p3, static_cast<double>(j) / pieces);
      along.push_back(fine.empty() ? 0.0 : along.back() + glm::length(p - fine.back()));
      fine.push_back(p);
    }
  }
  // Even samples by arc length, then heading and curvature by central differences.
  const double total = along.back();
  if (total < spacing) throw std::invalid_argument("the line is shorter than one spacing");
  const auto count = static_cast<std::size_t>(std::floor(total / spacing)) + 1;
  std::vector<glm::dvec2> samples(count);
  std::size_t j = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double s = static_cast<double>(i) * spacing;
    while (j + 2 < along.size() && along[j + 1] < s) ++j;
    const double t = (s - along[j]) / std::max(along[j + 1] - along[j], 1e-12);
    samples[i] = fine[j] + (fine[j + 1] - fine[j]) * std::clamp(t, 0.0, 1.0);
  }
  std::vector<ReferencePoint> line(samples.size());
  const std::size_t m = samples.size();
  for (std::size_t i = 0; i < m; ++i) {
    const glm::dvec2 before = samples[i == 0 ? 0 : i - 1], after = samples[i + 1 < m ? i + 1 : m - 1];
    line[i].s = static_cast<double>(i) * spacing;
    line[i].x = samples[i].x;
    line[i].y = samples[i].y;
    line[i].theta = std::atan2(after.y - before.y, after.x - before.x);
  }
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t a = i == 0 ? 0 : i - 1, b = i + 1 < m ? i + 1 : m - 1;
    line[i].kappa = b > a ? wrapAngle(line[b].theta - line[a].theta) / (static_cast<double>(b - a) * spacing) : 0.0;
  }
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t a = i == 0 ? 0 : i - 1, b = i + 1 < m ? i + 1 : m - 1;
    line[i].dkappa = b > a ? (line[b].kappa - line[a].kappa) / (static_cast<double>(b - a) * spacing) : 0.0;
  }
  return line;
}

}  // namespace crowd
