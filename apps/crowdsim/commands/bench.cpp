// crowdsim bench: sweeps agent counts at fixed density for built-in scenarios and prints the
// cost of a step per phase, the steering phase's share of it, neighbour candidates per agent and
// agent-steps per second. `--scenario mix` is the steering benchmark: every behaviour at once.
// `--busy N` runs the sweep beside N processes that keep cores busy: how the step copes with a
// loaded machine.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include <crowd/crowd.hpp>
#include <crowd/output_file.hpp>
#include <crowd/stop_request.hpp>
#include <crowd/version.hpp>

#include "busy_processes.hpp"
#include "command.hpp"
#include "commands/bench_check.hpp"
#include "exit_codes.hpp"
#include "model_override.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "stop_signals.hpp"
#include "strict_integer.hpp"

namespace crowd::cli {
namespace {

struct BenchOptions {
  std::vector<std::string> scenarios{"circle", "random"};
  std::vector<std::size_t> agents{1000, 10000, 100000};
  std::vector<std::string> backends;  // Empty: the CPU, and the GPU when there is one.
  std::vector<std::string> models;    // Empty: each scenario's own.
  int steps = 20;
  int warmup = 3;
  int threads = 0;
  int busy = 0;  // Busy processes beside the sweep.
  std::uint64_t seed = 1;
  std::string jsonPath;
  std::string checkPath;  // A stored results file to compare the cost figures with.
  bool exactRvo2 = false;
  std::string write;            // --write: a trajectory format (txt, csv, sqlite) written while timing.
  std::int64_t writeEvery = 1;  // --write-every: keep every K-th step.
};

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", std::gmtime(&now));
  return buffer;
}

// Steps and time after which a step left to choose its threads has tried every count on a
// machine with up to 8 cores: 0.2 s and 4 steps of one thread, then a warm-up and 4 trial steps
// of each other count, 8 steps apart.
constexpr int kSettlingSteps = 1 + 4 + 3 * 13;
constexpr std::chrono::milliseconds kSettlingTime{500};

// Times one built-in at one agent count on one backend: prints its row and returns its JSON.
// The same for a planar world (Simulator) and a 3D one (Simulator3).
template <class Sim>
nlohmann::json benchPoint(const BenchOptions& o, const std::string& name, std::size_t agents, int threads,
                          Sim& sim) {
  SimulatorConfig config = sim.config();
  config.exactRvo2 = o.exactRvo2;
  sim.setConfig(config);
  // With --threads 0 the step settles on its thread count over its first steps and 0.2 s (see
  // host/src/sim/cpu/thread_governor.hpp); those are warm-up too, not timed.
  const int warmup = o.threads > 0 ? o.warmup : std::max(o.warmup, kSettlingSteps);
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < warmup || (o.threads == 0 && std::chrono::steady_clock::now() - start < kSettlingTime);
       ++s) {
    throwIfStopRequested("while warming up");  // The CPU's step polls too; the GPU's does not.
    sim.step();
  }
  // With --write, trajectories are written as `run --out` writes them, into a file removed
  // afterwards; the step's own times stay the step's, and the wall time around step and write
  // (with the writer's last frames at the end) says what writing adds.
  std::optional<TrajectoryWriter> writer;
  const std::filesystem::path writePath = std::filesystem::temp_directory_path() /
                                          ("crowdsim_bench_" + std::to_string(::getpid()) + "." + o.write);
  if (!o.write.empty()) {
    TrajectorySettings settings = trajectorySettingsFor(writePath.string(), sim);
    settings.everySteps = o.writeEvery;
    settings.firstStep = sim.stepCount() + 1;  // The timed steps only.
    writer.emplace(writePath.string(), settings);
  }
  const auto wallStart = std::chrono::steady_clock::now();
  PhaseTimes sum;
  std::vector<double> totals;
  double candidates = 0;
  double orcaLines = 0;
  double agentSteps = 0;
  double planCandidates = 0;
  for (int s = 0; s < o.steps; ++s) {
    throwIfStopRequested("while timing steps");
    const double live = static_cast<double>(sim.agentCount());
    sim.step();
    if (writer) writer->write(sim);
    sum += sim.lastStepTimes();
    totals.push_back(sim.lastStepTimes().total());
    candidates += sim.lastCandidatesPerAgent();
    orcaLines += sim.lastOrcaLinesPerAgent() * live;
    agentSteps += live;
    if constexpr (std::is_same_v<Sim, Simulator>)
      planCandidates += static_cast<double>(sim.lastPlanCandidates());
  }
  nlohmann::json output;
  if (writer) {
    writer->close();
    const double wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wallStart).count();
    std::error_code sizeError;
    const std::uintmax_t fileBytes = std::filesystem::file_size(writePath, sizeError);
    std::filesystem::remove(writePath);
    const double bytesPerRow =
        !sizeError && writer->rowsWritten() > 0
            ? static_cast<double>(fileBytes) / static_cast<double>(writer->rowsWritten())
            : 0.0;
    output = {{"format", trajectoryFormatName(writer->format())},
              {"bytesPerRow", bytesPerRow},
              {"rowsWritten", writer->rowsWritten()},
              {"everySteps", o.writeEvery},
              {"framesWritten", writer->framesWritten()},
              {"wallMsPerStepWithOutput", wallMs / o.steps},
              {"writerStalls", writer->stalls()}};
  }
  const double n = o.steps;
  const PhaseTimes mean = sum / n;
  std::sort(totals.begin(), totals.end());
  const double median = totals[totals.size() / 2];
  const double rate = agentSteps / (sum.total() / 1000.0);
  const double hostBytesPerAgent = static_cast<double>(sim.memoryBytes()) / static_cast<double>(agents);
  const double bytesPerAgent = static_cast<double>(sim.deviceMemoryBytes()) / static_cast<double>(agents);
  std::printf("%-20s %10zu %8s", name.c_str(), agents, sim.backendName().c_str());
  for (double ms : mean.ms) std::printf(" %9.3f", ms);
  // The ORCA phase's cost per half-plane, over all threads: wall time times threads.
  // With --threads 0 the step picks its own count: the one its last step ran on.
  const int used = sim.lastStepThreads() > 0 ? sim.lastStepThreads() : threads;
  const double nsPerLine = orcaLines > 0 ? sum[Phase::Orca] * 1e6 * used / orcaLines : 0.0;
  // The steering phase's share of the step: the behaviours' cost next to the ORCA they feed.
  const double steeringShare = mean.total() > 0 ? mean[Phase::Steering] / mean.total() : 0.0;
  std::printf(" %9.3f %9.3f %8.1f%% %10.1f %9.1f %14.3e %9.0f %9.0f\n", mean.total(), median,
              100.0 * steeringShare, candidates / n, nsPerLine, rate, hostBytesPerAgent, bytesPerAgent);
  // The local planner's throughput: candidates costed per second of the steering phase.
  const double planRate = sum[Phase::Steering] > 0 ? planCandidates / (sum[Phase::Steering] / 1000.0) : 0.0;
  if (planCandidates > 0) {
    std::printf("%-20s %10s %8s planner: %.0f candidates a step, %.3e candidates/s in the steering phase\n",
                "", "", "", planCandidates / n, planRate);
  }
  if (!output.is_null()) {
    std::printf(
        "%-20s %10s %8s output: %s every %lld step%s, %.3f ms a step with writing (the step %.3f), %lld "
        "of %lld kept steps waited for the writer, %.1f bytes an agent row\n",
        "", "", "", trajectoryFormatName(writer->format()), static_cast<long long>(o.writeEvery),
        o.writeEvery == 1 ? "" : "s", output["wallMsPerStepWithOutput"].get<double>(), mean.total(),
        static_cast<long long>(writer->stalls()), static_cast<long long>(writer->framesWritten()),
        output["bytesPerRow"].get<double>());
  }
  std::fflush(stdout);
  nlohmann::json msPerStep;
  for (int p = 0; p < kPhaseCount; ++p) msPerStep[kPhaseNames[p]] = mean.ms[p];
  msPerStep["total"] = mean.total();
  return nlohmann::json{{"scenario", name},
                        {"dimensions", std::is_same_v<Sim, Simulator3> ? 3 : 2},
                        {"agents", agents},
                        {"backend", sim.backendName()},
                        {"threads", threads},
                        {"threadsLastStep", sim.lastStepThreads()},
                        {"steps", o.steps},
                        {"msPerStep", msPerStep},
                        {"medianMsPerStep", median},
                        {"steeringShare", steeringShare},
                        {"orcaLinesPerAgent", orcaLines / agentSteps},
                        {"orcaNsPerLineThreadTime", nsPerLine},
                        {"candidatesPerAgent", candidates / n},
                        {"agentStepsPerSecond", rate},
                        {"hostBytesPerAgent", hostBytesPerAgent},
                        {"deviceBytesPerAgent", bytesPerAgent},
                        {"planCandidatesPerStep", planCandidates / n},
                        {"planCandidatesPerSecond", planRate},
                        {"output", output}};
}

