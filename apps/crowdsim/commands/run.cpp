// crowdsim run: steps a scenario file or a built-in, planar or 3D, to its end (or until every
// agent has arrived), writing the trajectories and metrics asked for, and prints a summary. The
// outputs are put in place only when the run completes; Ctrl-C stops it between two steps.
// -q leaves nothing on stdout or stderr but errors; the scenario's warnings are then found in the
// metrics JSON only. The summary goes to stderr when an output is written to stdout, so that the
// output there can be parsed as it is.
#include "commands/run.hpp"

#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include <crowd/crowd.hpp>
#include <crowd/measurement_sampler.hpp>
#include <crowd/output_file.hpp>
#include <crowd/stop_request.hpp>
#include <crowd/version.hpp>

#include "command.hpp"
#include "exit_codes.hpp"
#include "measurement_summary.hpp"
#include "model_override.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "progress_line.hpp"
#include "stop_signals.hpp"
#include "summary.hpp"
#include "targets.hpp"
#include "work_reports.hpp"

namespace crowd::cli {
namespace {

constexpr const char* kDefaultScenario = "circle";
constexpr std::size_t kDefaultAgents = 2000;

// Both outputs writable, distinct, and neither `input`, a file the run reads (`inputKind`).
void checkRunOutputs(const RunOptions& o, const std::string& input, const char* inputKind) {
  checkOutputPaths({{"--out", o.outPath}, {"--metrics", o.metricsPath}}, {input}, inputKind);
}

// "1.5 s": seconds as a person writes them.
std::string formatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

// What the trajectory file states: the kept steps' frame rate and, for a JuPedSim database, the
// walkable area (warned when obstacles overlap: a polygon library must merge their holes).
template <class World, class Sim>
TrajectorySettings trajectorySettings(const RunOptions& o, const World& scenario, const Sim& sim) {
  bool overlapping = false;
  TrajectorySettings settings;
  if constexpr (std::is_same_v<Sim, Simulator>) {
    settings = trajectorySettingsFor(o.outPath, sim, &overlapping);
  } else {
    settings = trajectorySettingsFor(o.outPath, sim);
  }
  settings.timeStep = writtenTimeStep(scenario.timeStep);
  settings.everySteps = o.outEvery;
  settings.seed = scenario.seed;
  // The window in seconds, as steps: the first step at or after `from`, the last at or before `to`.
  const double step = settings.timeStep;
  const auto asStep = [](double rounded) {  // Past any run's length (or infinite): no bound.
    return rounded < 9e18 ? static_cast<std::int64_t>(rounded) : std::numeric_limits<std::int64_t>::max();
  };
  if (o.outFrom) settings.firstStep = asStep(std::ceil(*o.outFrom / step - 1e-9));
  if (o.outTo) settings.lastStep = asStep(std::floor(*o.outTo / step + 1e-9));
  if (settings.firstStep > settings.lastStep) {
    throw std::invalid_argument("--out-from " + formatSeconds(o.outFrom.value_or(0.0)) + " to --out-to " +
                                formatSeconds(o.outTo.value_or(0.0)) + " holds no step of " +
                                formatSeconds(step));
  }
  if (overlapping && !o.quiet) {
    std::cerr << "crowdsim: warning: obstacles overlap, so the walkable area in " << o.outPath
              << " has overlapping holes; merge them (shapely.make_valid) before measuring areas\n";
  }
  return settings;
}

// Steps `sim` through the scenario, observing each step, writing the outputs and the summary:
// the same for a planar world (Scenario, Simulator) and a 3D one (Scenario3, Simulator3).
template <class World, class Sim>
int runWorld(const RunOptions& o, const World& scenario, Sim& sim, int threads) {
  std::optional<TrajectoryWriter> trajectory;
  if (!o.outPath.empty()) trajectory.emplace(o.outPath, trajectorySettings(o, scenario, sim));
  MetricsCollector metrics;
  if constexpr (std::is_same_v<World, Scenario>) metrics.setUnreachableAtStart(scenario.unreachableAgents);
  metrics.observe(sim);
  if (trajectory) trajectory->write(sim);
  // The scenario's measurement areas and lines (a planar file's "measure"), observed at the start
  // and every interval of simulated time.
  std::optional<MeasurementSampler> sampler;
  if constexpr (std::is_same_v<World, Scenario>) {
    if (scenario.measure) {
      MeasurementPlan plan = *scenario.measure;
      plan.threads = threads;
      sampler.emplace(std::move(plan), sim);
    }
  }

  ProgressLine progress(o.quiet);
  const auto start = std::chrono::steady_clock::now();
  const std::size_t withGoal = metrics.result().agentsWithGoal;
  // A run ends early once everyone with a goal has arrived: where everyone has one, or where the
  // scenario says the others have no end of their own.
  const bool endsOnArrivals = withGoal > 0 && (withGoal == sim.agentCount() || scenario.endWhenGoalsReached);
  for (std::int64_t s = 0; s < scenario.steps; ++s) {
    // A stop signal (stop_signals.hpp): the outputs' temporary files are removed on the way
    // out; the old files stay as they were.
    throwIfStopRequested(s);
    sim.step();
    metrics.observe(sim);
    if constexpr (std::is_same_v<World, Scenario>) {
      if (sampler) sampler->afterStep(sim);
    }
    if (trajectory) trajectory->write(sim);
    progress.update("step %lld/%lld  arrived %zu/%zu  %.2f ms/step   ", static_cast<long long>(s + 1),
                    static_cast<long long>(scenario.steps), metrics.result().arrived, withGoal,
                    sim.lastStepTimes().total());
    // Stop once every agent has arrived, unless asked to run every step.
    if (!o.allSteps && endsOnArrivals && metrics.result().arrived == withGoal) break;
  }
  progress.clear();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const RunMetrics& m = metrics.result();
  std::optional<OutputFile> metricsFile;
  if (!o.metricsPath.empty() || o.metricsText != nullptr) {
    // The scenario's warnings: printed unless -q, and kept here either way.
    const RunFacts facts{scenario.name,     scenario.seed,
                         scenario.warnings, std::is_same_v<Sim, Simulator3> ? 3 : 2,
                         sim.backendName(), scenario.timeStep};
    nlohmann::json doc = nlohmann::json::parse(runMetricsJson(m, facts));
    doc["threads"] = threads;
    if (trajectory) {
      const TrajectorySettings& kept = trajectory->settings();
      doc["trajectory"] = {
          {"path", o.outPath},
          {"format", trajectoryFormatName(trajectory->format())},
          {"everySteps", kept.everySteps},
          {"firstStep", kept.firstStep},
          {"lastStep", kept.lastStep == std::numeric_limits<std::int64_t>::max()
                           ? nlohmann::json()
                           : nlohmann::json(kept.lastStep)},
          {"frames", trajectory->framesWritten()},
          {"writerStalls", trajectory->stalls()},
          {"writerStallSeconds", trajectory->stallSeconds()},
          {"frameRate", kept.timeStep > 0.0 ? nlohmann::json(trajectoryFrameRate(kept)) : nlohmann::json()}};
    }
    doc["wallSeconds"] = wall;
    if (sampler) doc["measurements"] = nlohmann::json::parse(sampler->measurements().toJson());
    const std::string text = doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (o.metricsText != nullptr) *o.metricsText = text;
    if (!o.metricsPath.empty()) {
      metricsFile.emplace(o.metricsPath);
      std::fwrite(text.data(), 1, text.size(), metricsFile->stream());
    }
  }
  // Both in place, or neither.
  OutputFile::commitTogether(
      {trajectory ? trajectory->file() : nullptr, metricsFile ? &*metricsFile : nullptr});
  if (o.quiet) return kExitSuccess;
  std::FILE* report = writesToStdout(o.outPath) || writesToStdout(o.metricsPath) ? stderr : stdout;
  printSummary(report, scenario, sim, m, threads, wall);
  // Said where it cost something (a wait of a few milliseconds is the thread waking up).
  if (trajectory && trajectory->stallSeconds() >= 0.5) {
    std::cerr << "crowdsim: note: " << trajectory->stalls() << " of " << trajectory->framesWritten()
              << " kept steps waited " << formatSeconds(trajectory->stallSeconds())
              << " in all for the trajectory writer (the disk or the format is slower than the step); "
                 "--out-every K keeps fewer\n";
  }
  if (sampler) printMeasurementSummary(report, sampler->measurements());
  return kExitSuccess;
}

void announceBackend(const RunOptions& o, const std::string& name, BackendKind backend,
                     const std::string& why) {
  if (o.quiet) return;
  const bool cpu = name == backendKindName(BackendKind::Cpu);
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  const std::string threadsText = std::string(o.threads > 0 ? "" : "up to ") + std::to_string(threads) +
                                  (threads == 1 ? " thread" : " threads");
  if (backend == BackendKind::Auto && cpu && !why.empty()) {
    // "no GPU found (no NVIDIA driver); running on the CPU (up to 2 threads)".
    std::cerr << "crowdsim: " << why << "; running on the CPU (" << threadsText << ")\n";
    return;
  }
  std::cerr << "crowdsim: backend " << name;
  if (cpu) std::cerr << " (" << threadsText << ")";
  std::cerr << "\n";
}

// Sets the run's options on `sim`, readies its backend (a world the device cannot hold fails
// here, before any output is written), says which backend runs it, and runs it.
template <class World, class Sim>
int startRun(const RunOptions& o, const World& scenario, Sim& sim, BackendKind backend,
             const std::string& why) {
  SimulatorConfig config = sim.config();
  config.exactRvo2 = o.exactRvo2;
  sim.setConfig(config);
  sim.prepare();
  announceBackend(o, sim.backendName(), backend, why);
  return runWorld(o, scenario, sim, o.threads > 0 ? o.threads : omp_get_max_threads());
}

int runScenario3(const RunOptions& o, BackendKind backend, const std::string& why) {
  if (o.orca || !o.avoidance.empty() || !o.model.empty()) {
    throw ScenarioError(
        "--model, --avoidance and --orca are for planar scenarios; 3D agents always avoid by ORCA");
  }
  Scenario3 scenario = loadScenario3Target(o.target, o.agents, o.seed);
  if (!o.quiet) warn(scenario.warnings);
  if (o.steps) scenario.steps = *o.steps;
  Simulator3 sim = makeSimulator3(scenario, o.threads, backend);
  return startRun(o, scenario, sim, backend, why);
}

void addRunOptions(CLI::App& run, RunOptions& o) {
  run.add_option(
         "target", o.target,
         "A scenario file, or 'builtin NAME' (see 'crowdsim scenarios'); none: builtin circle, 2,000 agents")
      ->expected(0, 2);
  addAgentsOption(run, o.agents);
  run.add_option("--steps", o.steps, "Steps to run (overrides the scenario's 'steps'); a whole number")
      ->check(wholeNumberUpTo(static_cast<std::uint64_t>(INT64_MAX)));
  addThreadsOption(run, o.threads);
  run.add_option("--seed", o.seed, "Seed for random placement and goals, 0 to 2^64 - 1")->check(kWholeNumber);
  addBackendOption(run, o.backend);
  CLI::Option* out =
      run.add_option(
             "--out", o.outPath,
             "Write trajectories, in the format the extension names: .txt PeTrack text (id frame x y z, "
             "as PedPy reads it), .sqlite or .db JuPedSim's database and .h5 the data archive's HDF5 (both "
             "with the walkable area), anything else CSV rows step,agent,x,y,vx,vy,time (step 0 = initial "
             "state, time in s)")
          ->check(kPathGiven);
  run.add_option("--out-every", o.outEvery,
                 "Keep every K-th step in --out (steps 0, K, 2K, ...; the frame rate says so), default 1")
      ->check(CLI::Range(static_cast<std::int64_t>(1), static_cast<std::int64_t>(INT64_MAX)))
      ->needs(out);
  run.add_option("--out-from", o.outFrom,
                 "Keep steps in --out from this many seconds on (default: the start)")
      ->check(CLI::NonNegativeNumber)
      ->needs(out);
  run.add_option("--out-to", o.outTo, "Keep steps in --out up to this many seconds (default: the end)")
      ->check(CLI::NonNegativeNumber)
      ->needs(out);
  run.add_option("--metrics", o.metricsPath, "Write run metrics as JSON")->check(kPathGiven);
  run.add_flag("--all-steps", o.allSteps, "Run every step even after all agents have arrived");
  run.add_flag(
      "-q,--quiet", o.quiet,
      "Print nothing but errors: no summary, progress line, backend notice, note or warning (--metrics "
      "keeps the warnings)");
  run.add_flag(
      "--exact-rvo2", o.exactRvo2,
      "RVO2's results to the bit: no deadlock breaking (jitter, sidestep), no speed clamp and no repair "
      "of obstacle lines at a touched vertex");
  CLI::Option* avoidance =
      run.add_option("--avoidance", o.avoidance,
                     "Override every agent's avoidance: 'orca' (ORCA turns the steered velocity into a "
                     "collision-free one) or 'none' (the steered velocity is final; only the "
                     "behaviours avoid)")
          ->check(CLI::IsMember({"orca", "none"}));
  run.add_flag("--orca", o.orca, "Shorthand for --avoidance orca (e.g. 'run builtin forest --orca')")
      ->excludes(avoidance);
  run.add_option(
         "--model", o.model,
         "Override every agent's motion model: orca, none, csm (collision-free speed model), socialforce "
         "(cuts the time step to 0.01 s) or orca-density (ORCA with the density-aware speed)")
      ->check(CLI::IsMember(modelOverrideNames()))
      ->excludes(avoidance);
}

}  // namespace

int runScenario(const RunOptions& o) {
  catchStopSignals();  // From the start: a stop while loading or writing step 0 unwinds too.
  if (o.quiet) quietWorkProgress();
  const BackendKind backend = backendNamed(o.backend);
  requireBackend(backend);  // Before anything is loaded or written: no partial output.
  std::string why;
  if (backend != BackendKind::Cpu) cudaBackendAvailable(&why);
  const bool fromFile = o.target.size() == 1 && o.target[0] != "builtin";
  checkRunOutputs(o, fromFile ? o.target[0] : std::string(), "the scenario file");
  if (isTarget3d(o.target)) return runScenario3(o, backend, why);
  Scenario scenario = loadScenarioTarget(o.target, o.agents, o.seed, kDefaultScenario, kDefaultAgents);
  // The files the scenario file names are known once it is read.
  checkRunOutputs(o, scenario.mapFile, "the scenario's map file");
  if (!o.quiet) warn(scenario.warnings);
  if (o.steps) scenario.steps = *o.steps;
  if (o.orca || !o.avoidance.empty()) {
    const AvoidanceMode mode = o.orca || o.avoidance == "orca" ? AvoidanceMode::Orca : AvoidanceMode::None;
    for (AgentDef& agent : scenario.agents) agent.behavior.avoidance = mode;
  }
  if (!o.model.empty()) overrideModel(scenario, o.model);
  Simulator sim = makeSimulator(scenario, o.threads, backend);
  return startRun(o, scenario, sim, backend, why);
}

Command runCommand() {
  auto options = std::make_shared<RunOptions>();
  return Command{"run", "Run a scenario file or a built-in scenario and print a summary",
                 [options](CLI::App& app) { addRunOptions(app, *options); },
                 [options] { return runScenario(*options); }};
}

}  // namespace crowd::cli
