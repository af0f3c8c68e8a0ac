#include "measure/voronoi_raster.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace crowd {
namespace {

// One agent's squared distance to the points of a pixel row, (x - x_i)^2 + dySq.
struct Parabola {
  double x;
  double dySq;
  std::uint32_t index;
};

// The lattice's columns or rows over an extent of the bounding box grown by two cut-offs.
double pixelsAcross(double extent, double cutOff, double resolution) {
  return std::max(1.0, std::ceil((extent + 4.0 * cutOff) / resolution));
}

}  // namespace

double polygonArea(std::span<const Vec2> polygon) {
  double twice = 0.0;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const Point a = toPoint(polygon[j]);
    const Point b = toPoint(polygon[i]);
    twice += a.x * b.y - b.x * a.y;
  }
  return 0.5 * std::abs(twice);
}

double voronoiRasterPixels(std::span<const Vec2> polygon, double cutOff, double resolution) {
  if (polygon.empty()) return 0.0;
  const Box box = boundsOf(polygon);
  return pixelsAcross(box.max.x - box.min.x, cutOff, resolution) *
         pixelsAcross(box.max.y - box.min.y, cutOff, resolution);
}

int VoronoiRaster::columnFrom(double x) const {
  const double column = std::ceil((x - origin_.x) / resolution_ - 0.5);
  return static_cast<int>(std::clamp(column, 0.0, static_cast<double>(columns_)));
}

VoronoiRaster::VoronoiRaster(std::span<const Vec2> polygon, double cutOff, double resolution)
    : cutOff_(cutOff), resolution_(resolution) {
  const Box box = boundsOf(polygon);
  const double margin = 2.0 * cutOff;
  origin_ = Point{box.min.x - margin, box.min.y - margin};
  columns_ = static_cast<int>(pixelsAcross(box.max.x - box.min.x, cutOff, resolution));
  rows_ = static_cast<int>(pixelsAcross(box.max.y - box.min.y, cutOff, resolution));
  // Pixel centres lie at most a pixel past the grown box (the counts round up); an agent owning
  // one is within a cut-off of it. Another pixel of slack covers rounding.
  const double grow = 3.0 * cutOff + 2.0 * resolution;
  reach_ = Box{{box.min.x - grow, box.min.y - grow}, {box.max.x + grow, box.max.y + grow}};

  // Each row's inside runs, by the even-odd rule as insidePolygon (geometry.hpp) applies it: a
  // centre is inside when an odd number of edge crossings of its row lie to its right, that is
  // between the sorted crossings 2k (included) and 2k + 1 (excluded).
  runStart_.assign(static_cast<std::size_t>(rows_) + 1, 0);
  std::vector<double> crossings;
  for (int row = 0; row < rows_; ++row) {
    const double y = origin_.y + (row + 0.5) * resolution_;
    crossings.clear();
    for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
      const Point a = toPoint(polygon[i]);
      const Point b = toPoint(polygon[j]);
      if ((a.y > y) != (b.y > y)) crossings.push_back((b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x);
    }
    std::sort(crossings.begin(), crossings.end());
    for (std::size_t k = 0; k + 1 < crossings.size(); k += 2) {
      const Run run{columnFrom(crossings[k]), columnFrom(crossings[k + 1])};
      if (run.begin >= run.end) continue;
      runs_.push_back(run);
      areaPixels_ += run.end - run.begin;
    }
    runStart_[static_cast<std::size_t>(row) + 1] = static_cast<std::uint32_t>(runs_.size());
  }
}

