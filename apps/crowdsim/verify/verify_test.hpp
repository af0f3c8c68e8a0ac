// The verification suite's vocabulary (crowdsim verify): the motion models a test runs with,
// what one run of a test with one model found, and the table row that describes a test. Each
// test is one function in a table (rimea.cpp, nist.cpp, bottleneck.cpp), so that a test that
// needs a scenario feature still being written is a row with `needs` set until it can run.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <crowd/simulator_config.hpp>

namespace crowd::cli::verify {

/// The motion models a test is run with. ORCA with the density-aware preferred speed is the
/// ORCA a pedestrian study would use; plain ORCA is run only where the comparison says something
/// (crowded tests: without the density speed ORCA never slows a crowd walking one way).
enum class Model : std::uint8_t { Csm, SocialForce, OrcaDensity, Orca };
inline constexpr Model kModels[] = {Model::Csm, Model::SocialForce, Model::OrcaDensity, Model::Orca};

const char* modelLabel(Model model);  ///< "CSM", "social force", "ORCA+density", "ORCA".
const char* modelKey(Model model);    ///< "csm", "socialforce", "orca-density", "orca".
/// The two models built as pedestrian models (collision-free speed, social force).
bool isPedestrianModel(Model model);
/// The step each model is run at: the social force model's body force is stiff (0.01 s, as its
/// authors and JuPedSim run it); the others take the pedestrian preset's 0.1 s.
float modelTimeStep(Model model);

enum class Outcome : std::uint8_t {
  Pass,
  Fail,
  Info,    ///< Measured and reported; the test has no pass/fail criterion for this model.
  NotRun,  ///< The test needs a scenario feature that is not there yet.
};
const char* outcomeLabel(Outcome outcome);  ///< "PASS", "FAIL", "info", "not run".

/// How the suite runs: the guideline's full sizes or the short form, seeds per stochastic test,
/// and the simulator's threads and backend.
struct Settings {
  bool longForm = false;
  int seeds = 3;
  int threads = 0;
  BackendKind backend = BackendKind::Cpu;
};

/// Seeds 1..settings.seeds, for a test whose result depends on random placement.
std::vector<std::uint64_t> seedList(const Settings& settings);

/// Points to draw (crowdsim verify --svg-dir): x against y, one series per model and quantity.
struct Series {
  std::string name;  ///< "speed", "flow": what y is.
  std::vector<double> x;
  std::vector<double> y;
};

/// What one test found with one model.
struct Result {
  Outcome outcome = Outcome::Info;
  std::string measured;  ///< For the table: the figure the criterion judges, over every seed.
  /// Every figure worth keeping, for --json: (key with its unit, value).
  std::vector<std::pair<std::string, double>> values;
  std::vector<Series> series;
  double seconds = 0;  ///< Wall time of the run (filled in by the driver).
};

using TestFunction = Result (*)(const Settings& settings, Model model);

/// One row of the suite: a test as the guideline names it, its published criterion, and the
/// function that runs it with one model.
struct TestCase {
  const char* id;               ///< "RiMEA 4", "NIST 2.8", "Bottleneck 1 m".
  const char* title;            ///< "fundamental diagram".
  const char* source;           ///< Where the test and its criterion are published.
  const char* criterion;        ///< As the table shows it.
  const char* checks;           ///< One line for --help: what is set up and measured.
  bool plainOrca = false;       ///< Also run with plain ORCA (where the comparison is informative).
  const char* needs = nullptr;  ///< Set: not run, this scenario feature is missing.
  TestFunction run = nullptr;   ///< Null when `needs` is set.
};

std::vector<TestCase> rimeaTests();       // rimea.cpp (RiMEA 4 itself in fundamental_diagram.cpp)
std::vector<TestCase> nistTests();        // nist.cpp
std::vector<TestCase> bottleneckTests();  // bottleneck.cpp: door flows and the crush

/// The fundamental diagram (RiMEA 4), fundamental_diagram.cpp.
Result runFundamentalDiagram(const Settings& settings, Model model);

// ---- helpers the tests share (verify_test.cpp) ---------------------------------------------

/// "1.62" or, when the seeds differ, "1.58..1.71" (the smallest and largest), with `digits`
/// decimals.
std::string rangeText(const std::vector<double>& values, int digits);
/// A number with `digits` decimals.
std::string fixed(double value, int digits);
/// Pass when every seed passed.
Outcome allPassed(const std::vector<bool>& seedPassed);

}  // namespace crowd::cli::verify
