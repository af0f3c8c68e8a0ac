// Which crowd this is: the release version and the commit it was built from, for outputs that
// must say what made them (a run's metrics, a benchmark's results, `crowdsim --version`).
#pragma once

namespace crowd {

/// The release version, MAJOR.MINOR.PATCH (the CMake project's VERSION), e.g. "0.1.0".
const char* version();

/// The short hash of the commit the library was built from, with "-dirty" when tracked files
/// had uncommitted changes, or "unknown" when it was built outside a git checkout (a tarball).
/// Read at every build, not only when CMake configures.
const char* gitRevision();

}  // namespace crowd
