// A world that repeats along x, as a corridor measured far from its ends must (RiMEA's
// fundamental diagram, JuPedSim's and Vadere's periodic corridors): an agent that walks out at
// x = begin + length comes back in at x = begin, and agents near one end see those near the
// other end as if the corridor went on.
//
// Nothing is copied: the neighbour search looks a second time from the agent's image beyond the
// nearer end (neighbour_search.hpp), and whoever reads a neighbour's position takes the image
// nearest the agent (imageNear). The period is longer than twice every neighbour range, so an
// agent sees at most one image of anyone. Obstacles are not repeated: walls along the corridor
// must span the whole period (a wall across it would stand at one end only).
#pragma once

#include "config.hpp"

namespace crowd {

struct PeriodicBoundary {
  float begin = 0.0f;
  float length = 0.0f;  ///< The period; 0: the world does not repeat.

  CROWD_HD bool on() const { return length > 0.0f; }

  /// `other`, moved by a whole period where that brings it nearer `self` (unchanged in a world
  /// that does not repeat, to the bit). Vector is Vec2 or Vec3; only x repeats.
  template <class Vector>
  CROWD_HD Vector imageNear(Vector other, Vector self) const {
    if (!on()) return other;
    const float dx = other.x - self.x;
    if (dx > 0.5f * length) other.x -= length;
    if (dx < -0.5f * length) other.x += length;
    return other;
  }

  /// Where an agent at `p` sits after crossing an end: back inside [begin, begin + length).
  template <class Vector>
  CROWD_HD Vector wrap(Vector p) const {
    if (!on()) return p;
    if (p.x >= begin + length) {
      p.x -= length;
    } else if (p.x < begin) {
      p.x += length;
    }
    return p;
  }

  /// The x shift (+length or -length) that takes `p` to its image beyond the end nearer it, when
  /// that end lies within `reach`; 0 when neither does.
  template <class Vector>
  CROWD_HD float shiftToImage(Vector p, float reach) const {
    if (!on()) return 0.0f;
    if (p.x - begin < reach) return length;
    if (begin + length - p.x < reach) return -length;
    return 0.0f;
  }
};

/// The position of neighbour `other` of agent `self` as `self` sees it: the image nearest it.
template <class View>
CROWD_HD inline auto neighbourPosition(const View& view, int self, int other) {
  return view.periodic.imageNear(view.agents.position[other], view.agents.position[self]);
}

}  // namespace crowd
