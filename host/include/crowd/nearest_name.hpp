// The known name nearest a misspelt one, for messages that say "did you mean ...?" (the scenario
// reader's unknown keys, crowdsim's unknown commands).
#pragma once

#include <span>
#include <string_view>

namespace crowd {

/// The name in `names` the fewest edits (insertions, deletions, substitutions) from `word`, when
/// that is at most two edits and at most half the word; empty otherwise (and for no names).
std::string_view nearestName(std::string_view word, std::span<const std::string_view> names);

}  // namespace crowd
