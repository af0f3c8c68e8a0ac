// The measurements' lines of a run's summary (measurement_summary.hpp).
#include "measurement_summary.hpp"

#include <cstdio>
#include <optional>
#include <string>

namespace crowd::cli {
namespace {

// "1.23", or "-" where there is no figure (nobody was there).
std::string figure(const std::optional<double>& value) {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", *value);
  return text;
}

}  // namespace

MeasuredSpan measuredSpan(const Measurements& measurements) {
  // Areas and lines see the same instants; a plan has at least one of them.
  for (const AreaSeries& area : measurements.areas()) {
    if (!area.time.empty()) return {area.time.front(), area.time.back()};
  }
  for (const LineSeries& line : measurements.lines()) {
    if (!line.time.empty()) return {line.time.front(), line.time.back()};
  }
  return {};
}

void printMeasurementSummary(std::FILE* out, const Measurements& measurements) {
  const MeasuredSpan span = measuredSpan(measurements);
  const double middle = 0.5 * (span.first + span.last);
  std::size_t samples = 0;
  if (!measurements.areas().empty()) samples = measurements.areas().front().time.size();
  if (!measurements.lines().empty()) samples = measurements.lines().front().time.size();
  std::fprintf(
      out,
      "measured        %zu samples every %g s from %.2f to %.2f s; areas over the second half (from %.2f "
      "s)\n",
      samples, measurements.plan().interval, span.first, span.last, middle);
  for (const AreaSeries& area : measurements.areas()) {
    std::optional<double> density, speed, voronoiDensity, voronoiSpeed;
    if (const auto classic = meanFundamental(area, false, middle, span.last)) {
      density = classic->density;
      speed = classic->speed;
    }
    if (const auto voronoi = meanFundamental(area, true, middle, span.last)) {
      voronoiDensity = voronoi->density;
      voronoiSpeed = voronoi->speed;
    }
    std::fprintf(out, "area %-10s  %.2f m^2: density %s P/m^2 (Voronoi %s), speed %s m/s (Voronoi %s)\n",
                 area.name.c_str(), area.area, figure(density).c_str(), figure(voronoiDensity).c_str(),
                 figure(speed).c_str(), figure(voronoiSpeed).c_str());
  }
  for (const LineSeries& line : measurements.lines()) {
    const long long forward = line.forward.empty() ? 0 : static_cast<long long>(line.forward.back());
    const long long backward = line.backward.empty() ? 0 : static_cast<long long>(line.backward.back());
    std::fprintf(
        out,
        "line %-10s  %.2f m: %lld crossed forward, %lld backward; flow %.3f P/s (%.3f P/(m s)) forward, "
        "%.3f P/s (%.3f P/(m s)) backward\n",
        line.name.c_str(), line.length, forward, backward, flowRate(line, span.first, span.last),
        specificFlow(line, span.first, span.last),
        flowRate(line, span.first, span.last, FlowDirection::Backward),
        specificFlow(line, span.first, span.last, FlowDirection::Backward));
  }
}

}  // namespace crowd::cli