void addBenchOptions(CLI::App& app, BenchOptions& o) {
  app.add_option(
         "--scenario", o.scenarios,
         "Built-in scenarios to sweep (repeatable; mix: every steering behaviour at once; sphere and swarm "
         "are 3D)")
      ->capture_default_str();
  app.add_option("--agents", o.agents, "Agent counts, comma separated")
      ->delimiter(',')
      ->capture_default_str()
      ->check(kWholeNumber)
      ->check(CLI::Range(std::size_t{1}, static_cast<std::size_t>(limits::kMaxScenarioAgents)));
  app.add_option("--steps", o.steps, "Timed steps per point")
      ->check(kWholeNumber)
      ->check(CLI::Range(1, 1000000000))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup,
                 "Untimed steps first (with --threads 0, at least 24: the thread count settles)")
      ->check(kWholeNumber)
      ->check(CLI::Range(0, 1000000000))
      ->capture_default_str();
  app.add_option(
         "--model", o.models,
         "Motion models to compare on the planar scenarios (repeatable: orca, none, csm, socialforce, "
         "orca-density); each replaces every agent's model (socialforce cuts the time step to 0.01 s)")
      ->check(CLI::IsMember(modelOverrideNames()));
  app.add_option("--backend", o.backends,
                 "Backends to compare (repeatable; default: cpu, and cuda when a GPU is present)")
      ->check(CLI::IsMember(backendNames(false)));
  addThreadsOption(app, o.threads);
  app.add_option("--busy", o.busy,
                 "Run the sweep beside this many processes that keep a core busy each (a loaded machine)")
      ->check(kWholeNumber)
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed for the scenarios")->check(kWholeNumber)->capture_default_str();
  app.add_option("--json", o.jsonPath, "Also write the results as JSON to this file")->check(kPathGiven);
  CLI::Option* write =
      app.add_option(
             "--write", o.write,
             "Write trajectories in this format (txt, csv, sqlite or h5, as run --out writes them) while "
             "timing, into a temporary file, and report the wall time a step takes with writing")
          ->check(CLI::IsMember({"txt", "csv", "sqlite", "h5"}));
  app.add_option("--write-every", o.writeEvery, "With --write: keep every K-th step, default 1")
      ->check(CLI::Range(static_cast<std::int64_t>(1), static_cast<std::int64_t>(1000000)))
      ->needs(write);
  app.add_flag("--exact-rvo2", o.exactRvo2,
               "RVO2's results to the bit: no deadlock jitter, no speed clamp, no obstacle-vertex repair");
  app.add_option(
         "--check", o.checkPath,
         "Compare with a stored results file (benchmarks/results/*.json): the figures that do not depend "
         "on the machine (candidates and ORCA half-planes per agent) must lie within 2% at every point "
         "both hold, or the exit status is 1; times are printed beside the stored ones")
      ->check(kPathGiven);
}

