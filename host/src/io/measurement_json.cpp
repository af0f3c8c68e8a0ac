// Measurements as a JSON document (Measurements::toJson, crowd/measurement.hpp, lists the keys
// and their units). A mean speed over nobody, and flows before two instants, are null.
#include "io/measurement_json.hpp"

#include <charconv>
#include <cstdlib>
#include <string>
#include <utility>

namespace crowd {

namespace {

// A float as the double its shortest text reads as: 0.02f is written 0.02, not 0.0199999995529.
double shortest(float value) {
  char text[32];
  const std::to_chars_result end = std::to_chars(text, text + sizeof(text) - 1, value);
  *end.ptr = '\0';
  return std::strtod(text, nullptr);
}

nlohmann::json areaJson(const AreaSeries& area) {
  using nlohmann::json;
  json speed = json::array();
  for (std::size_t k = 0; k < area.speed.size(); ++k) {
    speed.push_back(area.count[k] > 0 ? json(area.speed[k]) : json(nullptr));  // A mean of nobody.
  }
  return {{"name", area.name},
          {"area_m2", area.area},
          {"time_s", area.time},
          {"count", area.count},
          {"density_per_m2", area.density},
          {"speed_m_per_s", std::move(speed)},
          {"voronoi_density_per_m2", area.voronoiDensity},
          {"voronoi_speed_m_per_s", area.voronoiSpeed}};
}

nlohmann::json lineJson(const LineSeries& line) {
  using nlohmann::json;
  json crossings = json::array();
  for (const LineCrossing& c : line.crossings) {
    crossings.push_back({{"time_s", c.time}, {"agent", c.id.index}, {"dir", c.direction}});
  }
  json flow = nullptr;
  json specific = nullptr;
  if (line.time.size() >= 2) {
    const double t0 = line.time.front();
    const double t1 = line.time.back();
    flow = json::object();
    specific = json::object();
    for (const auto& [key, direction] :
         {std::pair{"forward", FlowDirection::Forward}, std::pair{"backward", FlowDirection::Backward},
          std::pair{"net", FlowDirection::Net}}) {
      flow[key] = flowRate(line, t0, t1, direction);
      specific[key] = specificFlow(line, t0, t1, direction);
    }
  }
  return {{"name", line.name},
          {"length_m", line.length},
          {"crossings", std::move(crossings)},
          {"nt", {{"time_s", line.time}, {"forward", line.forward}, {"backward", line.backward}}},
          {"flow_per_s", std::move(flow)},
          {"specific_flow_per_m_s", std::move(specific)}};
}

}  // namespace

nlohmann::json measurementsJson(const Measurements& measurements) {
  using nlohmann::json;
  const MeasurementPlan& plan = measurements.plan();
  json areas = json::array();
  for (const AreaSeries& area : measurements.areas()) areas.push_back(areaJson(area));
  json lines = json::array();
  for (const LineSeries& line : measurements.lines()) lines.push_back(lineJson(line));
  return {{"interval_s", plan.interval},
          {"voronoi_cut_off_m", shortest(plan.voronoiCutOff)},
          {"voronoi_resolution_m", shortest(plan.voronoiResolution)},
          {"areas", std::move(areas)},
          {"lines", std::move(lines)}};
}

std::string Measurements::toJson(int indent) const {
  return measurementsJson(*this).dump(indent, ' ', false,
                                      nlohmann::json::error_handler_t::replace);  // A non-UTF-8 name too.
}

}  // namespace crowd
