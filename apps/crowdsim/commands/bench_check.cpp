// crowdsim bench --check (bench_check.hpp).
#include "commands/bench_check.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace crowd::cli {
namespace {

struct CostFigure {
  const char* key;
  const char* label;
};
constexpr CostFigure kCostFigures[] = {{"candidatesPerAgent", "candidates/agent"},
                                       {"orcaLinesPerAgent", "ORCA half-planes/agent"},
                                       {"planCandidatesPerStep", "planner candidates/step"}};

bool samePoint(const nlohmann::json& a, const nlohmann::json& b) {
  return a.value("scenario", "") == b.value("scenario", "") && a.value("agents", 0) == b.value("agents", 0) &&
         a.value("backend", "") == b.value("backend", "") && a.value("steps", 0) == b.value("steps", 0);
}

}  // namespace

nlohmann::json readStoredResults(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("--check " + path + ": cannot open the file");
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("results") || !doc["results"].is_array())
    throw std::invalid_argument("--check " + path + ": not a results file written by crowdsim bench --json");
  return doc;
}

int checkAgainstStored(const nlohmann::json& results, const nlohmann::json& stored, const std::string& path) {
  std::printf("\ncheck against %s (%s, %s):\n", path.c_str(), stored.value("date", "undated").c_str(),
              stored.value("cpu", "unknown CPU").c_str());
  int compared = 0;
  int drifted = 0;
  for (const nlohmann::json& now : results) {
    for (const nlohmann::json& then : stored.at("results")) {
      if (!samePoint(now, then)) continue;
      ++compared;
      std::printf("  %s %s agents %s:", now.value("scenario", "").c_str(),
                  std::to_string(now.value("agents", 0)).c_str(), now.value("backend", "").c_str());
      for (const CostFigure& figure : kCostFigures) {
        if (!then.contains(figure.key)) continue;  // Files older than the figure.
        const double was = then.value(figure.key, NAN);
        const double is = now.value(figure.key, NAN);
        const bool holds = std::fabs(is - was) <= kCostFigureTolerance * std::fabs(was);
        if (!holds) ++drifted;
        std::printf(" %s %.2f (stored %.2f)%s;", figure.label, is, was, holds ? "" : " DRIFTED");
      }
      const double was = then.value("medianMsPerStep", NAN);
      const double is = now.value("medianMsPerStep", NAN);
      std::printf(" median %.3f ms, %.2fx the stored time (machines differ)\n", is, is / was);
    }
  }
  if (compared == 0)
    throw std::invalid_argument(
        "--check " + path +
        ": the sweep met none of the file's points (same scenario, agents, backend and --steps)");
  if (drifted > 0) {
    std::printf(
        "check: %d cost figure%s drifted more than %.0f%% from %s: the step now does different work\n",
        drifted, drifted == 1 ? "" : "s", 100.0 * kCostFigureTolerance, path.c_str());
  } else {
    std::printf("check: the cost figures of %d point%s hold\n", compared, compared == 1 ? "" : "s");
  }
  return drifted;
}

}  // namespace crowd::cli
