// What crowdsim verify shows and writes: the table on the terminal (a row per test and model,
// printed as each run finishes), the summary line and its verdicts, and the machine-readable
// (--json), documentation (--markdown) and figure (--svg-dir) outputs.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "verify_test.hpp"

namespace crowd::cli::verify {

/// One line of the table: a test with one model (a test not run has one line and no model).
struct Row {
  const TestCase* test = nullptr;
  Model model = Model::Csm;
  Result result;
};

/// Where a test stands over its models: passed with at least one, failed with all that have a
/// criterion, only reported (no model has a criterion), or not run.
enum class Verdict { Pass, Fail, Reported, NotRun };
Verdict verdictOf(const TestCase& test, const std::vector<Row>& rows);

struct Summary {
  int withCriterion = 0;  ///< Tests run that have a pass/fail criterion.
  int passed = 0;         ///< Of them, passed with at least one model.
  int reported = 0;       ///< Run and reported without a criterion.
  int notRun = 0;
  std::vector<std::string> failed;  ///< Ids of the tests with a criterion no model met.
};
Summary summarize(const std::vector<TestCase>& tests, const std::vector<Row>& rows);
/// "summary: 14 of 15 tests with a criterion pass with at least one model, 1 fails (NIST 2.8); ..."
std::string summaryLine(const Summary& summary, double seconds);

/// What the run was: for the headers of the outputs.
struct RunInfo {
  Settings settings;
  std::string backend;  ///< "cpu" or "cuda".
  std::string models;   ///< --model as given.
  std::string date;     ///< UTC, YYYY-MM-DD.
  std::string machine;  ///< CPU model name and core count.
  double seconds = 0;
};
/// The CPU's model name (/proc/cpuinfo) and its logical core count.
std::string machineDescription();
std::string todayUtc();

void printTableHeader();
/// Prints one row; the test's id and criterion only on its first row.
void printRow(const Row& row, bool firstOfTest);

void writeJson(std::FILE* out, const RunInfo& info, const std::vector<TestCase>& tests,
               const std::vector<Row>& rows);
void writeMarkdown(std::FILE* out, const RunInfo& info, const std::vector<TestCase>& tests,
                   const std::vector<Row>& rows);

/// The figures --svg-dir draws, each from the rows of one test.
inline constexpr const char* kFundamentalDiagramId = "RiMEA 4";
inline constexpr const char* kWidthSeriesId = "Bottleneck widths";
/// Whether the rows of test `id` hold series to draw.
bool hasFigure(const std::vector<Row>& rows, const char* id);
/// fundamental-diagram.svg: speed and specific flow against density, per model, over
/// Weidmann's curve. Nothing when the test did not run.
bool writeFundamentalDiagram(std::FILE* out, const std::vector<Row>& rows);
/// bottleneck-flow.svg: flow against width per model, over the experimental flows.
bool writeBottleneckFlow(std::FILE* out, const std::vector<Row>& rows);

}  // namespace crowd::cli::verify
