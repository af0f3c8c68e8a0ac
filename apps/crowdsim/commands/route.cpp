// crowdsim route: solves every problem of a Moving AI scenario (.scen) on its map with the grid
// A*, checks the lengths against the listed optimal ones and reports the time per query. Exit
// code 0 once every problem is solved, matched or not; bad input or usage (2): an --out path
// that cannot be written or names an input (checked before anything is read), a map or scenario
// it cannot read (crowd::GridMapError, naming the line and column) or a problem that does not
// fit the map; 1 when writing --out fails later; 128 + the signal when stopped (130 for Ctrl-C;
// stop_signals.hpp), with no partial --out left behind.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/grid_astar.hpp>
#include <crowd/grid_map.hpp>
#include <crowd/output_file.hpp>
#include <crowd/stop_request.hpp>

#include "command.hpp"
#include "exit_codes.hpp"
#include "output_paths.hpp"
#include "progress_line.hpp"
#include "stop_signals.hpp"

namespace crowd::cli {
namespace {

struct RouteOptions {
  std::string mapPath;   // A Moving AI .map file.
  std::string scenPath;  // Its .scen file.
  std::string outPath;   // Optional CSV: index,start_x,start_y,goal_x,goal_y,length,expanded,micros.
  bool cornerCutting = false;
  bool quiet = false;
  std::string heuristic = "octile";  // octile, euclidean or manhattan.
};

GridHeuristic heuristicNamed(const std::string& name) {
  if (name == "euclidean") return GridHeuristic::Euclidean;
  if (name == "manhattan") return GridHeuristic::Manhattan;
  return GridHeuristic::Octile;
}

// The file name a .scen line lists for its map ("maps/arena.map" and "arena.map" alike).
std::string mapFileName(const std::string& listed) {
  return std::filesystem::path(listed).filename().string();
}

// Every problem must fit the map it is solved on; the size a line lists must be the map's, and
// every line must name the same map: a file that mixes maps has problems for another one, whose
// lengths would not match (refused, naming the line). A name other than --map's file name is
// only warned about: the map may have been renamed or copied.
void checkProblems(const std::vector<MovingAiProblem>& problems, const GridMap& map, const RouteOptions& o) {
  for (const MovingAiProblem& p : problems) {
    if (mapFileName(p.mapName) != mapFileName(problems.front().mapName)) {
      throw GridMapError(o.scenPath, p.line, 0,
                         "the problem is for map '" + p.mapName + "', the lines before it for '" +
                             problems.front().mapName + "': one .scen file is for one map");
    }
    if (p.mapWidth != map.width() || p.mapHeight != map.height()) {
      throw GridMapError(o.scenPath, p.line, 0,
                         "the problem is for a " + std::to_string(p.mapWidth) + " x " +
                             std::to_string(p.mapHeight) + " map, " + o.mapPath + " is " +
                             std::to_string(map.width()) + " x " + std::to_string(map.height()));
    }
    for (const GridCell c : {p.start, p.goal}) {
      if (!map.contains(c)) {
        throw GridMapError(
            o.scenPath, p.line, 0,
            "cell (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ") is outside the map");
      }
    }
  }
}

struct Solved {
  GridPathResult result;
  double micros = 0.0;
};

void addRouteOptions(CLI::App& route, RouteOptions& o) {
  route.add_option("--map", o.mapPath, "Moving AI .map file")->required();
  route.add_option("--scen", o.scenPath, "Moving AI .scen file of problems on that map")->required();
  route
      .add_option("--out", o.outPath,
                  "Write index,start_x,start_y,goal_x,goal_y,length,expanded,micros as CSV")
      ->check(kPathGiven);
  route.add_flag("-q,--quiet", o.quiet, "No progress line");
  route.add_flag("--corner-cutting", o.cornerCutting,
                 "Allow a diagonal move past a blocked corner (the listed lengths assume it is not)");
  route
      .add_option("--heuristic", o.heuristic,
                  "A* heuristic (manhattan is not admissible with diagonal moves)")
      ->check(CLI::IsMember({"octile", "euclidean", "manhattan"}))
      ->capture_default_str();
  route.footer(
      "An unreachable goal gives length -1. Lengths match when |computed - listed| <= max(1e-4, 1e-5 * "
      "listed).");
}

int runRoute(const RouteOptions& o) {
  checkOutputPaths({{"--out", o.outPath}}, {o.mapPath, o.scenPath}, "an input file");
  const GridMap map = GridMap::loadMovingAi(o.mapPath);
  const std::vector<MovingAiProblem> problems = loadMovingAiScenario(o.scenPath);
  checkProblems(problems, map, o);
  if (!problems.empty() && mapFileName(problems.front().mapName) != mapFileName(o.mapPath)) {
    std::fprintf(stderr, "crowdsim: warning: %s lists its problems for map '%s', not %s\n",
                 o.scenPath.c_str(), problems.front().mapName.c_str(), o.mapPath.c_str());
  }
  // From here on an interrupt unwinds, removing --out's temporary file.
  // Ctrl-C and the other stop signals (stop_signals.hpp): the problems stop between two searches
  // and the command unwinds, so that --out's temporary file is removed.
  catchStopSignals();
  std::optional<OutputFile> out;
  if (!o.outPath.empty()) out.emplace(o.outPath);

  AstarOptions options;
  options.moves.cornerCutting = o.cornerCutting;
  options.heuristic = heuristicNamed(o.heuristic);
  GridAstar astar(map, options);
  std::vector<Solved> solved(problems.size());
  using Clock = std::chrono::steady_clock;
  ProgressLine progress(o.quiet);
  const Clock::time_point begin = Clock::now();
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (stopRequested() != 0) {
      throw Interrupted(stopRequested(), "interrupted after " + std::to_string(i) + " of " +
                                             std::to_string(problems.size()) +
                                             " problems; no output file was put in place");
    }
    const Clock::time_point start = Clock::now();
    solved[i].result = astar.findPath(problems[i].start, problems[i].goal);
    solved[i].micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    if (progress.due()) {
      progress.update("problem %zu/%zu  %.1f s   ", i + 1, problems.size(),
                      std::chrono::duration<double>(Clock::now() - begin).count());
    }
  }
  progress.clear();
  const double totalSeconds = std::chrono::duration<double>(Clock::now() - begin).count();

