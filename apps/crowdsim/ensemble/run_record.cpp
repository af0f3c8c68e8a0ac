// A run's figures and its line of JSON (run_record.hpp).
#include "ensemble/run_record.hpp"

#include <utility>

namespace crowd::cli {
namespace {

nlohmann::json member(const nlohmann::json& doc, const char* key) {
  const auto found = doc.find(key);
  return found == doc.end() ? nlohmann::json() : *found;
}

}  // namespace

std::vector<RunFigure> figuresOfMetrics(const nlohmann::json& metrics) {
  std::vector<RunFigure> figures;
  const nlohmann::json steps = member(metrics, "steps");
  const nlohmann::json timeStep = member(metrics, "timeStep");
  figures.push_back({"steps_run", steps});
  figures.push_back({"simulated_time_s", steps.is_number() && timeStep.is_number()
                                             ? nlohmann::json(steps.get<double>() * timeStep.get<double>())
                                             : nlohmann::json()});
  figures.push_back({"agents_at_start", member(metrics, "agents")});
  figures.push_back({"arrived", member(metrics, "arrived")});
  figures.push_back({"evacuation_time_s", member(metrics, "lastArrivalTime")});
  figures.push_back({"first_arrival_s", member(metrics, "firstArrivalTime")});
  figures.push_back({"mean_arrival_s", member(metrics, "meanArrivalTime")});
  figures.push_back({"collisions", member(metrics, "collisions")});
  figures.push_back({"penetrations", member(metrics, "obstaclePenetrations")});
  figures.push_back({"min_separation_ratio", member(metrics, "minSeparationRatio")});
  figures.push_back({"mean_speed", member(metrics, "meanSpeed")});
  figures.push_back({"unreachable", member(metrics, "unreachable")});
  const auto measurements = metrics.find("measurements");
  if (measurements == metrics.end()) return figures;
  for (const nlohmann::json& line : measurements->value("lines", nlohmann::json::array())) {
    const std::string name = line.value("name", "");
    const nlohmann::json forward = line.contains("nt") ? member(line["nt"], "forward") : nlohmann::json();
    figures.push_back({"line_" + name + "_crossed",
                       forward.is_array() && !forward.empty() ? forward.back() : nlohmann::json()});
    figures.push_back({"line_" + name + "_flow_per_s", line.contains("flow_per_s")
                                                           ? member(line["flow_per_s"], "forward")
                                                           : nlohmann::json()});
  }
  for (const nlohmann::json& area : measurements->value("areas", nlohmann::json::array())) {
    nlohmann::json peak;
    for (const nlohmann::json& density : area.value("density_per_m2", nlohmann::json::array())) {
      if (density.is_number() && (peak.is_null() || density.get<double>() > peak.get<double>()))
        peak = density;
    }
    figures.push_back({"area_" + area.value("name", "") + "_peak_density_per_m2", peak});
  }
  return figures;
}

std::string toJournalLine(const RunRecord& record) {
  nlohmann::json figures = nlohmann::json::array();
  for (const RunFigure& figure : record.figures) figures.push_back({figure.column, figure.value});
  const nlohmann::json line = {{"run", record.index},          {"seed", record.seed},
                               {"values", record.values},      {"status", record.ok ? "ok" : "failed"},
                               {"attempts", record.attempts},  {"error", record.error},
                               {"figures", std::move(figures)}};
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

RunRecord fromJournalLine(const std::string& text) {
  const nlohmann::json line = nlohmann::json::parse(text);
  RunRecord record;
  record.index = line.at("run").get<std::size_t>();
  record.seed = line.at("seed").get<std::uint64_t>();
  record.values = line.at("values").get<std::vector<std::string>>();
  record.ok = line.at("status").get<std::string>() == "ok";
  record.attempts = line.at("attempts").get<int>();
  record.error = line.at("error").get<std::string>();
  for (const nlohmann::json& figure : line.at("figures")) {
    record.figures.push_back({figure.at(0).get<std::string>(), figure.at(1)});
  }
  return record;
}

}  // namespace crowd::cli
