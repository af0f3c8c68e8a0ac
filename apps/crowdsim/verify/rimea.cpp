// The RiMEA guideline's verification tests (Annex 1, version 4.1.1; tests 1 to 16 as RiMEA 3.0
// numbers them) that apply to one floor. Geometries follow JuPedSim's implementation of the
// tests where the guideline's figure gives no numbers; the criteria are the guideline's.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "floor_run.hpp"
#include "walks.hpp"

namespace crowd::cli::verify {
namespace {

// ---- RiMEA 1: walking speed in a corridor -----------------------------------------------------

Result corridorSpeed(const Settings& settings, Model model) {
  // 1.33 m/s over 40 m is 30.1 s; the guideline's tolerances (body size, premovement 1 s, speed
  // +-5%) widen that to 26..34 s.
  return judgedTime(corridorTime(settings, model, 1.33f, 40.0f), 26.0, 34.0, 1);
}

// ---- RiMEA 6: movement around a corner -------------------------------------------------------

Result corner(const Settings& settings, Model model) {
  return cornerTest(settings, model, true);
}

// ---- RiMEA 9: a crowd leaving a large public room ---------------------------------------------

// The room, 30 x 20 m, with two 1 m exits in each long wall (JuPedSim's reading of the figure);
// `fourExits` false closes those of the bottom wall. Returns when the last person left (-1 when
// some never did within `limit`), and how many left.
double publicRoomEvacuation(const Settings& settings, Model model, std::uint64_t seed, std::size_t count,
                            bool fourExits, double limit, std::size_t& left) {
  const float width = 30.0f, depth = 20.0f;
  const std::vector<Door> doors{{7.0f, 8.0f}, {22.0f, 23.0f}};
  Floor floor;
  RoomDoors openings;
  openings.top = doors;
  if (fourExits) openings.bottom = doors;
  addRoom(floor, Vec2(0.0f, 0.0f), Vec2(width, depth), openings);
  for (const Door& door : doors) floor.exits.push_back(doorExit(door, Vec2(0.0f, 1.0f), depth));
  if (fourExits) {
    for (const Door& door : doors) floor.exits.push_back(doorExit(door, Vec2(0.0f, -1.0f), 0.0f));
  }
  const std::vector<Vec2> places =
      scatter(Vec2(0.25f, 0.25f), Vec2(width - 0.25f, depth - 0.25f), count, kBodySpacing, seed);
  std::vector<Person> crowd(places.size());
  for (std::size_t i = 0; i < places.size(); ++i) {
    crowd[i].position = places[i];
    // Each person takes the nearest open exit.
    const Segment* nearest = &floor.exits[0];
    for (const Segment& exit : floor.exits) {
      if (length((exit.a + exit.b) * 0.5f - places[i]) <
          length((nearest->a + nearest->b) * 0.5f - places[i])) {
        nearest = &exit;
      }
    }
    crowd[i].route = {*nearest};
  }
  FloorRun run(floor, settings, model, seed, crowd);
  run.runUntilEmpty(limit);
  left = run.leftCount();
  return run.lastExitTime();
}

Result largeRoom(const Settings& settings, Model model) {
  const std::size_t count = settings.longForm ? 1000 : 300;
  const double limit = settings.longForm ? 1800.0 : 600.0;
  std::vector<double> ratios, fours, twos;
  std::vector<bool> passed;
  std::size_t fewestLeft = count;
  for (const std::uint64_t seed : seedList(settings)) {
    std::size_t leftFour = 0, leftTwo = 0;
    const double four = publicRoomEvacuation(settings, model, seed, count, true, limit, leftFour);
    const double two = publicRoomEvacuation(settings, model, seed, count, false, limit, leftTwo);
    fewestLeft = std::min({fewestLeft, leftFour, leftTwo});
    if (four < 0 || two < 0) {
      passed.push_back(false);
      continue;
    }
    fours.push_back(four);
    twos.push_back(two);
    ratios.push_back(two / four);
    passed.push_back(two / four >= 1.6 && two / four <= 2.4);
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = ratios.empty() ? "no ratio"
                                   : "ratio " + rangeText(ratios, 2) + " (" + rangeText(fours, 0) + " s vs " +
                                         rangeText(twos, 0) + " s)";
  if (fewestLeft < count) {
    result.measured += "; as few as " + std::to_string(fewestLeft) + "/" + std::to_string(count) +
                       " out in " + fixed(limit, 0) + " s";
  }
  if (!ratios.empty()) {
    result.values = {{"ratio_min", *std::min_element(ratios.begin(), ratios.end())},
                     {"ratio_max", *std::max_element(ratios.begin(), ratios.end())}};
  }
  return result;
}

// ---- RiMEA 10: allocation of escape routes ---------------------------------------------------

// Twelve rooms off a 1 m corridor (JuPedSim's geometry, with 0.2 m partition walls): rooms 1-6
// above it, 7-12 below, left to right. The main exit is at the top of a passage between rooms 2
// and 3, the secondary one at the corridor's right end.
Result allocation(const Settings& settings, Model model) {
  const float partition = 0.2f;
  Floor floor;
  addSpace(floor, Vec2(0.0f, 5.0f), Vec2(18.0f, 6.0f));  // The corridor.
  struct Room {
    float from, to, door;  // x extent and the door's centre.
    bool upper;
  };
  const std::vector<Room> rooms{
      {0.0f, 2.9f, 1.5f, true},    {3.1f, 5.9f, 4.5f, true},     {7.3f, 8.9f, 8.1f, true},
      {9.1f, 11.9f, 10.5f, true},  {12.1f, 14.9f, 13.5f, true},  {15.1f, 18.0f, 16.5f, true},
      {0.0f, 2.9f, 1.5f, false},   {3.1f, 5.9f, 4.5f, false},    {6.1f, 8.9f, 7.5f, false},
      {9.1f, 11.9f, 10.5f, false}, {12.1f, 14.9f, 13.5f, false}, {15.1f, 18.0f, 16.5f, false}};
  std::vector<Door> upperDoors{{6.1f, 7.1f}}, lowerDoors;
  for (const Room& room : rooms) {
    const Door door{room.door - 0.45f, room.door + 0.45f};
    if (room.upper) {
      addSpace(floor, Vec2(room.from, 6.0f + partition), Vec2(room.to, 11.0f));
      upperDoors.push_back(door);
      floor.sideRooms.push_back(
          SideRoom{Vec2(room.from, 6.0f), Vec2(room.to, 11.0f), doorGate(door, Vec2(0.0f, -1.0f), 6.0f)});
    } else {
      addSpace(floor, Vec2(room.from, 0.0f), Vec2(room.to, 5.0f - partition));
      lowerDoors.push_back(door);
      floor.sideRooms.push_back(
          SideRoom{Vec2(room.from, 0.0f), Vec2(room.to, 5.0f), doorGate(door, Vec2(0.0f, 1.0f), 5.0f)});
    }
  }
  addSpace(floor, Vec2(6.1f, 6.0f + partition), Vec2(7.1f, 11.0f));  // The passage to the main exit.
  addWall(floor, Vec2(0.0f, 5.0f), Vec2(18.0f, 5.0f), lowerDoors, partition);
  addWall(floor, Vec2(18.0f, 6.0f), Vec2(0.0f, 6.0f), upperDoors, partition);
  for (const float x : {3.0f, 6.0f, 9.0f, 12.0f, 15.0f}) {
    floor.walls.push_back(rectangle(Vec2(x - 0.1f, 0.0f), Vec2(x + 0.1f, 5.0f - partition)));
  }
  for (const float x : {3.0f, 6.0f, 7.2f, 9.0f, 12.0f, 15.0f}) {
    floor.walls.push_back(rectangle(Vec2(x - 0.1f, 6.0f + partition), Vec2(x + 0.1f, 11.0f)));
  }
  const Door mainDoor{6.1f, 7.1f}, secondaryDoor{5.0f, 6.0f};
  addWall(floor, Vec2(0.0f, 0.0f), Vec2(18.0f, 0.0f));
  addWall(floor, Vec2(18.0f, 0.0f), Vec2(18.0f, 11.0f), {secondaryDoor});
  addWall(floor, Vec2(18.0f, 11.0f), Vec2(0.0f, 11.0f), {mainDoor});
  addWall(floor, Vec2(0.0f, 11.0f), Vec2(0.0f, 0.0f));
  floor.exits = {doorExit(mainDoor, Vec2(0.0f, 1.0f), 11.0f),
                 doorExit(secondaryDoor, Vec2(1.0f, 0.0f), 18.0f)};
  const Segment passage = doorGate(mainDoor, Vec2(0.0f, 1.0f), 6.0f);
  // Along the corridor to the passage, from the west or from the east, before turning into it.
  const Segment fromWest{Vec2(6.1f, 6.0f), Vec2(6.1f, 5.0f)};
  const Segment fromEast{Vec2(7.1f, 5.0f), Vec2(7.1f, 6.0f)};

  std::vector<std::size_t> fewestRight;
  std::vector<bool> passed;
  std::size_t walls = 0;
  for (const std::uint64_t seed : seedList(settings)) {
    std::vector<Person> crowd;
    std::vector<int> allocated;
    for (std::size_t r = 0; r < rooms.size(); ++r) {
      const Room& room = rooms[r];
      // 23 persons: one in room 1, two in every other room.
      const std::size_t count = r == 0 ? 1 : 2;
      const float y0 = room.upper ? 6.0f + partition : 0.0f;
      const float y1 = room.upper ? 11.0f : 5.0f - partition;
      const std::vector<Vec2> places =
          scatter(Vec2(room.from + 0.3f, y0 + 0.3f), Vec2(room.to - 0.3f, y1 - 0.3f), count, kBodySpacing,
                  seed * 31 + r);
      // Rooms 1-4 and 7-10 are allocated the main exit, 5, 6, 11 and 12 the secondary one.
      const int exit = (r % 6) < 4 ? 0 : 1;
      const Door door{room.door - 0.45f, room.door + 0.45f};
      const Segment out =
          room.upper ? doorGate(door, Vec2(0.0f, -1.0f), 6.0f) : doorGate(door, Vec2(0.0f, 1.0f), 5.0f);
      for (const Vec2 p : places) {
        Person person;
        person.position = p;
        const Segment& along = room.door < 6.6f ? fromWest : fromEast;
        person.route = exit == 0 ? Route{out, along, passage, floor.exits[0]} : Route{out, floor.exits[1]};
        crowd.push_back(person);
        allocated.push_back(exit);
      }
    }
    FloorRun run(floor, settings, model, seed, crowd);
    run.runUntilEmpty(180.0);
    std::size_t right = 0;
    for (std::size_t i = 0; i < crowd.size(); ++i) right += run.walkers()[i].exit == allocated[i] ? 1 : 0;
    walls += run.strayedCount();
    fewestRight.push_back(right);
    passed.push_back(right == crowd.size() && run.strayedCount() == 0);
  }
  Result result;
  result.outcome = allPassed(passed);
  const std::size_t fewest = *std::min_element(fewestRight.begin(), fewestRight.end());
  result.measured =
      std::to_string(fewest) + "/23 by their allocated exit, " + std::to_string(walls) + " through a wall";
  result.values = {{"fewest_by_allocated_exit", static_cast<double>(fewest)}};
  return result;
}

// ---- RiMEA 11: choice of escape route --------------------------------------------------------

// A 30 x 20 m room with two 1 m exits in its top wall, at x 21-22 and 27-28 (JuPedSim's
// geometry), filled from the left. Everyone first heads for the nearer exit; then every 2 s each
// weighs its walk to either exit against the queue before it there (crowd/exit_choice.hpp: 1.3
// persons per second an exit, a 2 s margin), as route.exitChoice "queue" does in a scenario.
Result routeChoice(const Settings& settings, Model model) {
  const std::size_t count = settings.longForm ? 1000 : 250;
  const float width = 30.0f, depth = 20.0f;
  const std::vector<Door> doors{{21.0f, 22.0f}, {27.0f, 28.0f}};
  Floor floor;
  addRoom(floor, Vec2(0.0f, 0.0f), Vec2(width, depth), RoomDoors{{}, {}, doors, {}});
  for (const Door& door : doors) floor.exits.push_back(doorExit(door, Vec2(0.0f, 1.0f), depth));
  // Filled from the left wall at 3 P/m^2, about the densest a random placement reaches easily.
  const float filled = static_cast<float>(count) / (3.0f * (depth - 0.5f));
  std::vector<double> nearShare, lastOut;
  std::vector<double> fars;
  std::size_t farthest = 0;
  for (const std::uint64_t seed : seedList(settings)) {
    const std::vector<Vec2> places =
        scatter(Vec2(0.25f, 0.25f), Vec2(0.25f + filled, depth - 0.25f), count, kBodySpacing, seed);
    std::vector<Person> crowd(places.size());
    for (std::size_t i = 0; i < places.size(); ++i) {
      crowd[i].position = places[i];
      const bool first = length(Vec2(21.5f, depth) - places[i]) <= length(Vec2(27.5f, depth) - places[i]);
      crowd[i].route = {floor.exits[first ? 0 : 1]};
    }
    FloorRun run(floor, settings, model, seed, crowd);
    ExitChoice rule;
    rule.byQueue = true;
    run.chooseExits(rule);
    run.runUntilEmpty(settings.longForm ? 2400.0 : 800.0);
    std::size_t near = 0, far = 0;
    for (const Walker& w : run.walkers()) {
      near += w.exit == 0 ? 1 : 0;
      far += w.exit == 1 ? 1 : 0;
    }
    farthest = std::max(farthest, far);
    fars.push_back(static_cast<double>(far));
    nearShare.push_back(100.0 * static_cast<double>(near) / static_cast<double>(count));
    if (run.lastExitTime() >= 0) lastOut.push_back(run.lastExitTime());
  }
  Result result;
  // The guideline's expectation is qualitative (most by the nearer exit, some by the farther):
  // reported, not judged. Here the farther exit is 6 m farther, the wait of a few people, so a
  // choice by queue splits the crowd about evenly, and "most" turns on a percent either way.
  result.outcome = Outcome::Info;
  result.measured = "nearer exit " + rangeText(nearShare, 0) + "%, farther " + rangeText(fars, 0) +
                    " (choice by queue), last out " + rangeText(lastOut, 0) + " s";
  result.values = {{"nearer_exit_percent", nearShare.front()},
                   {"farther_exit_most", static_cast<double>(farthest)}};
  return result;
}

}  // namespace

// RiMEA 12 and 15 are in rimea_flows.cpp; 2, 3, 5 and 7 in assigned_values.cpp.
Result bottlenecksInSeries(const Settings& settings, Model model);
Result largeCrowdCorner(const Settings& settings, Model model);
Result rimeaStairsUp(const Settings& settings, Model model);
Result rimeaStairsDown(const Settings& settings, Model model);
Result rimeaPremovement(const Settings& settings, Model model);
Result rimeaDemographics(const Settings& settings, Model model);

std::vector<TestCase> rimeaTests() {
  const char* guideline = "RiMEA 4.1.1, Annex 1";
  return {
      {"RiMEA 1", "walking speed in a corridor", guideline, "26..34 s for 40 m at 1.33 m/s",
       "one person walks a 2 m x 40 m corridor at 1.33 m/s; the time between the start and finish lines",
       false, nullptr, corridorSpeed},
      {"RiMEA 2", "walking speed up stairs", guideline, "10 m / (1.33 m/s x 0.5) within 5% of speed",
       "one person at 1.33 m/s crosses a 10 m stair drawn as a speed zone of factor 0.5; the time between "
       "its ends",
       false, nullptr, rimeaStairsUp},
      {"RiMEA 3", "walking speed down stairs", guideline, "10 m / (1.33 m/s x 0.75) within 5% of speed",
       "as RiMEA 2, downwards: a speed zone of factor 0.75", false, nullptr, rimeaStairsDown},
      {"RiMEA 4", "fundamental diagram", "RiMEA 4.1.1, Annex 1; Weidmann 1993",
       "|v-vW| <= 0.15 m/s at 0.5..4 P/m2, Jmax 1..2",
       "a 10 m wide corridor repeating every 20 m, filled at 0.5, 1, 2, 3, 4 (long form also 5, 6) P/m2 at "
       "random, everyone walking +x; mean speed and density in a 2 x 2 m area from 10 s to 30 s, against "
       "Weidmann's diagram",
       true, nullptr, runFundamentalDiagram},
      {"RiMEA 5", "premovement time", guideline, "each sets off at its premovement time (+1 s)",
       "ten persons a metre apart in an 8 x 5 m room with a 1 m door, premovement times uniform on 10..100 "
       "s; "
       "when each reaches half its speed",
       false, nullptr, rimeaPremovement},
      {"RiMEA 6", "movement around a corner", guideline, "all 20 round the corner, none through a wall",
       "20 persons walk a 2 m wide corridor that turns left; every centre must stay inside the corridor",
       false, nullptr, corner},
      {"RiMEA 7", "demographic parameters", guideline, "walked speeds follow the age table (KS, 1%)",
       "50 adults aged 20..80 with the walking speed of their age on the guideline's curve, each alone in a "
       "lane; each one's speed over 10 m, within 5% of its own and a Kolmogorov-Smirnov test against the "
       "curve",
       false, nullptr, rimeaDemographics},
      {"RiMEA 9", "crowd leaving a large public room", guideline, "t(2 exits) / t(4 exits) = 1.6..2.4",
       "1000 persons (short form 300) leave a 30 x 20 m room by four 1 m exits, then with the two of one "
       "wall "
       "closed; each takes the nearest open exit",
       true, nullptr, largeRoom},
      {"RiMEA 10", "allocation of escape routes", guideline, "everyone leaves by its allocated exit",
       "23 persons in 12 rooms off a corridor; rooms 1-4 and 7-10 are sent to the main exit, 5, 6, 11 and 12 "
       "to "
       "the secondary one",
       false, nullptr, allocation},
      {"RiMEA 11", "choice of escape route", guideline,
       "most by the nearer exit, some the farther (reported)",
       "1000 persons (short form 250) fill a 30 x 20 m room from the left; two exits in the top wall; each "
       "chooses by queue (route.exitChoice's rule) every 2 s; the split",
       false, nullptr, routeChoice},
      {"RiMEA 12", "effect of bottlenecks", guideline, "J(second bottleneck) >= J(first) - 0.05 /s",
       "150 persons leave a 10 x 10 m room by a 1 m x 5 m corridor into a second room and a second corridor; "
       "flows (N-1)/(t_last - t_first) at both corridor entrances",
       true, nullptr, bottlenecksInSeries},
      {"RiMEA 15", "large crowd round a corner", guideline, "t(short) <= t(corner) <= t(long)",
       "500 persons (short form 100) walk a 6 m wide corridor with a corner, and straight ones as long as "
       "its "
       "inner and outer edges; the time the last one leaves",
       true, nullptr, largeCrowdCorner},
  };
}

}  // namespace crowd::cli::verify
