// Run metrics of 3D worlds: contacts between spheres (agent_contacts.hpp, as in the plane), and
// the collector's observation of a Simulator3 (arrivals, speeds, costs as in a planar run).
#include <crowd/metrics.hpp>

#include "measure/agent_contacts.hpp"

namespace crowd {

ContactStats measureContacts3(std::span<const Vec3> positions, std::span<const float> radii, int threads) {
  checkContactInputs(positions.size(), radii, threads);
  ContactStats stats;
  measureAgentPairs(positions, radii, threads, stats);  // A 3D world has no obstacles (yet).
  return stats;
}

void MetricsCollector::observe(const Simulator3& sim) {
  if (recordCommon(sim) && contacts_) {
    recordContacts(measureContacts3(sim.positions(), sim.radii(), sim.config().threads));
  }
}

}  // namespace crowd
