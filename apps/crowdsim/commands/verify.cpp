// crowdsim verify: the verification tests of the RiMEA guideline (Annex 1) and of NIST TN 1822
// that apply to one floor, plus the bottleneck experiments and a crush check, each with its
// published criterion, run with each pedestrian model (verify/*.cpp holds the tests). Prints a
// table as the runs finish and a summary line; optionally the results as JSON, the table as a
// Markdown page and the figures as SVG. Exit code 0 when every test that has a criterion passes
// with at least one model, 1 otherwise, 2 for bad usage.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <crowd/output_file.hpp>
#include <crowd/stop_request.hpp>

#include "command.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "stop_signals.hpp"
#include "strict_integer.hpp"
#include "svg_to_png.hpp"
#include "verify/report.hpp"
#include "verify/verify_test.hpp"

namespace crowd::cli {
namespace {

/// Whether `text` holds one of the |-separated words of `pattern`, case ignored (all do for an
/// empty pattern). Plain words rather than a regular expression: test names need no more.
bool matchesAny(const std::string& text, const std::string& pattern) {
  if (pattern.empty()) return true;
  const auto lower = [](std::string value) {
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return value;
  };
  const std::string haystack = lower(text);
  std::size_t start = 0;
  while (start <= pattern.size()) {
    const std::size_t bar = std::min(pattern.find('|', start), pattern.size());
    const std::string word = lower(pattern.substr(start, bar - start));
    if (!word.empty() && haystack.find(word) != std::string::npos) return true;
    start = bar + 1;
  }
  return false;
}

using namespace verify;

// Seeds per stochastic test unless --seeds says: enough to see the spread in CI's short form,
// more for the long form's documentation run.
constexpr int kShortSeeds = 2;
constexpr int kLongSeeds = 5;

struct VerifyOptions {
  bool longForm = false;
  std::optional<int> seeds;  // Default: kShortSeeds, or kLongSeeds with --long.
  std::string only;          // Words separated by |, one of which each test's id and title must hold.
  std::string model = "all";
  int threads = 0;
  std::string backend = "auto";
  std::string jsonPath;
  std::string markdownPath;
  std::string svgDir;
  bool png = false;
};

std::vector<TestCase> allTests() {
  std::vector<TestCase> tests = rimeaTests();
  for (std::vector<TestCase> more : {nistTests(), bottleneckTests()}) {
    tests.insert(tests.end(), more.begin(), more.end());
  }
  return tests;
}

std::vector<Model> modelsOf(const TestCase& test, const std::string& choice) {
  std::vector<Model> models;
  for (const Model model : kModels) {
    if (model == Model::Orca && !test.plainOrca) continue;
    const bool wanted = choice == "all" || (choice == "csm" && model == Model::Csm) ||
                        (choice == "socialforce" && model == Model::SocialForce) ||
                        (choice == "orca" && (model == Model::OrcaDensity || model == Model::Orca));
    if (wanted) models.push_back(model);
  }
  return models;
}

// `text` as lines of at most 100 characters, each indented by six spaces.
std::string wrapped(const std::string& text) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > 94) {
      out += "      " + line + "\n";
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    start = end + 1;
  }
  if (!line.empty()) out += "      " + line + "\n";
  return out;
}

std::string testList() {
  std::string text =
      "Tests (--only picks those whose 'ID: title' holds one of its |-separated words, case ignored):\n";
  for (const TestCase& test : allTests()) {
    text += "  " + std::string(test.id) + ": " + test.title + "\n";
    text += wrapped(test.checks);
    text += wrapped("criterion: " + std::string(test.criterion) + " (" + test.source + ")");
    if (test.needs != nullptr) text += wrapped("not run yet: needs " + std::string(test.needs));
  }
  return text;
}

void addVerifyOptions(CLI::App& command, VerifyOptions& o) {
  command.add_flag(
      "--long", o.longForm,
      "The guidelines' full sizes (1,000-person rooms, a 10 m corridor filled to 6 P/m2, nine "
      "bottleneck widths); without it, a short form that keeps each test's geometry and criterion "
      "with fewer people");
  command
      .add_option("--seeds", o.seeds,
                  "Seeds per stochastic test (random placement; every seed must pass); default " +
                      std::to_string(kShortSeeds) + ", with --long " + std::to_string(kLongSeeds))
      ->check(kWholeNumber)
      ->check(CLI::Range(1, 100));
  command.add_option(
      "--only", o.only,
      "Run the tests whose 'ID: title' holds one of these |-separated words, case ignored ('RiMEA 9|Crush')");
  command
      .add_option(
          "--model", o.model,
          "csm, socialforce, orca (ORCA with the density-aware speed, and plain ORCA where informative) "
          "or all")
      ->check(CLI::IsMember({"csm", "socialforce", "orca", "all"}))
      ->capture_default_str();
  addThreadsOption(command, o.threads);
  addBackendOption(command, o.backend);
  command.add_option("--json", o.jsonPath, "Write every result and figure as JSON")->check(kPathGiven);
  command
      .add_option("--markdown", o.markdownPath, "Write the table as a Markdown page (date, machine, backend)")
      ->check(kPathGiven);
  CLI::Option* svgDir =
      command
          .add_option("--svg-dir", o.svgDir,
                      "Write fundamental-diagram.svg and bottleneck-flow.svg into this existing folder")
          ->check(CLI::ExistingDirectory);
  command
      .add_flag("--png", o.png,
                "With --svg-dir: a PNG of each figure beside its SVG (drawn by rsvg-convert, Debian's "
                "librsvg2-bin)")
      ->needs(svgDir);
  command.footer(
      testList() +
      "Each test runs with CSM (collision-free speed model, 0.1 s steps), social force (0.01 s) and\n"
      "ORCA with the density-aware preferred speed (0.1 s); plain ORCA too where it is informative.\n"
      "A row shows the figure the criterion judges over every seed (min..max). A test passes when at\n"
      "least one model passes it; 'info' rows report a figure the test has no criterion for.\n"
      "Exit codes: 0 every test with a criterion passes with at least one model, 1 one does not (or\n"
      "an output cannot be written), 2 bad usage.");
}

