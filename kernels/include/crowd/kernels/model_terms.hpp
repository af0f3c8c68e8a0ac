// What a profile's motion model reads (besides ProfileTerms): the parameters of the collision-free
// speed model and the social force model, and the density-aware preferred speed, as the
// per-agent code uses them. Plain data; the maths is in collision_free_speed.hpp,
// social_force.hpp and density_speed.hpp.
#pragma once

namespace crowd {

struct ModelTerms {
  // Collision-free speed model (Tordeux, Chraibi, Seyfried 2016).
  float timeGap;                 ///< T: the speed is the headway over T.
  float neighborRepulsion;       ///< Strength of the push away from each neighbour.
  float neighborRepulsionRange;  ///< Its decay length.
  float wallRepulsion;           ///< Strength of the push away from each wall.
  float wallRepulsionRange;      ///< Its decay length.
  // Social force model (Helbing, Farkas, Vicsek 2000).
  float invRelaxationTime;  ///< 1 / tau: how fast the velocity relaxes to the desired one.
  float invMass;            ///< 1 / the body's mass, so forces in newtons become accelerations.
  float socialStrength;     ///< A, newtons.
  float socialRange;        ///< B, metres.
  float bodyForce;          ///< k, kg/s^2: the compression of overlapping bodies.
  float friction;           ///< kappa, kg/(m s): sliding friction between overlapping bodies.
  /// Walls and neighbours further than this from the body's edge exert no force worth computing.
  float wallRange;
  // Preferred speed from local density (any model; meant for ORCA).
  bool densitySpeed;
  float densityRadius;  ///< People within this count towards the local density.
};

}  // namespace crowd
