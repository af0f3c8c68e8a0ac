// Reference lines from polylines (crowd/reference_line.hpp).
#include "nav/reference_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <glm/geometric.hpp>

#include <crowd/errors.hpp>

namespace crowd {
namespace {

// Centripetal Catmull-Rom (alpha = 0.5; Barry and Goldman's pyramid) point between p1 and p2, at
// fraction u in [0, 1] of that segment's parameter, p0 and p3 the neighbours. Each knot interval
// is the square root of its chord, so a short segment next to long ones gets a short parameter
// span: unlike the uniform spline it never overshoots into a cusp or a loop within a segment
// (Yuksel, Schaefer and Keyser 2011), and collinear points give the straight line itself.
glm::dvec2 centripetalCatmullRom(glm::dvec2 p0, glm::dvec2 p1, glm::dvec2 p2, glm::dvec2 p3, double u) {
  const double t0 = 0.0;
  const double t1 = t0 + std::sqrt(glm::length(p1 - p0));
  const double t2 = t1 + std::sqrt(glm::length(p2 - p1));
  const double t3 = t2 + std::sqrt(glm::length(p3 - p2));
  const double t = t1 + (t2 - t1) * u;
  const auto lerp = [t](glm::dvec2 a, glm::dvec2 b, double ta, double tb) {
    return (a * (tb - t) + b * (t - ta)) / (tb - ta);
  };
  const glm::dvec2 a1 = lerp(p0, p1, t0, t1), a2 = lerp(p1, p2, t1, t2), a3 = lerp(p2, p3, t2, t3);
  const glm::dvec2 b1 = lerp(a1, a2, t0, t2), b2 = lerp(a2, a3, t1, t3);
  return lerp(b1, b2, t1, t2);
}

std::string formatMetres(double metres) {
  char text[48];
  std::snprintf(text, sizeof text, "%.6g", metres);
  return text;
}

// Refuses a line of `length` that would pass kMaxReferenceSamples samples, saying why (`how`).
void refuseLongLine(double length, double spacing, const std::string& how) {
  const double samples = std::floor(length / spacing) + 1.0;
  if (samples <= static_cast<double>(kMaxReferenceSamples)) return;
  throw InputError("a reference line of about " + formatMetres(samples) + " samples, every " +
                   formatMetres(spacing) + " (" + how + "), is more than the " +
                   std::to_string(kMaxReferenceSamples) + " a line may have (" +
                   formatMetres(static_cast<double>(kMaxReferenceSamples - 1) * spacing) + " long)");
}

}  // namespace

std::vector<ReferencePoint> buildReferenceLine(std::span<const Vec2> polyline, double spacing) {
  if (polyline.size() < 2) throw std::invalid_argument("a reference line needs at least 2 points");
  if (!(spacing > 0.0) || !std::isfinite(spacing)) throw std::invalid_argument("the spacing must be > 0");
  std::vector<glm::dvec2> knots;
  for (std::size_t i = 0; i < polyline.size(); ++i) {
    const glm::dvec2 p(polyline[i]);
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
      throw std::invalid_argument("point " + std::to_string(i) + " is not finite");
    if (!knots.empty() && knots.back() == p) {
      throw std::invalid_argument("points " + std::to_string(i - 1) + " and " + std::to_string(i) +
                                  " are the same");
    }
    knots.push_back(p);
  }
  // The spline passes through every point, so it is at least as long as their chords: its
  // samples are counted from them before the spline is made.
  double chords = 0.0;
  for (std::size_t k = 0; k + 1 < knots.size(); ++k) chords += glm::length(knots[k + 1] - knots[k]);
  refuseLongLine(chords, spacing, "its points lie " + formatMetres(chords) + " apart along it");
  // The spline, finely. The end segments' missing neighbours are the next point reflected through
  // the end point (a repeated point would give a knot interval of 0), so an end segment leaves its
  // end point straight towards the next one.
  std::vector<glm::dvec2> fine;
  std::vector<double> along;
  const std::size_t n = knots.size();
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const glm::dvec2 p1 = knots[k], p2 = knots[k + 1];
    const glm::dvec2 p0 = k == 0 ? 2.0 * p1 - p2 : knots[k - 1];
    const glm::dvec2 p3 = k + 2 < n ? knots[k + 2] : 2.0 * p2 - p1;
    const int pieces = std::max(8, static_cast<int>(std::ceil(4.0 * glm::length(p2 - p1) / spacing)));
    for (int j = (k == 0 ? 0 : 1); j <= pieces; ++j) {
      const glm::dvec2 p = centripetalCatmullRom(p0, p1, p2, p3, static_cast<double>(j) / pieces);
      along.push_back(fine.empty() ? 0.0 : along.back() + glm::length(p - fine.back()));
      fine.push_back(p);
    }
  }
  // Even samples by arc length, then heading and curvature by central differences.
  const double total = along.back();
  if (total < spacing) throw std::invalid_argument("the line is shorter than one spacing");
  refuseLongLine(total, spacing, "its spline is " + formatMetres(total) + " long");
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
    line[i].kappa =
        b > a ? wrapAngle(line[b].theta - line[a].theta) / (static_cast<double>(b - a) * spacing) : 0.0;
  }
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t a = i == 0 ? 0 : i - 1, b = i + 1 < m ? i + 1 : m - 1;
    line[i].dkappa = b > a ? (line[b].kappa - line[a].kappa) / (static_cast<double>(b - a) * spacing) : 0.0;
  }
  return line;
}

}  // namespace crowd
