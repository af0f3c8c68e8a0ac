// --seeds: ranges and single seeds, and what is refused.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ensemble/seed_list.hpp"

namespace {

using crowd::cli::parseSeedList;
using Seeds = std::vector<std::uint64_t>;

TEST(SeedList, SingleSeed) {
  EXPECT_EQ(parseSeedList("5"), Seeds({5}));
}

TEST(SeedList, RangeIncludesBothEnds) {
  EXPECT_EQ(parseSeedList("1-4"), Seeds({1, 2, 3, 4}));
}

TEST(SeedList, MixKeepsTheOrderWritten) {
  EXPECT_EQ(parseSeedList("10-11,3,7-7,0"), Seeds({10, 11, 3, 7, 0}));
}

TEST(SeedList, RangeEndingAtTheLargestSeedStops) {
  EXPECT_EQ(parseSeedList("18446744073709551614-18446744073709551615"),
            Seeds({18446744073709551614ULL, 18446744073709551615ULL}));
}

TEST(SeedList, RefusesWhatIsNoSeedList) {
  for (const char* text : {"", ",", "1,", ",1", "a", "1-", "-1", "3-1", "1-2-3", "+1", " 1", "1 ", "1.5",
                           "0x10", "18446744073709551616", "1-2,2"}) {
    EXPECT_THROW(parseSeedList(text), std::invalid_argument) << "'" << text << "'";
  }
}

TEST(SeedList, RefusalNamesThePartAtFault) {
  try {
    parseSeedList("1-5,9-7");
    FAIL() << "a backward range was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'9-7' runs backwards"), std::string::npos) << e.what();
  }
}

TEST(SeedList, RefusesAHugeRangeBeforeMakingIt) {
  EXPECT_THROW(parseSeedList("1-100000000000"), std::invalid_argument);
}

}  // namespace