  std::size_t matched = 0;
  std::size_t unreachable = 0;
  std::int64_t expanded = 0;
  double queryMicros = 0.0;
  int mismatchesShown = 0;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const GridPathResult& r = solved[i].result;
    expanded += r.expanded;
    queryMicros += solved[i].micros;
    if (!r.found()) ++unreachable;
    if (matchesListedLength(r.length, problems[i].optimalLength)) {
      ++matched;
    } else if (mismatchesShown++ < 5) {
      std::fprintf(stderr, "crowdsim: %s:%d: length %.8f, listed %.8f\n", o.scenPath.c_str(),
                   problems[i].line, r.length, problems[i].optimalLength);
    }
  }
  if (out) {
    std::FILE* f = out->stream();
    std::fprintf(f, "index,start_x,start_y,goal_x,goal_y,length,expanded,micros\n");
    for (std::size_t i = 0; i < problems.size(); ++i) {
      const MovingAiProblem& p = problems[i];
      const GridPathResult& r = solved[i].result;
      std::fprintf(f, "%zu,%d,%d,%d,%d,", i, p.start.x, p.start.y, p.goal.x, p.goal.y);
      if (r.found()) {
        std::fprintf(f, "%.8f", r.length);
      } else {
        std::fprintf(f, "-1");
      }
      std::fprintf(f, ",%lld,%.3f\n", static_cast<long long>(r.expanded), solved[i].micros);
    }
    out->commit();
  }

  const std::size_t n = problems.size();
  const double meanMicros = n > 0 ? queryMicros / static_cast<double>(n) : 0.0;
  std::printf("map             %s: %d x %d, %zu free cells\n", o.mapPath.c_str(), map.width(), map.height(),
              map.passableCount());
  std::printf("problems        %zu (%s, %s heuristic), %zu unreachable\n", n,
              o.cornerCutting ? "corner cutting" : "no corner cutting", o.heuristic.c_str(), unreachable);
  std::printf("matched         %zu of %zu listed optimal lengths\n", matched, n);
  std::printf("time            %.2f us per query (mean), %.3f s in all\n", meanMicros, totalSeconds);
  std::printf("expansions      %lld, %.0f per query, %.2f million per second\n",
              static_cast<long long>(expanded),
              n > 0 ? static_cast<double>(expanded) / static_cast<double>(n) : 0.0,
              queryMicros > 0.0 ? static_cast<double>(expanded) / queryMicros : 0.0);
  if (out) std::printf("wrote           %s\n", o.outPath.c_str());
  return kExitSuccess;
}

}  // namespace

Command routeCommand() {
  auto options = std::make_shared<RouteOptions>();
  return Command{
      "route", "Solve every problem of a Moving AI scenario on its map with the grid A* (8-connected)",
      [options](CLI::App& app) { addRouteOptions(app, *options); }, [options] { return runRoute(*options); }};
}

}  // namespace crowd::cli
