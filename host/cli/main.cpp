// crowdsim: run, validate and benchmark crowd scenarios from the command line.
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <omp.h>

#include <crowd/crowd.hpp>

#include "output_paths.hpp"
#include "realism_command.hpp"
#include "route_command.hpp"
#include "run_options.hpp"
#include "summary.hpp"
#include "strict_integer.hpp"
#include "viewer_commands.hpp"

namespace crowd::cli {
namespace {

constexpr const char* kDefaultScenario = "circle";
constexpr std::size_t kDefaultAgents = 2000;

struct RunOptions {
  std::vector<std::string> target;  // FILE, or "builtin" NAME.
  std::optional<std::size_t> agents;
  std::optional<std::int64_t> steps;
  int threads = 0;
  std::optional<std::uint64_t> seed;
  std::string backend = "auto";
  std::string outPath;
  std::string metricsPath;
  bool allSteps = false;
  bool quiet = false;
  bool exactRvo2 = false;
  std::string avoidance;  // "orca" or "none" overrides every agent's; empty keeps the scenario's.
  bool orca = false;      // --orca: shorthand for --avoidance orca.
};

void warn(const std::string& message) { std::cerr << "crowdsim: warning: " << message << "\n"; }

Scenario loadTarget(const RunOptions& o) {
  return loadScenarioTarget(o.target, o.agents, o.seed, kDefaultScenario, kDefaultAgents);
}

// Both outputs writable, distinct, and neither the scenario file itself.
void checkRunOutputs(const RunOptions& o) {
  const bool fromFile = o.target.size() == 1 && o.target[0] != "builtin";
  checkOutputPaths({{"--out", o.outPath}, {"--metrics", o.metricsPath}}, {fromFile ? o.target[0] : std::string()},
                   "the scenario file");
}

// Ctrl-C or a termination request: the run stops between two steps and unwinds, so that no
// partial output file is left behind.
volatile std::sig_atomic_t interrupted = 0;
extern "C" void onInterrupt(int) { interrupted = 1; }

class RunInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Steps `sim` through the scenario, observing each step, writing the outputs and the summary:
// the same for a planar world (Scenario, Simulator) and a 3D one (Scenario3, Simulator3).
template <class World, class Sim>
int runWorld(const RunOptions& o, const World& scenario, Sim& sim, int threads) {
  std::optional<TrajectoryWriter> trajectory;
  if (!o.outPath.empty()) trajectory.emplace(o.outPath, std::is_same_v<Sim, Simulator3> ? 3 : 2);
  MetricsCollector metrics;
  if constexpr (std::is_same_v<World, Scenario>) metrics.setUnreachableAtStart(scenario.unreachableAgents);
  metrics.observe(sim);
  if (trajectory) trajectory->write(sim);

  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
  const bool progress = !o.quiet && isatty(STDERR_FILENO) != 0;
  const auto start = std::chrono::steady_clock::now();
  auto lastProgress = start;
  const std::size_t withGoal = metrics.result().agentsWithGoal;
  const bool everyoneHasGoal = withGoal == sim.agentCount() && withGoal > 0;
  for (std::int64_t s = 0; s < scenario.steps; ++s) {
    if (interrupted != 0) {
      // The outputs' temporary files are removed on the way out; the old files stay as they were.
      throw RunInterrupted("interrupted after " + std::to_string(s) +
                           " steps; no output file was put in place (a device or pipe has what was written to it)");
    }
    sim.step();
    metrics.observe(sim);
    if (trajectory) trajectory->write(sim);
    if (progress) {
      const auto now = std::chrono::steady_clock::now();
      if (now - lastProgress > std::chrono::milliseconds(500)) {
        lastProgress = now;
        std::fprintf(stderr, "\rstep %lld/%lld  arrived %zu/%zu  %.2f ms/step   ", static_cast<long long>(s + 1),
                     static_cast<long long>(scenario.steps), metrics.result().arrived, withGoal,
                     sim.lastStepTimes().total());
      }
    }
    // Stop once every agent has arrived, unless asked to run every step.
    if (!o.allSteps && everyoneHasGoal && metrics.result().arrived == withGoal) break;
  }
  if (progress) std::fprintf(stderr, "\r%*s\r", 70, "");
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (trajectory) trajectory->close();

  const RunMetrics& m = metrics.result();
  if (!o.metricsPath.empty()) {
    nlohmann::json doc = nlohmann::json::parse(m.toJson());
    doc["scenario"] = scenario.name;
    doc["dimensions"] = std::is_same_v<Sim, Simulator3> ? 3 : 2;
    doc["backend"] = sim.backendName();
    doc["threads"] = threads;
    doc["timeStep"] = scenario.timeStep;
    doc["wallSeconds"] = wall;
    OutputFile out(o.metricsPath);  // In place only once complete.
    const std::string text = doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::fwrite(text.data(), 1, text.size(), out.stream());
    out.commit();
  }
  printSummary(scenario, sim, m, threads, wall);
  return 0;
}

void announceBackend(const RunOptions& o, const std::string& name, BackendKind backend, const std::string& why) {
  if (o.quiet) return;
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  std::cerr << "crowdsim: backend " << name;
  if (name == "cpu") std::cerr << " (" << threads << " threads)";
  if (backend == BackendKind::Auto && name == "cpu" && !why.empty()) std::cerr << "; no GPU: " << why;
  std::cerr << "\n";
}

// Sets the run's options on `sim`, readies its backend (a world the device cannot hold fails
// here, before any output is written), says which backend runs it, and runs it.
template <class World, class Sim>
int startRun(const RunOptions& o, const World& scenario, Sim& sim, BackendKind backend, const std::string& why) {
  SimulatorConfig config = sim.config();
  config.exactRvo2 = o.exactRvo2;
  sim.setConfig(config);
  sim.prepare();
  announceBackend(o, sim.backendName(), backend, why);
  return runWorld(o, scenario, sim, o.threads > 0 ? o.threads : omp_get_max_threads());
}

int runScenario3(const RunOptions& o, BackendKind backend, const std::string& why) {
  if (o.orca || !o.avoidance.empty()) {
    throw ScenarioError("--avoidance and --orca are for planar scenarios; 3D agents always avoid by ORCA");
  }
  Scenario3 scenario = loadScenario3Target(o.target, o.agents, o.seed);
  for (const std::string& w : scenario.warnings) warn(w);
  if (o.steps) scenario.steps = *o.steps;
  Simulator3 sim = makeSimulator3(scenario, o.threads, backend);
  return startRun(o, scenario, sim, backend, why);
}

int runScenario(RunOptions& o) {
  const BackendKind backend = o.backend == "cuda"  ? BackendKind::Cuda
                              : o.backend == "cpu" ? BackendKind::Cpu
                                                   : BackendKind::Auto;
  requireBackend(o.backend);  // Before anything is loaded or written: no partial output.
  std::string why;
  if (backend != BackendKind::Cpu) cudaBackendAvailable(&why);
  checkRunOutputs(o);
  if (isTarget3d(o.target)) return runScenario3(o, backend, why);
  Scenario scenario = loadTarget(o);
  for (const std::string& w : scenario.warnings) warn(w);
  if (o.steps) scenario.steps = *o.steps;
  if (o.orca || !o.avoidance.empty()) {
    const AvoidanceMode mode = o.orca || o.avoidance == "orca" ? AvoidanceMode::Orca : AvoidanceMode::None;
    for (AgentDef& agent : scenario.agents) agent.behavior.avoidance = mode;
  }
  Simulator sim = makeSimulator(scenario, o.threads, backend);
  return startRun(o, scenario, sim, backend, why);
}

int listScenarios() {
  for (const std::string& name : builtinScenarioNames()) {
    std::printf("%-12s %s\n", name.c_str(), builtinScenarioDescription(name).c_str());
  }
  for (const std::string& name : builtinScenario3Names()) {
    std::printf("%-12s %s\n", name.c_str(), builtinScenario3Description(name).c_str());
  }
  return 0;
}

int validate(const std::string& path) {
  const std::string& text = scenarioText(path);
  if (scenarioDimensions(text, path) == 3) {
    const Scenario3 scenario = parseScenario3(text, path);
    for (const std::string& w : scenario.warnings) warn(w);
    std::printf("%s: ok: 3D, %zu agents, %lld steps of %g s\n", path.c_str(), scenario.agents.size(),
                static_cast<long long>(scenario.steps), static_cast<double>(scenario.timeStep));
    return 0;
  }
  const Scenario scenario = expandScenario(parseScenarioSpec(text, path));
  for (const std::string& w : scenario.warnings) warn(w);
  std::printf("%s: ok: %zu agents, %zu obstacles, %zu circles, %zu paths, %lld steps of %g s\n", path.c_str(),
              scenario.agents.size(), scenario.obstacles.size(), scenario.circles.size(),
              scenario.paths.size(), static_cast<long long>(scenario.steps),
              static_cast<double>(scenario.timeStep));
  return 0;
}

void addRunOptions(CLI::App& run, RunOptions& o) {
  run.add_option("target", o.target, "A scenario file, or 'builtin NAME' (see 'crowdsim scenarios'); none: builtin circle, 2,000 agents")
      ->expected(0, 2);
  run.add_option("--agents", o.agents, "Agent count for a built-in scenario")
      ->check(kWholeNumber)
      ->check(CLI::Range(std::size_t{1}, static_cast<std::size_t>(limits::kMaxScenarioAgents)));
  run.add_option("--steps", o.steps, "Steps to run (overrides the scenario's 'steps'); a whole number")
      ->check(wholeNumberUpTo(static_cast<std::uint64_t>(INT64_MAX)));
  run.add_option("--threads", o.threads, "CPU threads (0: all cores)")
      ->check(kWholeNumber)
      ->check(CLI::Range(0, kMaxThreads));
  run.add_option("--seed", o.seed, "Seed for random placement and goals, 0 to 2^64 - 1")->check(kWholeNumber);
  run.add_option("--backend", o.backend, "Compute backend")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
  run.add_option("--out", o.outPath, "Write trajectories as CSV rows step,agent,x,y,vx,vy (step 0 = initial state)")
      ->check(kPathGiven);
  run.add_option("--metrics", o.metricsPath, "Write run metrics as JSON")->check(kPathGiven);
  run.add_flag("--all-steps", o.allSteps, "Run every step even after all agents have arrived");
  run.add_flag("-q,--quiet", o.quiet, "No progress line or backend notice");
  run.add_flag("--exact-rvo2", o.exactRvo2,
               "RVO2's results to the bit: no deadlock breaking (jitter, sidestep) and no speed clamp");
  CLI::Option* avoidance =
      run.add_option("--avoidance", o.avoidance,
                     "Override every agent's avoidance: 'orca' (ORCA turns the steered velocity into a "
                     "collision-free one) or 'none' (the steered velocity is final; only the "
                     "behaviours avoid)")
          ->check(CLI::IsMember({"orca", "none"}));
  run.add_flag("--orca", o.orca, "Shorthand for --avoidance orca (e.g. 'run builtin forest --orca')")
      ->excludes(avoidance);
}

// No arguments: the showcase in a window when there is a display, else a short run drawn into a
// picture; without the viewer, the circle run and its summary.
int runDefault(RunOptions& run) {
  if (!viewerBuilt()) return runScenario(run);
  if (displayPresent()) return runView(ViewOptions{});
  RenderOptions render;
  render.frames = 1;
  render.video = "none";
  render.outDir = "crowd-picture";
  render.fitCrowd = true;
  const Scenario scenario = loadSceneTarget(render.scene);
  // One picture of the crowds in the middle of their crossing.
  render.start = static_cast<int>(std::lround(kShowcaseSeconds / scenario.timeStep));
  std::printf("crowdsim: no display for a window, so a picture: builtin %s, %zu agents after %g s (open it, or run "
              "'crowdsim view' where there is a display)\n",
              kShowcase, scenario.agents.size(), kShowcaseSeconds);
  return runRender(render);
}

}  // namespace

Scenario loadScenarioTarget(const std::vector<std::string>& target, std::optional<std::size_t> agents,
                            std::optional<std::uint64_t> seed, const char* defaultName,
                            std::optional<std::size_t> defaultAgents) {
  if (target.empty()) return builtinScenario(defaultName, agents ? agents : defaultAgents, seed.value_or(1));
  if (target[0] == "builtin") {
    if (target.size() != 2) throw ScenarioError("usage: builtin NAME (see 'crowdsim scenarios')");
    return builtinScenario(target[1], agents, seed.value_or(1));
  }
  if (target.size() != 1) {
    throw ScenarioError("expected one scenario file or 'builtin NAME', got " + std::to_string(target.size()) + " arguments");
  }
  if (agents) throw ScenarioError("--agents applies to built-in scenarios; a file lists its own agents");
  return expandScenario(parseScenarioSpec(scenarioText(target[0]), target[0]), seed);
}

bool isTarget3d(const std::vector<std::string>& target) {
  if (target.size() == 2 && target[0] == "builtin") return isBuiltinScenario3(target[1]);
  return target.size() == 1 && target[0] != "builtin" && scenarioDimensions(scenarioText(target[0]), target[0]) == 3;
}

const std::string& scenarioText(const std::string& path) {
  // Kept for the process: the file is read once, however many times its kind and contents are
  // asked for.
  static std::map<std::string, std::string> read;
  const auto found = read.find(path);
  if (found != read.end()) return found->second;
  return read.emplace(path, readScenarioFileText(path)).first->second;
}

Scenario3 loadScenario3Target(const std::vector<std::string>& target, std::optional<std::size_t> agents,
                              std::optional<std::uint64_t> seed) {
  if (target[0] == "builtin") return builtinScenario3(target[1], agents, seed.value_or(1));
  if (agents) throw ScenarioError("--agents applies to built-in scenarios; a file lists its own agents");
  return parseScenario3(scenarioText(target[0]), target[0], seed);
}

Scenario loadSceneTarget(const SceneOptions& o) {
  return loadScenarioTarget(o.target, o.agents, o.seed, kShowcase, std::nullopt);
}

}  // namespace crowd::cli

