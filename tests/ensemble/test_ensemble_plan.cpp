// The runs of an ensemble, the varied parameters, and a run's record through the journal.
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ensemble/ensemble_plan.hpp"
#include "ensemble/ensemble_table.hpp"
#include "ensemble/journal.hpp"
#include "ensemble/run_record.hpp"

namespace {

using namespace crowd::cli;

TEST(EnsemblePlan, CombinationsOutermostLastVaryFastest) {
  const std::vector<Variation> vary{parseVariation("agents=30,60"), parseVariation("model=orca,csm")};
  const std::vector<PlannedRun> runs = planRuns({7, 9}, vary);
  ASSERT_EQ(runs.size(), 8u);
  const std::vector<std::vector<std::string>> values{{"30", "orca"}, {"30", "orca"}, {"30", "csm"},
                                                     {"30", "csm"},  {"60", "orca"}, {"60", "orca"},
                                                     {"60", "csm"},  {"60", "csm"}};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].index, i);
    EXPECT_EQ(runs[i].seed, i % 2 == 0 ? 7u : 9u);
    EXPECT_EQ(runs[i].combination, i / 2);
    EXPECT_EQ(runs[i].values, values[i]);
  }
}

TEST(EnsemblePlan, NoVariationOneRunPerSeed) {
  const std::vector<PlannedRun> runs = planRuns({3, 1, 2}, {});
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[1].seed, 1u);
  EXPECT_TRUE(runs[1].values.empty());
}

TEST(EnsemblePlan, UnknownKeyListsTheKnownOnes) {
  try {
    parseVariation("speed=1,2");
    FAIL() << "an unknown key was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("agents, model, avoidance, steps"), std::string::npos) << e.what();
  }
}

TEST(EnsemblePlan, RefusesBadValues) {
  for (const char* text : {"agents", "agents=", "agents=0", "agents=1,,2", "agents=3,3", "agents=-1",
                           "steps=1.5", "model=rvo", "avoidance=orca,maybe"}) {
    EXPECT_THROW(parseVariation(text), std::invalid_argument) << text;
  }
  EXPECT_THROW(planRuns({1}, {parseVariation("steps=1"), parseVariation("steps=2")}), std::invalid_argument);
}

TEST(RunRecord, JournalLineKeepsEveryBit) {
  RunRecord record{4, 18446744073709551615ULL, {"30", "csm"}, true, 2, "", {}};
  record.figures = {{"evacuation_time_s", 0.1 + 0.2}, {"arrived", 30}, {"first_arrival_s", nullptr}};
  const RunRecord back = fromJournalLine(toJournalLine(record));
  EXPECT_EQ(back.index, 4u);
  EXPECT_EQ(back.seed, 18446744073709551615ULL);
  EXPECT_EQ(back.values, record.values);
  EXPECT_TRUE(back.ok);
  EXPECT_EQ(back.attempts, 2);
  ASSERT_EQ(back.figures.size(), 3u);
  EXPECT_EQ(back.figures[0].value.get<double>(), 0.1 + 0.2);
  EXPECT_TRUE(back.figures[1].value.is_number_integer());
  EXPECT_TRUE(back.figures[2].value.is_null());
}

TEST(RunRecord, FiguresFromAMetricsDocument) {
  const nlohmann::json metrics = {
      {"steps", 10},
      {"timeStep", 0.25},
      {"agents", 3},
      {"arrived", 2},
      {"lastArrivalTime", 2.5},
      {"firstArrivalTime", 1.0},
      {"meanArrivalTime", 1.75},
      {"collisions", 4},
      {"obstaclePenetrations", 0},
      {"minSeparationRatio", nullptr},
      {"meanSpeed", 1.2},
      {"unreachable", 0},
      {"measurements",
       {{"lines", {{{"name", "door"}, {"nt", {{"forward", {0, 1, 2}}}}, {"flow_per_s", {{"forward", 0.8}}}}}},
        {"areas", {{{"name", "room"}, {"density_per_m2", {0.5, 1.5, 1.0}}}}}}}};
  const std::vector<RunFigure> figures = figuresOfMetrics(metrics);
  const auto find = [&](const std::string& column) {
    for (const RunFigure& f : figures) {
      if (f.column == column) return f.value;
    }
    return nlohmann::json("missing");
  };
  EXPECT_EQ(find("simulated_time_s"), 2.5);
  EXPECT_EQ(find("evacuation_time_s"), 2.5);
  EXPECT_EQ(find("collisions"), 4);
  EXPECT_TRUE(find("min_separation_ratio").is_null());
  EXPECT_EQ(find("line_door_crossed"), 2);
  EXPECT_EQ(find("line_door_flow_per_s"), 0.8);
  EXPECT_EQ(find("area_room_peak_density_per_m2"), 1.5);
}

TEST(EnsembleTable, RowsInRunOrderWithFailuresKept) {
  const std::vector<Variation> vary{parseVariation("agents=30")};
  RunRecord ok{0, 5, {"30"}, true, 1, "", {{"steps_run", 12}, {"evacuation_time_s", 1.5}}};
  RunRecord failed{1, 6, {"30"}, false, 2, "too big, by far", {}};
  EXPECT_EQ(ensembleTable(vary, {ok, failed}),
            "run,seed,agents,status,attempts,steps_run,evacuation_time_s,error\n"
            "0,5,30,ok,1,12,1.5,\n"
            "1,6,30,failed,2,,,\"too big, by far\"\n");
  const nlohmann::json summary = ensembleSummary(vary, {ok, failed}, 0.01);
  ASSERT_EQ(summary["groups"].size(), 1u);
  EXPECT_EQ(summary["groups"][0]["failed"], 1);
  EXPECT_EQ(summary["groups"][0]["columns"]["evacuation_time_s"]["count"], 1);
  EXPECT_EQ(summary["stableMean"]["column"], "evacuation_time_s");
}

TEST(Journal, ResumesItsOwnRunsAndRefusesOthers) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "crowd_journal_test";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string path = journalPath((folder / "table.csv").string());
  const nlohmann::json arguments = {{"seeds", "1-3"}};
  {
    Journal journal(path, arguments, 3);
    EXPECT_TRUE(journal.resumed().empty());
    journal.append({2, 3, {}, true, 1, "", {{"steps", 7}}});
    journal.append({0, 1, {}, false, 2, "no", {}});
  }
  // A stop in the middle of a line: that line is run again.
  { std::ofstream(path, std::ios::app) << "{\"run\": 1, \"se"; }
  {
    Journal journal(path, arguments, 3);
    ASSERT_EQ(journal.resumed().size(), 2u);
    EXPECT_EQ(journal.resumed()[0].index, 2u);
    EXPECT_EQ(journal.resumed()[1].error, "no");
  }
  EXPECT_THROW(Journal(path, nlohmann::json{{"seeds", "1-4"}}, 4), std::invalid_argument);
  Journal(path, arguments, 3).remove();
  EXPECT_FALSE(std::filesystem::exists(path));
  std::filesystem::remove_all(folder);
}

}  // namespace