int runBench(const BenchOptions& o) {
  catchStopSignals();  // Ctrl-C ends the sweep between steps; the busy processes go with it.
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  std::vector<std::string> backends = o.backends;
  std::string why;
  const bool haveGpu = cudaBackendAvailable(&why);
  if (backends.empty()) {
    backends.push_back(backendKindName(BackendKind::Cpu));
    if (haveGpu)
      backends.push_back(backendKindName(BackendKind::Cuda));
    else
      std::fprintf(stderr, "bench: CPU only (%s)\n", why.c_str());
  }
  for (const std::string& b : backends) {
    if (backendNamed(b) == BackendKind::Cuda && !haveGpu) {
      std::fprintf(stderr, "crowdsim: error: --backend cuda: %s\n", why.c_str());
      return kExitBadInput;
    }
  }
  // Before the table starts: unknown scenario names (the message lists the known ones) and an
  // unwritable --json path, so that a long sweep cannot end in nothing.
  const std::vector<std::string> planar = builtinScenarioNames();
  for (const std::string& name : o.scenarios) {
    if (!isBuiltinScenario3(name) && std::find(planar.begin(), planar.end(), name) == planar.end()) {
      (void)builtinScenario(name, 1);  // Throws ScenarioError naming it.
    }
  }
  checkOutputPaths({{"--json", o.jsonPath}}, {}, "");
  const nlohmann::json stored = o.checkPath.empty() ? nlohmann::json() : readStoredResults(o.checkPath);
  const BusyProcesses load(o.busy);  // Until the sweep ends.
  if (o.busy > 0) std::fprintf(stderr, "bench: beside %d busy process%s\n", o.busy, o.busy == 1 ? "" : "es");
  nlohmann::json results = nlohmann::json::array();
  // Phase columns come from the phase list, headed by their names cut to the column width.
  std::printf("%-20s %10s %8s", "scenario", "agents", "backend");
  for (const char* phase : kPhaseNames) std::printf(" %9.9s", phase);
  std::printf(" %9s %9s %9s %10s %9s %14s %9s %9s\n", "total", "median", "steering", "cand/agent", "ns/line",
              "agent-steps/s", "B/agent", "dev B/ag");
  std::printf("%-20s %10s %8s", "", "", "");
  for (int p = 0; p <= kPhaseCount + 1; ++p) std::printf(" %9s", "ms");
  std::printf(" %9s\n", "% of step");
  for (const std::string& name : o.scenarios) {
    for (std::size_t agents : o.agents) {
      // One scenario per agent count, timed on each backend.
      auto sweep = [&](auto scenario, auto makeSim, const std::string& label) {
        scenario.removeArrived = false;  // Every timed step at the same agent count.
        for (const std::string& backendName : backends) {
          std::fprintf(stderr, "bench: %s with %zu agents on %s...\n", label.c_str(), agents,
                       backendName.c_str());
          auto sim = makeSim(scenario, o.threads, backendNamed(backendName));
          results.push_back(benchPoint(o, label, agents, threads, sim));
        }
      };
      if (isBuiltinScenario3(name)) {
        sweep(builtinScenario3(name, agents, o.seed), makeSimulator3, name);
      } else if (o.models.empty()) {
        sweep(builtinScenario(name, agents, o.seed), makeSimulator, name);
      } else {
        for (const std::string& model : o.models) {
          Scenario scenario = builtinScenario(name, agents, o.seed);
          overrideModel(scenario, model);
          sweep(scenario, makeSimulator, name + "/" + model);
        }
      }
    }
  }
  if (!o.jsonPath.empty()) {
    const nlohmann::json doc = {{"date", today()},   {"version", version()}, {"gitRevision", gitRevision()},
                                {"cpu", cpuModel()}, {"threads", threads},   {"busyProcesses", o.busy},
                                {"results", results}};
    OutputFile out(o.jsonPath);
    std::fprintf(out.stream(), "%s\n",
                 doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    out.commit();
  }
  if (!o.checkPath.empty() && checkAgainstStored(results, stored, o.checkPath) > 0) return kExitFailure;
  return kExitSuccess;
}

}  // namespace

Command benchCommand() {
  auto options = std::make_shared<BenchOptions>();
  return Command{"bench", "Benchmark built-in scenarios over agent counts (table and JSON)",
                 [options](CLI::App& app) { addBenchOptions(app, *options); },
                 [options] { return runBench(*options); }};
}

}  // namespace crowd::cli