int main(int argc, char** argv) {
  using namespace crowd::cli;
  CLI::App app{"crowdsim: crowd simulation with steering behaviours (seek, arrive, wander, path following,\n"
               "pursuit, evasion, obstacle avoidance) and ORCA collision avoidance.\n"
               "With no arguments it shows the built-in crossing scenario in a window, or, without a display,\n"
               "draws it into crowd-picture/frame-00000.png (a build without the viewer runs the circle)."};
  app.require_subcommand(0, 1);
  RunOptions runOptions;
  CLI::App* run = app.add_subcommand("run", "Run a scenario file or a built-in scenario and print a summary");
  addRunOptions(*run, runOptions);
  CLI::App* scenarios = app.add_subcommand("scenarios", "List the built-in scenarios");
  std::string validatePath;
  CLI::App* validateCmd = app.add_subcommand("validate", "Check a scenario file and report problems");
  validateCmd->add_option("file", validatePath, "The scenario file")->required();
  BenchOptions benchOptions;
  CLI::App* bench = app.add_subcommand("bench", "Benchmark built-in scenarios over agent counts (table and JSON)");
  addBenchOptions(*bench, benchOptions);
  RouteOptions routeOptions;
  CLI::App* route = addRouteCommand(app, routeOptions);
  RealismCommandOptions realismOptions;
  CLI::App* realism = addRealismCommand(app, realismOptions);
  ViewOptions viewOptions;
  CLI::App* view = addViewCommand(app, viewOptions);
  RenderOptions renderOptions;
  CLI::App* render = addRenderCommand(app, renderOptions);
  app.footer("Examples:\n"
             "  crowdsim run builtin random --agents 100000 --steps 50\n"
             "  crowdsim run builtin forest --orca\n"
             "  crowdsim run my.json --steps 1 --out t.csv\n"
             "  crowdsim validate my.json\n"
             "  crowdsim bench --agents 1000,10000 --json bench.json\n"
             "  crowdsim route --map arena.map --scen arena.map.scen --out routes.csv\n"
             "  crowdsim realism crowds_zara01.txt --svg zara.svg\n"
             "  crowdsim view builtin evacuation --agents 10000\n"
             "  crowdsim render builtin crossing --frames 120 --every 5 --out frames\n"
             "Exit codes: 0 success, 1 failure while running, 2 bad usage or bad input, 130 interrupted\n"
             "(outputs are put in place only when a run completes).");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitBadInput;
  }
  try {
    if (*scenarios) return listScenarios();
    if (*validateCmd) return validate(validatePath);
    if (*bench) return runBench(benchOptions);
    if (*route) return runRoute(routeOptions);
    if (*realism) return runRealism(realismOptions);
    if (*view) return runView(viewOptions);
    if (*render) return runRender(renderOptions);
    if (!*run) return runDefault(runOptions);
    return runScenario(runOptions);
  } catch (const RunInterrupted& e) {
    std::cerr << "crowdsim: " << e.what() << "\n";
    return kExitInterrupted;
  } catch (const crowd::ScenarioError& e) {
    std::cerr << "crowdsim: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "crowdsim: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "crowdsim: error: " << e.what() << "\n";
    return kExitFailure;
  }
}
