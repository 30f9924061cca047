#pragma once
// Reads the coupled-physics part of a deck: buoyancy keys of `physics` and the `scalars`, `bodies`, `probes` and
// `lines` lists.
#include "config/deck.hpp"
#include "config/yaml_reader.hpp"

namespace eddy::config {

/// Fills deck.physics buoyancy, deck.scalars, deck.bodies, deck.probes and deck.lines from `root` (the other sections
/// are read already).
///
/// Dimensionless buoyancy, `physics: {rayleigh: Ra, prandtl: Pr}`: lengths in units of the height H (the domain
/// length along gravity), temperatures in units of the wall difference dT = 1 and velocities in units of the
/// free-fall velocity sqrt(beta g dT H), so beta_g = 1, viscosity = sqrt(Pr / Ra) H^1.5 and the diffusivity of the
/// scalar `temperature` = H^1.5 / sqrt(Ra Pr); the deck then gives neither viscosity nor that diffusivity.
void read_coupled_physics(YamlReader& reader, const YAML::Node& root, Deck& deck);

}  // namespace eddy::config
