// Route planning for crowds: 100,000 and 1,000,000 agents from random free cells to 10 goals on
// a 512 x 512 map, wall seconds per phase.
//
//   crowd_route_bench [MAP] [THREADS] [RADIUS]
//
// MAP is a Moving AI .map (../shared/data/movingai/random512-10-0.map); without one, or when it
// is not there, a 512 x 512 map with 10% of its cells blocked at random. THREADS defaults to 2,
// RADIUS (world units; cells are 1 unit) to 0.25. Each size runs three times on a fresh planner
// (so inflating the map counts every time); the targets are under 1 s for 100,000 agents and
// under 3 s for 1,000,000 on 2 cores.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <crowd/grid_map.hpp>
#include <crowd/route_planner.hpp>

namespace {

crowd::GridMap generatedMap(int side, double blockedShare, unsigned seed) {
  crowd::GridMap map(side, side);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) map.setPassable(crowd::GridCell{x, y}, unit(rng) >= blockedShare);
  }
  return map;
}

// A random point in a random cell free for planning (starts and goals the planner need not move).
crowd::Vec2 randomFreePoint(std::mt19937& rng, const crowd::ClearanceMap& clearance) {
  const crowd::GridMap& map = clearance.map();
  std::uniform_real_distribution<float> jitter(-0.25f, 0.25f);
  while (true) {
    const crowd::GridCell c{static_cast<int>(rng() % static_cast<unsigned>(map.width())),
                            static_cast<int>(rng() % static_cast<unsigned>(map.height()))};
    if (!clearance.free(c)) continue;
    const float size = map.placement().cellSize;
    return map.cellCenter(c) + crowd::Vec2(jitter(rng) * size, jitter(rng) * size);
  }
}

// CPU seconds of all threads: on a shared machine, steadier than wall time.
double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 4) {
    std::fprintf(stderr, "usage: %s [MAP] [THREADS] [RADIUS]\n", argv[0]);
    return 2;
  }
  const std::string mapPath = argc >= 2 ? argv[1] : "../shared/data/movingai/random512-10-0.map";
  const int threads = argc >= 3 ? std::atoi(argv[2]) : 2;
  const float radius = argc >= 4 ? std::strtof(argv[3], nullptr) : 0.25f;
  try {
    crowd::GridMap map;
    if (std::filesystem::exists(mapPath)) {
      map = crowd::GridMap::loadMovingAi(mapPath);
      std::printf("map %s (%d x %d, %zu free cells)\n", mapPath.c_str(), map.width(), map.height(),
                  map.passableCount());
    } else {
      map = generatedMap(512, 0.10, 7);
      std::printf("map: generated 512 x 512, 10%% blocked at random (%zu free cells; %s not found)\n",
                  map.passableCount(), mapPath.c_str());
    }
    std::printf("threads %d, radius %.3f, 10 goals\n", threads, static_cast<double>(radius));
    std::printf("%9s %4s %8s %8s %8s %8s %9s %8s %8s %9s %7s\n", "agents", "run", "inflate", "snap", "fields",
                "astar", "smoothing", "total", "cpu", "points/ag", "unreach");
    for (const int agents : {100000, 1000000}) {
      crowd::RoutePlanner probe(map);
      const crowd::ClearanceMap& clearance = probe.clearanceFor(radius);
      std::mt19937 rng(42);
      std::vector<crowd::Vec2> goals;
      for (int g = 0; g < 10; ++g) goals.push_back(randomFreePoint(rng, clearance));
      std::vector<crowd::RouteRequest> requests(static_cast<std::size_t>(agents));
      for (std::size_t i = 0; i < requests.size(); ++i) {
        requests[i].start = randomFreePoint(rng, clearance);
        requests[i].goals = {goals[i % goals.size()]};
        requests[i].radius = radius;
      }
      for (int run = 1; run <= 3; ++run) {
        crowd::RoutePlanner planner(map);  // Fresh: inflation counts in every run.
        const double cpuBegin = processCpuSeconds();
        const crowd::RouteSet routes = planner.plan(requests, threads);
        const double cpu = processCpuSeconds() - cpuBegin;
        std::int64_t unreachable = 0;
        for (const std::uint8_t s : routes.status) {
          unreachable += (s & crowd::route_status::kUnreachable) != 0;
        }
        const crowd::RouteTimes& t = routes.times;
        std::printf("%9d %4d %8.3f %8.3f %8.3f %8.3f %9.3f %8.3f %8.3f %9.1f %7lld\n", agents, run, t.inflate,
                    t.snap, t.fields, t.astar, t.smoothing, t.total, cpu,
                    static_cast<double>(routes.points.size()) / static_cast<double>(agents),
                    static_cast<long long>(unreachable));
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "crowd_route_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
