// The verification tests of NIST Technical Note 1822 (Ronchi et al. 2013) that apply to one
// floor: pre-evacuation times and assigned speeds (assigned_values.cpp), speed in a corridor, a
// corner, counter-flows, an exit that closes and the largest flow through an exit. Tests of
// visibility, incapacitation, elevators, groups and social influence are not motion-model tests
// or need scenario features that are not there.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "floor_run.hpp"
#include "walks.hpp"

namespace crowd::cli::verify {

// 1.1 and 2.4 are in assigned_values.cpp.
Result nistPreEvacuation(const Settings& settings, Model model);
Result nistDemographics(const Settings& settings, Model model);

namespace {

// ---- 2.1: speed in a corridor ----------------------------------------------------------------

Result corridorSpeed(const Settings& settings, Model model) {
  // 1 m/s over 40 m: 40 s. The WBJ suite allows the speed +-0.05 m/s: 38.1..42.1 s.
  return judgedTime(corridorTime(settings, model, 1.0f, 40.0f), 40.0 / 1.05, 40.0 / 0.95, 1);
}

// ---- 2.3: movement around a corner -----------------------------------------------------------

Result corner(const Settings& settings, Model model) {
  // A right turn (RiMEA 6 turns left), arms of 12 m and 10 m, 2 m wide.
  return cornerTest(settings, model, false);
}

// ---- 2.8: horizontal counter-flows -----------------------------------------------------------

// Two 10 x 10 m rooms joined by a 10 m x 2 m corridor. `main` persons walk from room 1 to
// room 2 while `counter` walk the other way; a person has arrived 1 m inside the other room, and
// walks on to its far wall. Returns when the last of the main group arrived, -1 when some never
// did within `limit`, and how many did.
double counterFlow(const Settings& settings, Model model, std::uint64_t seed, std::size_t main,
                   std::size_t counter, double limit, std::size_t& arrived) {
  const float t = kWallThickness;
  const Door door{4.0f, 6.0f};
  const float room2 = 10.0f + t + 10.0f + t;  // Room 2's left inner face.
  Floor floor;
  addRoom(floor, Vec2(0.0f, 0.0f), Vec2(10.0f, 10.0f), RoomDoors{{}, {door}, {}, {}});
  addRoom(floor, Vec2(room2, 0.0f), Vec2(room2 + 10.0f, 10.0f), RoomDoors{{}, {}, {}, {door}});
  addSpace(floor, Vec2(10.0f + t, 4.0f), Vec2(room2 - t, 6.0f));
  addWall(floor, Vec2(10.0f + t, 4.0f), Vec2(room2 - t, 4.0f));
  addWall(floor, Vec2(room2 - t, 6.0f), Vec2(10.0f + t, 6.0f));
  const Route east{doorGate(door, Vec2(1.0f, 0.0f), 10.0f), doorGate(door, Vec2(1.0f, 0.0f), room2),
                   Segment{Vec2(room2 + 1.0f, 10.0f), Vec2(room2 + 1.0f, 0.0f)}};
  const Route west{doorGate(door, Vec2(-1.0f, 0.0f), room2), doorGate(door, Vec2(-1.0f, 0.0f), 10.0f),
                   Segment{Vec2(9.0f, 0.0f), Vec2(9.0f, 10.0f)}};
  std::vector<Person> crowd;
  for (const Vec2 p : scatter(Vec2(0.25f, 0.25f), Vec2(9.75f, 9.75f), main, kBodySpacing, seed)) {
    crowd.push_back(Person{p, Vec2(0.0f, 0.0f), 1.34f, east});
  }
  for (const Vec2 p : scatter(Vec2(room2 + 1.5f, 0.25f), Vec2(room2 + 9.75f, 9.75f), counter, kBodySpacing,
                              seed * 7919 + 1)) {
    crowd.push_back(Person{p, Vec2(0.0f, 0.0f), 1.34f, west});
  }
  FloorRun run(floor, settings, model, seed, crowd);
  const auto mainArrived = [&] {
    std::size_t count = 0;
    for (std::size_t i = 0; i < main; ++i) count += run.walkers()[i].stage == east.size() ? 1 : 0;
    return count;
  };
  run.runWhile([&] { return mainArrived() < main; }, limit);
  arrived = mainArrived();
  double last = 0.0;
  for (std::size_t i = 0; i < main; ++i) {
    if (run.walkers()[i].stage == east.size()) last = std::max(last, run.walkers()[i].passedAt.back());
  }
  return arrived == main ? last : -1.0;
}

Result counterFlows(const Settings& settings, Model model) {
  const std::size_t main = settings.longForm ? 100 : 50;
  const std::vector<std::size_t> counters =
      settings.longForm ? std::vector<std::size_t>{0, 10, 50, 100} : std::vector<std::size_t>{0, 5, 25, 50};
  const double limit = settings.longForm ? 600.0 : 300.0;
  std::vector<bool> passed;
  std::string measured;
  for (const std::uint64_t seed : seedList(settings)) {
    std::vector<double> times;
    std::string text;
    bool rising = true;
    for (const std::size_t counter : counters) {
      std::size_t arrived = 0;
      const double t = counterFlow(settings, model, seed, main, counter, limit, arrived);
      if (!text.empty()) text += ", ";
      if (t < 0) {
        text += std::to_string(arrived) + "/" + std::to_string(main) + " in " + fixed(limit, 0) + " s";
        rising = false;
      } else {
        text += fixed(t, 0) + " s";
        rising = rising && (times.empty() || t > times.back());
      }
      times.push_back(t);
    }
    // The table shows the first seed that fails, else the first seed.
    const bool failedBefore = std::find(passed.begin(), passed.end(), false) != passed.end();
    if (measured.empty() || (!rising && !failedBefore)) measured = text;
    passed.push_back(rising);
  }
  Result result;
  result.outcome = allPassed(passed);
  std::string counts;
  for (const std::size_t c : counters) {
    if (!counts.empty()) counts += "/";
    counts += std::to_string(c);
  }
  result.measured = "against " + counts + ": " + measured;
  return result;
}

// ---- 4.1: dynamic availability of exits --------------------------------------------------------

// A 20 x 10 m room with a 1 m exit in the middle of each short wall; everyone stands nearer the
// west one and heads for it, and it closes after 1 s, before anyone can reach it. Those heading
// for it must turn to the east exit at once (ExitHours, as route.exitHours has it in a scenario).
Result exitAvailability(const Settings& settings, Model model) {
  const std::size_t count = settings.longForm ? 100 : 50;
  const float width = 20.0f, depth = 10.0f;
  const Door door{4.5f, 5.5f};
  Floor floor;
  addRoom(floor, Vec2(0.0f, 0.0f), Vec2(width, depth), RoomDoors{{}, {door}, {}, {door}});
  floor.exits = {doorExit(door, Vec2(-1.0f, 0.0f), 0.0f), doorExit(door, Vec2(1.0f, 0.0f), width)};
  const Segment& west = floor.exits[0];
  const float closes = 1.0f;
  std::vector<bool> passed;
  std::size_t fewestOut = count, throughClosed = 0, walls = 0;
  std::vector<double> lastOut;
  for (const std::uint64_t seed : seedList(settings)) {
    const std::vector<Vec2> places =
        scatter(Vec2(3.0f, 0.5f), Vec2(9.0f, depth - 0.5f), count, kBodySpacing, seed);
    std::vector<Person> crowd(places.size());
    for (std::size_t i = 0; i < places.size(); ++i) {
      crowd[i].position = places[i];
      crowd[i].route = {west};
    }
    FloorRun run(floor, settings, model, seed, crowd);
    run.chooseExits(ExitChoice{}, {ExitHours{(west.a + west.b) * 0.5f, 0.0f, closes}});
    run.runUntilEmpty(300.0);
    std::size_t late = 0;
    for (const Walker& w : run.walkers()) late += w.exit == 0 && w.exitTime >= closes ? 1 : 0;
    throughClosed += late;
    walls += run.strayedCount();
    fewestOut = std::min(fewestOut, run.leftCount());
    if (run.lastExitTime() >= 0) lastOut.push_back(run.lastExitTime());
    passed.push_back(run.leftCount() == count && late == 0 && run.strayedCount() == 0);
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = std::to_string(fewestOut) + "/" + std::to_string(count) + " out, " +
                    std::to_string(throughClosed) + " by the closed exit, " + std::to_string(walls) +
                    " through a wall; last out " + rangeText(lastOut, 0) + " s";
  result.values = {{"fewest_out", static_cast<double>(fewestOut)},
                   {"through_closed_exit", static_cast<double>(throughClosed)}};
  return result;
}

// ---- 5.2: maximum flow rates ---------------------------------------------------------------

// 100 persons leave an 8 x 5 m room by a 1 m exit in the middle of a 5 m wall. NIST (after IMO
// MSC/Circ. 1238) caps the flow at 1.33 P/(m s); the measured flow is reported against it, as the
// models have no cap.
Result exitFlow(const Settings& settings, Model model) {
  std::vector<double> flows;
  for (const std::uint64_t seed : seedList(settings)) {
    const Floor floor = doorRoom(8.0f, 5.0f, 1.0f);
    FloorRun run(floor, settings, model, seed, roomCrowd(8.0f, 5.0f, floor, 100, seed));
    run.runUntilEmpty(300.0);
    flows.push_back(steadyFlow(run.exitTimes()));  // Through 1 m: persons/(m s).
  }
  const double most = *std::max_element(flows.begin(), flows.end());
  Result result;
  result.outcome = Outcome::Info;
  result.measured = rangeText(flows, 2) + " P/(m s): " + (most > 1.33 ? "exceeds" : "within") + " 1.33";
  result.values = {{"largest_specific_flow_per_m_s", most}};
  return result;
}

}  // namespace

std::vector<TestCase> nistTests() {
  const char* note = "NIST TN 1822 (2013)";
  return {
      {"NIST 1.1", "pre-evacuation time distributions", note,
       "set-off times follow the distribution (KS, 1%)",
       "100 persons with pre-evacuation times drawn from a uniform (10..100 s) and a normal (60 s, sd 15 s, "
       "clipped to 10..110 s) distribution, each alone in a lane; each must set off within 1 s after its "
       "time",
       false, nullptr, nistPreEvacuation},
      {"NIST 2.1", "speed in a corridor", note, "40 s for 40 m at 1 m/s (38.1..42.1 s)",
       "one person walks a 2 m wide corridor at 1 m/s; the time over the 40 m between two lines", false,
       nullptr, corridorSpeed},
      {"NIST 2.3", "movement around a corner", note, "all 20 round the corner, none through a wall",
       "20 persons walk a 2 m wide corridor that turns right; every centre must stay inside it", false,
       nullptr, corner},
      {"NIST 2.4", "assigned demographics", note, "walked speeds follow the distribution (KS, 1%)",
       "100 persons with walking speeds drawn from N(1.2, 0.2) m/s clipped to 0.6..1.8, each alone in a "
       "lane; "
       "each one's speed over 10 m, within 5% of its own",
       false, nullptr, nistDemographics},
      {"NIST 2.8", "horizontal counter-flows", note, "time to cross grows with the counter-flow",
       "100 persons (short form 50) walk between two 10 x 10 m rooms through a 10 x 2 m corridor against "
       "0, 10, 50, 100 (short form 0, 5, 25, 50) walking the other way; all must arrive, each time later",
       true, nullptr, counterFlows},
      {"NIST 4.1", "dynamic availability of exits", note, "everyone out by the open exit, none by the closed",
       "50 persons (long form 100) in a 20 x 10 m room head for the nearer of two 1 m exits, which closes "
       "after 1 s; they must turn to the other",
       false, nullptr, exitAvailability},
      {"NIST 5.2", "maximum flow rates", note, "reported against 1.33 P/(m s)",
       "100 persons leave an 8 x 5 m room by a 1 m exit; the steady flow through it", true, nullptr,
       exitFlow},
  };
}

}  // namespace crowd::cli::verify
