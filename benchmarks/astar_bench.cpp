// Grid A* speed on the Moving AI sets: mean microseconds per query and node expansions per
// second, single thread, with the lengths checked against the listed optimal ones.
//
//   crowd_astar_bench DIR [STRIDE]
//
// DIR holds the .map and .map.scen files (../shared/data/movingai); STRIDE runs every STRIDE-th
// problem of each file (default 1: all). Times are wall clock and this thread's CPU time; on a
// shared machine the CPU figure is the steadier one.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include <crowd/grid_astar.hpp>
#include <crowd/grid_map.hpp>

namespace {

double threadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s DIR [STRIDE]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const long stride = argc == 3 ? std::strtol(argv[2], nullptr, 10) : 1;
  if (stride < 1) {
    std::fprintf(stderr, "STRIDE must be a whole number >= 1\n");
    return 2;
  }
  const char* const sets[] = {"arena",          "Berlin_0_256", "den520d",     "random512-10-0",
                              "random512-25-0", "8room_000",    "maze512-1-0", "maze512-32-9"};
  std::printf("%-16s %9s %9s %12s %14s %14s %12s\n", "set", "problems", "matched", "us/query",
              "expanded/query", "Mexp/s (wall)", "Mexp/s (cpu)");
  try {
    for (const char* name : sets) {
      const std::filesystem::path mapPath = dir / (std::string(name) + ".map");
      if (!std::filesystem::exists(mapPath)) {
        std::printf("%-16s (not in %s)\n", name, dir.string().c_str());
        continue;
      }
      const crowd::GridMap map = crowd::GridMap::loadMovingAi(mapPath.string());
      const std::vector<crowd::MovingAiProblem> problems =
          crowd::loadMovingAiScenario((dir / (std::string(name) + ".map.scen")).string());
      crowd::GridAstar astar(map);
      std::size_t run = 0;
      std::size_t matched = 0;
      std::int64_t expanded = 0;
      const double cpuBegin = threadCpuSeconds();
      const auto wallBegin = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < problems.size(); i += static_cast<std::size_t>(stride)) {
        const crowd::GridPathResult r = astar.findPath(problems[i].start, problems[i].goal);
        ++run;
        expanded += r.expanded;
        if (crowd::matchesListedLength(r.length, problems[i].optimalLength)) ++matched;
      }
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallBegin).count();
      const double cpu = threadCpuSeconds() - cpuBegin;
      const double n = static_cast<double>(run);
      std::printf("%-16s %9zu %9zu %12.1f %14.0f %14.2f %12.2f\n", name, run, matched, 1e6 * wall / n,
                  static_cast<double>(expanded) / n, static_cast<double>(expanded) / wall / 1e6,
                  static_cast<double>(expanded) / cpu / 1e6);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "crowd_astar_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
