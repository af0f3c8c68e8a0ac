// The table, the summary, and the JSON and Markdown outputs of crowdsim verify.
#include "report.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

namespace crowd::cli::verify {
namespace {

// Column widths of the terminal table.
constexpr int kIdWidth = 18;
constexpr int kCriterionWidth = 46;
constexpr int kModelWidth = 13;
constexpr int kOutcomeWidth = 8;

const char* verdictLabel(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Fail:
      return "fail";
    case Verdict::Reported:
      return "reported";
    case Verdict::NotRun:
      return "not run";
  }
  return "?";
}

std::vector<const Row*> rowsOf(const TestCase& test, const std::vector<Row>& rows) {
  std::vector<const Row*> mine;
  for (const Row& row : rows) {
    if (row.test == &test) mine.push_back(&row);
  }
  return mine;
}

std::string formLabel(const Settings& settings) {
  return settings.longForm ? "long form (the guidelines' sizes)" : "short form";
}

// Markdown table cells: a '|' would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return out;
}

}  // namespace

Verdict verdictOf(const TestCase& test, const std::vector<Row>& rows) {
  if (test.needs != nullptr) return Verdict::NotRun;
  bool anyCriterion = false;
  for (const Row* row : rowsOf(test, rows)) {
    if (row->result.outcome == Outcome::Pass) return Verdict::Pass;
    if (row->result.outcome == Outcome::Fail) anyCriterion = true;
  }
  return anyCriterion ? Verdict::Fail : Verdict::Reported;
}

Summary summarize(const std::vector<TestCase>& tests, const std::vector<Row>& rows) {
  Summary summary;
  for (const TestCase& test : tests) {
    switch (verdictOf(test, rows)) {
      case Verdict::Pass:
        ++summary.withCriterion;
        ++summary.passed;
        break;
      case Verdict::Fail:
        ++summary.withCriterion;
        summary.failed.emplace_back(test.id);
        break;
      case Verdict::Reported:
        ++summary.reported;
        break;
      case Verdict::NotRun:
        ++summary.notRun;
        break;
    }
  }
  return summary;
}

std::string summaryLine(const Summary& summary, double seconds) {
  std::string line = "summary: " + std::to_string(summary.passed) + " of " +
                     std::to_string(summary.withCriterion) +
                     " tests with a criterion pass with at least one model, " +
                     std::to_string(summary.failed.size()) + " fail";
  if (!summary.failed.empty()) {
    line += " (";
    for (std::size_t i = 0; i < summary.failed.size(); ++i) line += (i ? ", " : "") + summary.failed[i];
    line += ")";
  }
  line += "; " + std::to_string(summary.reported) + " reported without a criterion; " +
          std::to_string(summary.notRun) + " not run (need scenario features); " + fixed(seconds, 0) + " s";
  return line;
}

std::string machineDescription() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(colon + 2);
      break;
    }
  }
  const unsigned cores = std::thread::hardware_concurrency();
  return model + ", " + std::to_string(cores) + (cores == 1 ? " core" : " cores");
}

std::string todayUtc() {
  const std::time_t now = std::time(nullptr);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", std::gmtime(&now));
  return buffer;
}

void printTableHeader() {
  std::printf("%-*s %-*s %-*s %-*s %s\n", kIdWidth, "test", kCriterionWidth, "criterion", kModelWidth,
              "model", kOutcomeWidth, "result", "measured");
}

void printRow(const Row& row, bool firstOfTest) {
  const TestCase& test = *row.test;
  const std::string id = firstOfTest ? test.id : "";
  const std::string criterion = firstOfTest ? test.criterion : "";
  const bool notRun = row.result.outcome == Outcome::NotRun;
  std::printf("%-*s %-*s %-*s %-*s %s\n", kIdWidth, id.c_str(), kCriterionWidth, criterion.c_str(),
              kModelWidth, notRun ? "-" : modelLabel(row.model), kOutcomeWidth,
              outcomeLabel(row.result.outcome), row.result.measured.c_str());
  std::fflush(stdout);
}

void writeJson(std::FILE* out, const RunInfo& info, const std::vector<TestCase>& tests,
               const std::vector<Row>& rows) {
  nlohmann::json doc = {{"date", info.date},
                        {"machine", info.machine},
                        {"backend", info.backend},
                        {"form", info.settings.longForm ? "long" : "short"},
                        {"seeds", info.settings.seeds},
                        {"threads", info.settings.threads},
                        {"models", info.models},
                        {"seconds", info.seconds}};
  nlohmann::json list = nlohmann::json::array();
  for (const TestCase& test : tests) {
    nlohmann::json entry = {{"id", test.id},
                            {"title", test.title},
                            {"source", test.source},
                            {"criterion", test.criterion},
                            {"verdict", verdictLabel(verdictOf(test, rows))}};
    if (test.needs != nullptr) entry["needs"] = test.needs;
    nlohmann::json results = nlohmann::json::array();
    for (const Row* row : rowsOf(test, rows)) {
      if (row->result.outcome == Outcome::NotRun) continue;
      nlohmann::json values = nlohmann::json::object();
      for (const auto& [key, value] : row->result.values) values[key] = value;
      results.push_back({{"model", modelKey(row->model)},
                         {"outcome", outcomeLabel(row->result.outcome)},
                         {"measured", row->result.measured},
                         {"values", std::move(values)},
                         {"seconds", row->result.seconds}});
    }
    entry["results"] = std::move(results);
    list.push_back(std::move(entry));
  }
  doc["tests"] = std::move(list);
  const Summary summary = summarize(tests, rows);
  doc["summary"] = {{"withCriterion", summary.withCriterion},
                    {"passed", summary.passed},
                    {"failed", summary.failed},
                    {"reported", summary.reported},
                    {"notRun", summary.notRun}};
  std::fprintf(out, "%s\n", doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
}

void writeMarkdown(std::FILE* out, const RunInfo& info, const std::vector<TestCase>& tests,
                   const std::vector<Row>& rows) {
  std::fprintf(
      out, "`crowdsim verify%s --seeds %d --threads %d --backend %s`: %s, %d seed%s per stochastic test, ",
      info.settings.longForm ? " --long" : "", info.settings.seeds, info.settings.threads,
      info.backend.c_str(), formLabel(info.settings).c_str(), info.settings.seeds,
      info.settings.seeds == 1 ? "" : "s");
  std::fprintf(out, "run on %s on %s (backend %s) in %s s.\n\n", info.date.c_str(), info.machine.c_str(),
               info.backend.c_str(), fixed(info.seconds, 0).c_str());
  std::fprintf(out, "| test | criterion | model | result | measured |\n| --- | --- | --- | --- | --- |\n");
  for (const TestCase& test : tests) {
    bool first = true;
    for (const Row* row : rowsOf(test, rows)) {
      const bool notRun = row->result.outcome == Outcome::NotRun;
      const std::string id = first ? std::string(test.id) + ": " + test.title : "";
      const std::string criterion = first ? test.criterion : "";
      const std::string result = row->result.outcome == Outcome::Pass || row->result.outcome == Outcome::Fail
                                     ? std::string("**") + outcomeLabel(row->result.outcome) + "**"
                                     : outcomeLabel(row->result.outcome);
      std::fprintf(out, "| %s | %s | %s | %s | %s |\n", cell(id).c_str(), cell(criterion).c_str(),
                   notRun ? "" : modelLabel(row->model), result.c_str(), cell(row->result.measured).c_str());
      first = false;
    }
  }
  std::fprintf(out, "\n%s\n", summaryLine(summarize(tests, rows), info.seconds).c_str());
}

}  // namespace crowd::cli::verify
