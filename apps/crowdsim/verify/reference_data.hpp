// The published data the verification suite compares with: the experimental flows through
// bottlenecks (Weidmann's fundamental diagram is crowd::weidmannSpeed, crowd/measurement.hpp).
// Sources in docs/verification.md.
#pragma once

#include <crowd/measurement.hpp>

namespace crowd::cli::verify {

/// One measured flow through a bottleneck of a given width.
struct BottleneckPoint {
  double width;  ///< m.
  double flow;   ///< persons/s.
};

/// Kretz, Gruenebohm and Schreckenberg 2006 (J. Stat. Mech. P10014), as digitised in JuPedSim's
/// validation data (systemtest/Validation/test_13/experiments/2006Kretz.txt).
inline constexpr BottleneckPoint kKretz2006[] = {
    {0.4, 0.879}, {0.4, 0.899}, {0.5, 1.007}, {0.5, 1.036}, {0.6, 1.124}, {0.7, 1.222}, {0.7, 1.251},
    {0.8, 1.388}, {0.8, 1.417}, {0.8, 1.456}, {0.9, 1.534}, {0.9, 1.583}, {0.9, 1.632}, {1.0, 1.710},
    {1.0, 1.808}, {1.0, 1.876}, {1.0, 2.023}, {1.2, 2.033}, {1.2, 2.111}, {1.2, 2.287}};

/// The specific flow of the experiments of Seyfried et al. 2009 and Liddle et al. 2011 over
/// widths 0.8 to 2.5 m: J = 1.9 b persons/s (the reference line JuPedSim's validation draws).
inline constexpr double kBottleneckSpecificFlow = 1.9;

}  // namespace crowd::cli::verify
