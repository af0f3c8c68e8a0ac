// What crowdsim says of the library's long work that is not a run's steps (crowd/work_progress.hpp:
// routes planned at load): on a terminal a progress line with the time left, and, wherever the
// output goes, one warning once the time left is seen to be long, so that a run that will build
// for half an hour says so within seconds instead of saying nothing.
#pragma once

namespace crowd::cli {

/// Sets the library's reporter for the rest of the process.
void showWorkProgress();

/// Nothing from here on (run -q): no progress line, nor the warning of a long wait.
void quietWorkProgress();

}  // namespace crowd::cli
