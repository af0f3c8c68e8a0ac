// crowdsim: run, validate, benchmark and watch crowd scenarios from the command line. This file
// is the table of subcommands (each one's options and work live in commands/) and the mapping
// of what they throw to the exit codes --help lists.
#include <algorithm>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include <crowd/nearest_name.hpp>
#include <crowd/output_file.hpp>
#include <crowd/scenario.hpp>
#include <crowd/stop_request.hpp>
#include <crowd/version.hpp>

#include "command.hpp"
#include "exit_codes.hpp"
#include "output_paths.hpp"
#include "stop_signals.hpp"
#include "work_reports.hpp"

namespace {

// An unknown first word that is no option: named, with the nearest command when one is close
// and the list of them (CLI11 would only list every argument it did not expect).
bool refuseUnknownCommand(int argc, char** argv, const std::vector<crowd::cli::Command>& commands) {
  if (argc < 2 || argv[1][0] == '-') return false;
  const std::string_view word = argv[1];
  std::vector<std::string_view> known;
  std::string names;
  for (const crowd::cli::Command& command : commands) {
    if (command.name == word) return false;
    known.emplace_back(command.name);
    names += names.empty() ? "" : ", ";
    names += command.name;
  }
  const std::string nearest(crowd::nearestName(word, known));
  std::cerr << "crowdsim: error: unknown command '" << word << "'"
            << (nearest.empty() ? "" : "; did you mean '" + nearest + "'?") << "\n"
            << "commands: " << names << " (crowdsim --help says what each does)\n";
  return true;
}

// A stopped command: how far it got, and that no output was put in place.
int reportStopped(int signal, const std::string& where) {
  std::cerr << "crowdsim: interrupted (" << crowd::cli::signalName(signal) << ") " << where
            << "; no output file was put in place (a device or pipe has what was written to it)\n";
  return crowd::cli::stoppedExitCode(signal);
}

// A command whose output file goes to standard output ("-", /dev/stdout, the pipe stdout is)
// prints its report on standard error instead, whatever the command: a reader of stdout then
// parses the file alone. The file options are the ones every command names alike.
void keepStdoutForOutputs(const CLI::App& command) {
  for (const char* name : {"--out", "--json", "--csv", "--svg", "--metrics", "--summary"}) {
    const CLI::Option* option = nullptr;
    try {
      option = command.get_option(name);
    } catch (const CLI::OptionNotFound&) {
      continue;
    }
    for (const std::string& path : option->results()) {
      if (crowd::cli::writesToStdout(path)) {
        crowd::keepStandardOutputForFiles();
        return;
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace crowd::cli;
  CLI::App app{
      "crowdsim: crowd simulation with steering behaviours (seek, arrive, wander, path following,\n"
      "pursuit, evasion, obstacle avoidance) and ORCA collision avoidance.\n"
      "With no arguments it shows the built-in crossing scenario in a window, or, without a display,\n"
      "draws it into crowd-picture/frame-00000.png (a build without the viewer runs the circle)."};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version",
                       std::string("crowdsim ") + crowd::version() + " (git " + crowd::gitRevision() + ")",
                       "Print the version and the commit it was built from, and exit");
  const std::vector<Command> commands{runCommand(),    scenariosCommand(), validateCommand(),
                                      benchCommand(),  routeCommand(),     realismCommand(),
                                      viewCommand(),   renderCommand(),    measureCommand(),
                                      verifyCommand(), geometryCommand(),  ensembleCommand()};
  for (const Command& command : commands)
    command.addOptions(*app.add_subcommand(command.name, command.description));
  app.footer(
      "Examples:\n"
      "  crowdsim run builtin random --agents 100000 --steps 50\n"
      "  crowdsim run builtin forest --orca\n"
      "  crowdsim run my.json --steps 1 --out t.csv\n"
      "  crowdsim validate my.json\n"
      "  crowdsim bench --agents 1000,10000 --json bench.json\n"
      "  crowdsim route --map arena.map --scen arena.map.scen --out routes.csv\n"
      "  crowdsim realism crowds_zara01.txt --svg zara.svg\n"
      "  crowdsim measure scenarios/corridor_measure.json --window 10 --svg fd.svg\n"
      "  crowdsim verify --only 'RiMEA 4' --svg-dir figures\n"
      "  crowdsim view builtin evacuation --agents 10000\n"
      "  crowdsim render builtin crossing --frames 120 --every 5 --out frames\n"
      "  crowdsim geometry builtin bottleneck --out walls.wkt\n"
      "  crowdsim ensemble builtin evacuation --agents 200 --seeds 1-100 --out runs.csv\n"
      "Exit codes: 0 success, 1 failure while running, 2 bad usage or bad input, 130 interrupted\n"
      "by Ctrl-C (128 + the signal's number for HUP, QUIT, PIPE, TERM, XFSZ); the outputs of a\n"
      "command are put in place together, and only when it completes.");

  if (refuseUnknownCommand(argc, argv, commands)) return kExitBadInput;
  showWorkProgress();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitSuccess : kExitBadInput;
  }
  try {
    for (const Command& command : commands) {
      if (!app.got_subcommand(command.name)) continue;
      keepStdoutForOutputs(*app.get_subcommand(command.name));
      return command.run();
    }
    return runDefault();
  } catch (const crowd::Interrupted& e) {
    return reportStopped(e.signal(), e.what());
  } catch (const crowd::ScenarioError& e) {
    std::cerr << "crowdsim: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "crowdsim: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    // Past every estimate the inputs were checked against: said, with the way to a smaller run.
    std::cerr << "crowdsim: error: out of memory in 'crowdsim " << (argc > 1 ? argv[1] : "")
              << "'; a smaller scenario, map or agent count would fit\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    // A write that failed because of the stop signal (a closed pipe, the file size limit) is
    // the stop, not a failure of its own.
    if (const int signal = crowd::stopRequested(); signal != 0) return reportStopped(signal, e.what());
    std::cerr << "crowdsim: error: " << e.what() << "\n";
    return kExitFailure;
  }
}
