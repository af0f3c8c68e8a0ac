// The table and summary of an ensemble (ensemble_table.hpp).
#include "ensemble/ensemble_table.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "ensemble/statistics.hpp"

namespace crowd::cli {
namespace {

// A CSV field, quoted where it holds a separator, a quote or a line break (RFC 4180).
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<std::string> figureColumns(const std::vector<RunRecord>& records) {
  std::vector<std::string> columns;
  for (const RunRecord& record : records) {
    for (const RunFigure& figure : record.figures) {
      if (std::find(columns.begin(), columns.end(), figure.column) == columns.end())
        columns.push_back(figure.column);
    }
  }
  return columns;
}

std::optional<double> figureOf(const RunRecord& record, const std::string& column) {
  for (const RunFigure& figure : record.figures) {
    if (figure.column == column && figure.value.is_number()) return figure.value.get<double>();
  }
  return std::nullopt;
}

nlohmann::json statisticsJson(const ColumnStatistics& s) {
  return {{"count", s.count}, {"mean", s.mean}, {"sd", s.standardDeviation},
          {"min", s.min},     {"p5", s.p5},     {"p50", s.p50},
          {"p95", s.p95},     {"max", s.max}};
}

}  // namespace

std::string ensembleTable(const std::vector<Variation>& variations, const std::vector<RunRecord>& records) {
  const std::vector<std::string> columns = figureColumns(records);
  std::string table = "run,seed";
  for (const Variation& variation : variations) table.append(",").append(csvField(variation.key));
  table += ",status,attempts";
  for (const std::string& column : columns) table.append(",").append(csvField(column));
  table += ",error\n";
  for (const RunRecord& record : records) {
    table.append(std::to_string(record.index)).append(",").append(std::to_string(record.seed));
    for (const std::string& value : record.values) table.append(",").append(csvField(value));
    table += std::string(record.ok ? ",ok," : ",failed,") + std::to_string(record.attempts);
    for (const std::string& column : columns) {
      table += ",";
      for (const RunFigure& figure : record.figures) {
        if (figure.column == column && !figure.value.is_null()) table += figure.value.dump();
      }
    }
    table.append(",").append(csvField(record.error)).append("\n");
  }
  return table;
}

std::string stableMeanColumn(const std::vector<RunRecord>& records) {
  for (const RunRecord& record : records) {
    if (record.ok && figureOf(record, "evacuation_time_s")) return "evacuation_time_s";
  }
  return "simulated_time_s";
}

nlohmann::json ensembleSummary(const std::vector<Variation>& variations,
                               const std::vector<RunRecord>& records, double tolerance) {
  const std::vector<std::string> columns = figureColumns(records);
  const std::string stableColumn = stableMeanColumn(records);
  // Groups in the order their first run comes: the order of the combinations.
  std::vector<std::vector<std::string>> groupValues;
  std::map<std::vector<std::string>, std::vector<const RunRecord*>> groups;
  for (const RunRecord& record : records) {
    auto& members = groups[record.values];
    if (members.empty()) groupValues.push_back(record.values);
    members.push_back(&record);
  }
  nlohmann::json summary = {{"stableMean", {{"column", stableColumn}, {"tolerance", tolerance}}},
                            {"groups", nlohmann::json::array()}};
  for (const std::vector<std::string>& values : groupValues) {
    const std::vector<const RunRecord*>& members = groups[values];
    nlohmann::json parameters = nlohmann::json::object();
    for (std::size_t v = 0; v < variations.size(); ++v) parameters[variations[v].key] = values[v];
    std::size_t ok = 0;
    for (const RunRecord* record : members) ok += record->ok ? 1 : 0;
    nlohmann::json columnStats = nlohmann::json::object();
    std::vector<double> stableFigures;
    for (const std::string& column : columns) {
      std::vector<double> figures;
      for (const RunRecord* record : members) {
        if (!record->ok) continue;
        if (const std::optional<double> figure = figureOf(*record, column)) figures.push_back(*figure);
      }
      if (const std::optional<ColumnStatistics> s = columnStatistics(figures)) {
        columnStats[column] = statisticsJson(*s);
      }
      if (column == stableColumn) stableFigures = figures;
    }
    const std::optional<std::size_t> stableRuns = runsForStableMean(stableFigures, tolerance);
    summary["groups"].push_back(
        {{"parameters", parameters},
         {"runs", members.size()},
         {"ok", ok},
         {"failed", members.size() - ok},
         {"columns", columnStats},
         {"runsForStableMean", stableRuns ? nlohmann::json(*stableRuns) : nlohmann::json()},
         {"stableMeanFigures", stableFigures.size()}});
  }
  return summary;
}

std::string summaryText(const nlohmann::json& summary) {
  const std::string column = summary["stableMean"]["column"].get<std::string>();
  const double tolerance = summary["stableMean"]["tolerance"].get<double>();
  std::string text;
  char line[512];
  for (const nlohmann::json& group : summary["groups"]) {
    std::string parameters;
    for (const auto& [key, value] : group["parameters"].items()) {
      parameters.append(parameters.empty() ? "" : " ")
          .append(key)
          .append("=")
          .append(value.get<std::string>());
    }
    std::snprintf(line, sizeof line, "%s%s%zu runs (%zu failed)", parameters.c_str(),
                  parameters.empty() ? "" : ": ", group["runs"].get<std::size_t>(),
                  group["failed"].get<std::size_t>());
    text += line;
    if (group["columns"].contains(column)) {
      const nlohmann::json& s = group["columns"][column];
      std::snprintf(line, sizeof line, "; %s mean %.3f, sd %.3f, p5 %.3f, p50 %.3f, p95 %.3f", column.c_str(),
                    s["mean"].get<double>(), s["sd"].get<double>(), s["p5"].get<double>(),
                    s["p50"].get<double>(), s["p95"].get<double>());
      text += line;
      const std::size_t stable = group["runsForStableMean"].get<std::size_t>();
      const std::size_t figures = group["stableMeanFigures"].get<std::size_t>();
      std::snprintf(line, sizeof line, "; mean within %g%% of its final value from run %zu of %zu%s",
                    100 * tolerance, stable, figures,
                    stable == figures ? " (not yet stable: run more seeds)" : "");
      text += line;
    }
    text += "\n";
  }
  return text;
}

}  // namespace crowd::cli