int runVerify(const VerifyOptions& o) {
  catchStopSignals();  // Ctrl-C stops within a step, with the table so far printed and no file left.
  Settings settings;
  settings.longForm = o.longForm;
  settings.seeds = o.seeds.value_or(o.longForm ? kLongSeeds : kShortSeeds);
  settings.threads = o.threads;
  BackendKind backend = backendNamed(o.backend);
  requireBackend(backend);
  if (backend == BackendKind::Auto) backend = cudaBackendAvailable() ? BackendKind::Cuda : BackendKind::Cpu;
  settings.backend = backend;
  checkOutputPaths({{"--json", o.jsonPath}, {"--markdown", o.markdownPath}}, {}, "");
  std::vector<TestCase> tests;
  for (const TestCase& test : allTests()) {
    if (matchesAny(std::string(test.id) + ": " + test.title, o.only)) tests.push_back(test);
  }
  if (tests.empty()) throw std::invalid_argument("--only " + o.only + ": no test matches");

  std::printf("crowdsim verify: %zu tests, %s, %d seed%s per stochastic test, backend %s\n\n", tests.size(),
              o.longForm ? "long form" : "short form", settings.seeds, settings.seeds == 1 ? "" : "s",
              backendKindName(backend));
  printTableHeader();
  const auto start = std::chrono::steady_clock::now();
  const auto since = [](std::chrono::steady_clock::time_point from) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
  };
  std::vector<Row> rows;
  rows.reserve(tests.size() * 4);
  for (const TestCase& test : tests) {
    if (test.needs != nullptr) {
      Row row{&test, Model::Csm, {}};
      row.result.outcome = Outcome::NotRun;
      row.result.measured = std::string("needs ") + test.needs;
      printRow(row, true);
      rows.push_back(std::move(row));
      continue;
    }
    bool first = true;
    for (const Model model : modelsOf(test, o.model)) {
      Row row{&test, model, {}};
      const auto began = std::chrono::steady_clock::now();
      try {
        row.result = test.run(settings, model);
      } catch (const Interrupted& e) {
        throw Interrupted(e.signal(), std::string(e.what()) + " of " + test.id + " (" + modelLabel(model) +
                                          "), after " + std::to_string(rows.size()) + " results");
      } catch (const std::exception& e) {
        // A model that cannot finish the test fails it, saying why.
        row.result.outcome = Outcome::Fail;
        row.result.measured = std::string("stopped: ") + e.what();
      }
      row.result.seconds = since(began);
      printRow(row, first);
      first = false;
      rows.push_back(std::move(row));
    }
  }
  RunInfo info{settings, backendKindName(backend), o.model, todayUtc(), machineDescription(), since(start)};
  const Summary summary = summarize(tests, rows);
  std::printf("\n%s\n", summaryLine(summary, info.seconds).c_str());

  std::optional<OutputFile> json, markdown;
  if (!o.jsonPath.empty()) {
    json.emplace(o.jsonPath);
    writeJson(json->stream(), info, tests, rows);
  }
  if (!o.markdownPath.empty()) {
    markdown.emplace(o.markdownPath);
    writeMarkdown(markdown->stream(), info, tests, rows);
  }
  std::optional<OutputFile> fundamentalDiagram, bottleneckFlow;
  if (!o.svgDir.empty()) {
    const std::filesystem::path dir(o.svgDir);
    for (const auto& [id, name, write, figure] :
         {std::tuple{kFundamentalDiagramId, "fundamental-diagram.svg", &writeFundamentalDiagram,
                     &fundamentalDiagram},
          std::tuple{kWidthSeriesId, "bottleneck-flow.svg", &writeBottleneckFlow, &bottleneckFlow}}) {
      if (!hasFigure(rows, id)) continue;
      figure->emplace((dir / name).string());
      write((*figure)->stream(), rows);
    }
  }
  commitOutputs({&json, &markdown, &fundamentalDiagram, &bottleneckFlow});
  for (const std::optional<OutputFile>* figure : {&fundamentalDiagram, &bottleneckFlow}) {
    if (!*figure || !o.png) continue;
    const std::string png = std::filesystem::path((*figure)->path()).replace_extension(".png").string();
    if (const std::string problem = svgToPng((*figure)->path(), png); !problem.empty()) {
      std::fprintf(stderr, "crowdsim verify: %s\n", problem.c_str());
      return kExitFailure;
    }
    std::printf("wrote %s\n", png.c_str());
  }
  return summary.failed.empty() ? kExitSuccess : kExitFailure;
}

}  // namespace

Command verifyCommand() {
  auto options = std::make_shared<VerifyOptions>();
  return Command{"verify",
                 "Run the RiMEA and NIST verification tests with each pedestrian model and report pass/fail",
                 [options](CLI::App& app) { addVerifyOptions(app, *options); },
                 [options] { return runVerify(*options); }};
}

}  // namespace crowd::cli