void VoronoiRaster::measure(std::span<const Vec2> positions, int threads, std::vector<Share>& shares) const {
  shares.assign(positions.size(), Share{});
  if (positions.empty()) return;
  // The agents by height, so that each row finds those within a cut-off of it by bisection.
  std::vector<std::uint32_t> byHeight(positions.size());
  std::iota(byHeight.begin(), byHeight.end(), 0u);
  std::stable_sort(byHeight.begin(), byHeight.end(),
                   [&](std::uint32_t i, std::uint32_t j) { return positions[i].y < positions[j].y; });
  std::vector<double> heights;
  for (const std::uint32_t i : byHeight) heights.push_back(positions[i].y);
  const double reachSq = cutOff_ * cutOff_;
  const int team = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel num_threads(team)
  {
    std::vector<Share> counted(positions.size());
    std::vector<Parabola> band;
    std::vector<std::size_t> envelope;  // Indices into band, left to right.
    std::vector<double> from;           // Where each envelope piece starts.
#pragma omp for schedule(dynamic, 16)
    for (int row = 0; row < rows_; ++row) {
      const double y = origin_.y + (row + 0.5) * resolution_;
      // The agents within a cut-off of the row (the bisection with a pixel of slack; the exact
      // test follows), in x order: their squared distance to the row's points are parabolas
      // in x of the same shape, d^2(x) = (x - x_i)^2 + dy_i^2.
      band.clear();
      const auto firstBelow = std::lower_bound(heights.begin(), heights.end(), y - cutOff_ - resolution_);
      const auto end = std::upper_bound(firstBelow, heights.end(), y + cutOff_ + resolution_);
      for (auto h = firstBelow; h != end; ++h) {
        const double dy = *h - y;
        const std::uint32_t i = byHeight[static_cast<std::size_t>(h - heights.begin())];
        if (dy * dy <= reachSq) band.push_back(Parabola{positions[i].x, dy * dy, i});
      }
      if (band.empty()) continue;
      std::sort(band.begin(), band.end(), [](const Parabola& a, const Parabola& b) {
        return a.x != b.x ? a.x < b.x : a.dySq != b.dySq ? a.dySq < b.dySq : a.index < b.index;
      });
      // Their lower envelope (as in Felzenszwalb and Huttenlocher's distance transform): the
      // nearest agent along the row, piece by piece. Two parabolas meet once, at `start`; one
      // whose piece would start no later than the previous one's never is the nearest.
      envelope.clear();
      from.clear();
      for (std::size_t q = 0; q < band.size(); ++q) {
        const Parabola& p = band[q];
        // The same x: the one before is as near everywhere, and nearer (or listed first).
        if (!envelope.empty() && band[envelope.back()].x == p.x) continue;
        double start = -std::numeric_limits<double>::infinity();
        while (!envelope.empty()) {
          const Parabola& top = band[envelope.back()];
          start = 0.5 * (p.x + top.x) + 0.5 * (p.dySq - top.dySq) / (p.x - top.x);
          if (start > from.back()) break;
          envelope.pop_back();
          from.pop_back();
          start = -std::numeric_limits<double>::infinity();
        }
        envelope.push_back(q);
        from.push_back(start);
      }
      // Each piece's agent owns the pixels of its piece within the cut-off (beyond it, the
      // nearest agent is too far, so nobody does).
      const Run* run = runs_.data() + runStart_[static_cast<std::size_t>(row)];
      const Run* const runsEnd = runs_.data() + runStart_[static_cast<std::size_t>(row) + 1];
      for (std::size_t k = 0; k < envelope.size(); ++k) {
        const Parabola& p = band[envelope[k]];
        const double halfWidth = std::sqrt(reachSq - p.dySq);
        const double pieceEnd =
            k + 1 < envelope.size() ? from[k + 1] : std::numeric_limits<double>::infinity();
        const int first = columnFrom(std::max(from[k], p.x - halfWidth));
        const int last = columnFrom(std::min(pieceEnd, p.x + halfWidth));
        if (first >= last) continue;
        counted[p.index].cell += last - first;
        while (run != runsEnd && run->end <= first) ++run;
        for (const Run* r = run; r != runsEnd && r->begin < last; ++r) {
          counted[p.index].inside += std::min(r->end, last) - std::max(r->begin, first);
        }
      }
    }
    // Whole numbers: the sum is the same whatever order the threads add in.
#pragma omp critical
    for (std::size_t i = 0; i < shares.size(); ++i) {
      shares[i].cell += counted[i].cell;
      shares[i].inside += counted[i].inside;
    }
  }
}

}  // namespace crowd
