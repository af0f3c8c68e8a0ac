// crowdsim ensemble: one target run with many seeds and parameter values, each run as
// `crowdsim run` would run it, shared between MPI ranks where mpirun started several (rank r
// takes the r-th, (r + size)-th, ... of the runs still to do) and tabulated by rank 0 in run
// order, so that the table is the same byte for byte whoever ran what. Rank 0 journals each
// finished run (ensemble/journal.hpp) so that a stopped ensemble resumes; a run that throws is
// tried again and, failing still, kept in the table as failed.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <crowd/output_file.hpp>
#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/scenario_spec.hpp>
#include <crowd/stop_request.hpp>
#include <crowd/version.hpp>

#include "command.hpp"
#include "commands/run.hpp"
#include "ensemble/ensemble_plan.hpp"
#include "ensemble/ensemble_table.hpp"
#include "ensemble/journal.hpp"
#include "ensemble/ranks.hpp"
#include "ensemble/run_record.hpp"
#include "ensemble/seed_list.hpp"
#include "exit_codes.hpp"
#include "model_override.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "progress_line.hpp"
#include "stop_signals.hpp"
#include "targets.hpp"

namespace crowd::cli {
namespace {

struct EnsembleOptions {
  std::vector<std::string> target;
  std::string seeds;
  std::vector<std::string> vary;
  std::optional<std::size_t> agents;
  std::optional<std::int64_t> steps;
  bool allSteps = false;
  std::string model;
  std::string avoidance;
  bool exactRvo2 = false;
  int threads = 1;
  std::string backend = "auto";
  std::string outPath;
  std::string summaryPath;
  int retries = 1;
  double stableTolerance = 0.01;
  bool quiet = false;
};

// What the options make of the ensemble, the same on every rank.
struct EnsemblePlan {
  std::vector<Variation> variations;
  std::vector<PlannedRun> runs;
  nlohmann::json arguments;  ///< What a journal must match to be resumed.
};

bool varies(const std::vector<Variation>& variations, const char* key) {
  return std::any_of(variations.begin(), variations.end(),
                     [key](const Variation& v) { return v.key == key; });
}

// The target can be read, and the options and variations go together; nothing is run yet.
void checkTarget(const EnsembleOptions& o, const std::vector<Variation>& variations) {
  if (o.target.empty())
    throw std::invalid_argument("ensemble needs a target: a scenario file or 'builtin NAME'");
  const bool builtin = o.target[0] == "builtin";
  if (builtin) {
    if (o.target.size() != 2) throw ScenarioError("usage: builtin NAME (see 'crowdsim scenarios')");
    const std::vector<std::string> names = builtinScenarioNames();
    if (std::find(names.begin(), names.end(), o.target[1]) == names.end() &&
        !isBuiltinScenario3(o.target[1])) {
      builtinScenario(o.target[1], 1);  // Throws the library's refusal, with the nearest name.
    }
  } else {
    if (o.target.size() != 1) throw ScenarioError("expected one scenario file or 'builtin NAME'");
    if (o.agents || varies(variations, "agents")) {
      throw ScenarioError(
          "--agents and --vary agents apply to built-in scenarios; a file lists its own agents");
    }
    if (!isTarget3d(o.target)) parseScenarioSpec(scenarioText(o.target[0]), o.target[0]);
  }
  const std::pair<const char*, bool> given[] = {{"agents", o.agents.has_value()},
                                                {"steps", o.steps.has_value()},
                                                {"model", !o.model.empty()},
                                                {"avoidance", !o.avoidance.empty()}};
  for (const auto& [key, set] : given) {
    if (set && varies(variations, key)) {
      throw std::invalid_argument(std::string("--") + key + " and --vary " + key + " both set it; give one");
    }
  }
  const bool model = !o.model.empty() || varies(variations, "model");
  if (model && (!o.avoidance.empty() || varies(variations, "avoidance"))) {
    throw std::invalid_argument("a model and an avoidance override exclude each other, as in 'crowdsim run'");
  }
}

EnsemblePlan planEnsemble(const EnsembleOptions& o) {
  EnsemblePlan plan;
  const std::vector<std::uint64_t> seeds = parseSeedList(o.seeds);
  for (const std::string& text : o.vary) plan.variations.push_back(parseVariation(text));
  checkTarget(o, plan.variations);
  plan.runs = planRuns(seeds, plan.variations);
  nlohmann::json vary = nlohmann::json::array();
  for (const Variation& v : plan.variations) vary.push_back({v.key, v.values});
  // Everything that changes a run's figures (threads, backend and ranks do not).
  plan.arguments = {{"target", o.target},
                    {"seeds", o.seeds},
                    {"vary", vary},
                    {"agents", o.agents ? nlohmann::json(*o.agents) : nlohmann::json()},
                    {"steps", o.steps ? nlohmann::json(*o.steps) : nlohmann::json()},
                    {"allSteps", o.allSteps},
                    {"model", o.model},
                    {"avoidance", o.avoidance},
                    {"exactRvo2", o.exactRvo2},
                    {"crowd", std::string(version()) + " " + gitRevision()}};
  return plan;
}

// One run, as `crowdsim run` with these options and values runs it, quietly; throws as it does.
std::string runOnce(const EnsembleOptions& o, const std::vector<Variation>& variations,
                    const PlannedRun& planned, int threads) {
  RunOptions r;
  r.target = o.target;
  r.agents = o.agents;
  r.steps = o.steps;
  r.threads = threads;
  r.seed = planned.seed;
  r.backend = o.backend;
  r.allSteps = o.allSteps;
  r.quiet = true;
  r.exactRvo2 = o.exactRvo2;
  r.avoidance = o.avoidance;
  r.model = o.model;
  for (std::size_t v = 0; v < variations.size(); ++v) {
    const std::string& key = variations[v].key;
    const std::string& value = planned.values[v];
    if (key == "agents") r.agents = std::stoull(value);
    if (key == "steps") r.steps = std::stoll(value);
    if (key == "model") r.model = value;
    if (key == "avoidance") r.avoidance = value;
  }
  std::string metrics;
  r.metricsText = &metrics;
  runScenario(r);
  return metrics;
}

// A run tried up to 1 + retries times; a stop request is no failure and goes on up.
RunRecord runWithRetries(const EnsembleOptions& o, const std::vector<Variation>& variations,
                         const PlannedRun& planned, int threads) {
  RunRecord record{planned.index, planned.seed, planned.values, false, 0, {}, {}};
  while (record.attempts <= o.retries) {
    ++record.attempts;
    try {
      record.figures = figuresOfMetrics(nlohmann::json::parse(runOnce(o, variations, planned, threads)));
      record.ok = true;
      record.error.clear();
      return record;
    } catch (const Interrupted&) {
      throw;
    } catch (const std::exception& e) {
      if (const int signal = stopRequested(); signal != 0) throw Interrupted(signal, e.what());
      record.error = e.what();
    }
  }
  return record;
}

// Rank 0's answer to "what is left to run": the runs the journal lacks, or why it cannot go on.
struct Pending {
  std::vector<std::size_t> runs;
  std::string error;
};

std::string pendingText(const Pending& p) {
  return nlohmann::json{{"runs", p.runs}, {"error", p.error}}.dump();
}
Pending pendingFrom(const std::string& text) {
  const nlohmann::json doc = nlohmann::json::parse(text);
  return {doc["runs"].get<std::vector<std::size_t>>(), doc["error"].get<std::string>()};
}

// Rank 0: the table and summary in place together, the journal gone; the exit code.
int finish(const EnsembleOptions& o, const EnsemblePlan& plan, std::vector<RunRecord> records,
           Journal& journal) {
  std::sort(records.begin(), records.end(),
            [](const RunRecord& a, const RunRecord& b) { return a.index < b.index; });
  std::optional<OutputFile> table(std::in_place, o.outPath);
  const std::string text = ensembleTable(plan.variations, records);
  std::fwrite(text.data(), 1, text.size(), table->stream());
  const nlohmann::json summary = ensembleSummary(plan.variations, records, o.stableTolerance);
  std::optional<OutputFile> summaryFile;
  if (!o.summaryPath.empty()) {
    summaryFile.emplace(o.summaryPath);
    const std::string json = summary.dump(2) + "\n";
    std::fwrite(json.data(), 1, json.size(), summaryFile->stream());
  }
  OutputFile::commitTogether({&*table, summaryFile ? &*summaryFile : nullptr});
  journal.remove();
  const std::size_t failed = static_cast<std::size_t>(
      std::count_if(records.begin(), records.end(), [](const RunRecord& r) { return !r.ok; }));
  if (!o.quiet) std::fputs(summaryText(summary).c_str(), stdout);
  for (const RunRecord& r : records) {
    if (!r.ok) {
      std::cerr << "crowdsim: run " << r.index << " (seed " << r.seed << ") failed " << r.attempts
                << (r.attempts == 1 ? " time: " : " times: ") << r.error << "\n";
    }
  }
  if (!o.quiet) std::printf("wrote %s (%zu runs, %zu failed)\n", o.outPath.c_str(), records.size(), failed);
  return failed > 0 ? kExitFailure : kExitSuccess;
}

// `sharing` is set while the ranks run their shares, when a rank that stops alone would leave
// the others waiting for it.
int runOnRanks(const EnsembleOptions& o, const Ranks& ranks, bool& sharing) {
  EnsemblePlan plan;
  try {
    plan = planEnsemble(o);
    if (ranks.isRoot()) {
      const bool fromFile = o.target.size() == 1 && o.target[0] != "builtin";
      checkOutputPaths({{"--out", o.outPath}, {"--summary", o.summaryPath}},
                       {fromFile ? o.target[0] : std::string()}, "the scenario file");
    }
  } catch (const std::exception&) {
    if (ranks.isRoot()) throw;
    return kExitBadInput;  // Rank 0 says why.
  }
  // Rank 0 reads the journal and tells every rank what is left.
  std::unique_ptr<Journal> journal;
  Pending pending;
  std::string message;
  if (ranks.isRoot()) {
    try {
      journal = std::make_unique<Journal>(journalPath(o.outPath), plan.arguments, plan.runs.size());
      std::vector<bool> done(plan.runs.size(), false);
      for (const RunRecord& r : journal->resumed()) done[r.index] = true;
      for (const PlannedRun& run : plan.runs) {
        if (!done[run.index]) pending.runs.push_back(run.index);
      }
    } catch (const std::exception& e) {
      pending.error = e.what();
    }
    message = pendingText(pending);
  }
  ranks.broadcast(message);
  if (!ranks.isRoot()) pending = pendingFrom(message);
  if (!pending.error.empty()) {
    if (ranks.isRoot()) throw std::invalid_argument(pending.error);
    return kExitBadInput;
  }
  // One thread a run unless told otherwise: side by side each rank has a core, and one at a time
  // many small runs spend more waking threads than stepping (100 runs of 100 people on a busy
  // 2-core machine: 4.1 s on one thread each, 28 to 41 s with run's default; docs/ensembles.md).
  // 0 leaves the choice to each run, as `crowdsim run` makes it.
  const int threads = o.threads;
  if (threads > 0) omp_set_num_threads(threads);

  std::vector<RunRecord> records;
  if (journal) records = journal->resumed();
  if (!records.empty() && !o.quiet) {
    std::cerr << "crowdsim: resuming the ensemble: " << records.size() << " of " << plan.runs.size()
              << " runs were done already (" << journalPath(o.outPath) << ")\n";
  }
  ProgressLine progress(o.quiet || !ranks.isRoot());
  const std::size_t total = plan.runs.size();
  const auto received = [&](RunRecord record) {
    journal->append(record);
    records.push_back(std::move(record));
    progress.update("ensemble: %zu of %zu runs done   ", records.size(), total);
  };
  const auto where = [&] {
    return "after " + std::to_string(records.size()) + " of " + std::to_string(total) + " runs; " +
           journalPath(o.outPath) + " keeps them: the same command again resumes the ensemble";
  };
  sharing = true;
  try {
    for (std::size_t k = static_cast<std::size_t>(ranks.rank()); k < pending.runs.size();
         k += static_cast<std::size_t>(ranks.size())) {
      RunRecord record = runWithRetries(o, plan.variations, plan.runs[pending.runs[k]], threads);
      if (!ranks.isRoot()) {
        ranks.sendToRoot(toJournalLine(record));
        continue;
      }
      received(std::move(record));
      while (std::optional<std::string> line = ranks.poll()) received(fromJournalLine(*line));
    }
    if (!ranks.isRoot()) {
      ranks.awaitRelease();
      sharing = false;
      return kExitSuccess;
    }
    while (records.size() < total) {
      if (std::optional<std::string> line = ranks.poll()) {
        received(fromJournalLine(*line));
        continue;
      }
      throwIfStopRequested("while waiting for the other ranks");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  } catch (const Interrupted& e) {
    progress.clear();
    throw Interrupted(e.signal(), ranks.isRoot() ? where() : e.what());
  }
  progress.clear();
  // Every run is in: the other ranks go on to their end (MPI_Finalize) and wait there for this one.
  ranks.releaseOthers();
  sharing = false;
  return finish(o, plan, std::move(records), *journal);
}

int runEnsemble(const EnsembleOptions& o) {
  catchStopSignals();
  Ranks ranks;
  bool sharing = false;
  try {
    return runOnRanks(o, ranks, sharing);
  } catch (const std::exception& e) {
    // Bad input is found by every rank alike (or by rank 0 and told to the others), and the
    // outputs are written once every rank is done: each rank ends in its own time.
    if (ranks.size() == 1 || !sharing) throw;
    // Amid the runs the others would wait for this rank for ever: said here, then every rank ends.
    const auto* stop = dynamic_cast<const Interrupted*>(&e);
    std::cerr << "crowdsim: " << (stop ? "interrupted " : "error: ") << "(rank " << ranks.rank() << ") "
              << e.what() << "\n";
    ranks.abort(stop ? stoppedExitCode(stop->signal()) : kExitFailure);
    throw;
  }
}

void addEnsembleOptions(CLI::App& app, EnsembleOptions& o) {
  app.add_option("target", o.target, "A scenario file, or 'builtin NAME' (see 'crowdsim scenarios')")
      ->expected(1, 2)
      ->required();
  app.add_option("--seeds", o.seeds,
                 "The seeds, one run each: ranges and seeds such as 1-1000 or 1-10,20,30-39")
      ->required();
  app.add_option(
      "--vary", o.vary,
      "KEY=V1,V2,...: run every seed with each value (repeatable: every combination); keys: agents, "
      "model, avoidance, steps");
  addAgentsOption(app, o.agents);
  app.add_option("--steps", o.steps, "Steps to run (overrides the scenario's 'steps'); a whole number")
      ->check(wholeNumberUpTo(static_cast<std::uint64_t>(INT64_MAX)));
  app.add_flag("--all-steps", o.allSteps, "Run every step even after all agents have arrived");
  CLI::Option* avoidance =
      app.add_option("--avoidance", o.avoidance, "Override every agent's avoidance: orca or none")
          ->check(CLI::IsMember({"orca", "none"}));
  app.add_option("--model", o.model, "Override every agent's motion model, as 'crowdsim run --model'")
      ->check(CLI::IsMember(modelOverrideNames()))
      ->excludes(avoidance);
  app.add_flag("--exact-rvo2", o.exactRvo2, "RVO2's results to the bit, as 'crowdsim run --exact-rvo2'");
  app.add_option("--threads", o.threads,
                 "CPU threads of each run (default 1: runs side by side on ranks, or many small runs one "
                 "after another, gain nothing from more; 0: as 'crowdsim run' chooses)")
      ->check(kWholeNumber)
      ->check(CLI::Range(0, kMaxThreads));
  addBackendOption(app, o.backend);
  app.add_option("--out", o.outPath,
                 "The table (CSV, one row per run); TABLE.journal beside it journals the finished runs until "
                 "the table is written")
      ->required()
      ->check(kPathGiven);
  app.add_option(
         "--summary", o.summaryPath,
         "Write the summary as JSON: per combination of --vary values, each column's mean, sd, min, p5, "
         "p50, p95, max and the runs for a stable mean")
      ->check(kPathGiven);
  app.add_option("--retries", o.retries,
                 "Tries again a run that fails this many times before it is kept as failed")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  app.add_option(
         "--stable-tolerance", o.stableTolerance,
         "Runs for a stable mean: from which run on the running mean stays within this share of the final "
         "mean (0.01: 1%)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_flag("-q,--quiet", o.quiet, "Print nothing but errors");
}

}  // namespace

Command ensembleCommand() {
  auto options = std::make_shared<EnsembleOptions>();
  return Command{
      "ensemble",
      "Run a target with many seeds and parameter values (over MPI ranks under mpirun) into one table",
      [options](CLI::App& app) { addEnsembleOptions(app, *options); },
      [options] { return runEnsemble(*options); }};
}

}  // namespace crowd::cli
