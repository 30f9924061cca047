#include "config/parse_physics.hpp"

#include "config/names_physics.hpp"

#include <cmath>

namespace eddy::config {
namespace {

// An axis given as x, y or z.
int read_axis(YamlReader& reader, const YAML::Node& node, const std::string& path) {
  const std::string name = reader.read_string(node, path);
  const int dims = reader.dimensions();
  if (name == "x") return 0;
  if (name == "y") return 1;
  if (name == "z" && dims == 3) return 2;
  reader.fail(path, "got '" + name + "'; allowed: " + (dims == 3 ? "x, y, z" : "x, y (domain.dimensions is 2)"));
}

// The scalar face the velocity face implies when the deck says nothing: periodic stays periodic, inflow brings
// the value 0, outflow lets the scalar leave, every wall is adiabatic.
ScalarFace default_scalar_face(const FaceBoundary& velocity) {
  ScalarFace face;
  if (velocity.type == BoundaryType::periodic) face.type = ScalarBoundaryType::periodic;
  if (velocity.type == BoundaryType::inflow) face.type = ScalarBoundaryType::inflow;
  if (velocity.type == BoundaryType::outflow) face.type = ScalarBoundaryType::outflow;
  return face;
}

ScalarFace read_scalar_face(YamlReader& reader, const YAML::Node& node, const std::string& path) {
  ScalarFace face;
  if (node.IsScalar()) {  // shorthand: `x_low: adiabatic`
    face.type = reader.read_enum<ScalarBoundaryType>(node, path + ".type");
    if (face.type == ScalarBoundaryType::value || face.type == ScalarBoundaryType::flux ||
        face.type == ScalarBoundaryType::inflow) {
      reader.fail(path, "a " + to_string(face.type) + " face needs a value: write {type: " + to_string(face.type) +
                            ", value: ...}");
    }
    return face;
  }
  reader.check_section(node, path);
  if (!node["type"])
    reader.fail(path + ".type", "missing; allowed: " + join_words(allowed_names<ScalarBoundaryType>()));
  face.type = reader.read_enum<ScalarBoundaryType>(node["type"], path + ".type");
  const bool valued = face.type == ScalarBoundaryType::value || face.type == ScalarBoundaryType::flux ||
                      face.type == ScalarBoundaryType::inflow;
  if (valued && !node["value"])
    reader.fail(path + ".value", "missing: a " + to_string(face.type) + " face needs a value");
  if (!valued && node["value"]) {
    reader.fail(path + ".value", "applies only to value, flux and inflow faces, not to " + to_string(face.type));
  }
  if (node["value"]) {
    bool number = node["value"].IsScalar();
    try {
      if (number) (void)node["value"].as<double>();
    } catch (const YAML::Exception&) {
      number = false;
    }
    if (number) {
      face.value = reader.read_number(node["value"], path + ".value");
    } else {
      face.expression = reader.read_expression(node["value"], path + ".value", reader.constants());
    }
  }
  return face;
}

ScalarInitial read_scalar_initial(YamlReader& reader, const YAML::Node& node, const std::string& path,
                                  const Constants& constants) {
  ScalarInitial initial;
  reader.check_section(node, path);
  if (node["type"]) initial.type = reader.read_enum<ScalarInitialType>(node["type"], path + ".type");
  const bool linear = initial.type == ScalarInitialType::linear;
  for (const char* key : {"axis", "low", "high"}) {
    if (!linear && node[key]) reader.fail(path + "." + key, "applies only to type linear");
  }
  if (node["value"] && linear) reader.fail(path + ".value", "type linear takes low and high, not value");
  if (initial.type == ScalarInitialType::expression) {
    if (node["amplitude"]) reader.fail(path + ".amplitude", "type expression takes its perturbation in the value");
    if (node["value"]) initial.expression = reader.read_expression(node["value"], path + ".value", constants);
  } else if (node["value"]) {
    initial.value = reader.read_number(node["value"], path + ".value");
  }
  if (node["axis"]) initial.axis = read_axis(reader, node["axis"], path + ".axis");
  if (node["low"]) initial.low = reader.read_number(node["low"], path + ".low");
  if (node["high"]) initial.high = reader.read_number(node["high"], path + ".high");
  if (node["amplitude"]) initial.amplitude = reader.read_number(node["amplitude"], path + ".amplitude");
  if (node["seed"]) {
    const long long seed = reader.read_long(node["seed"], path + ".seed");
    if (seed < 0) reader.fail(path + ".seed", "got " + describe(node["seed"]) + "; allowed: an integer >= 0");
    initial.seed = static_cast<unsigned long long>(seed);
  }
  return initial;
}

ScalarConfig read_scalar(YamlReader& reader, const YAML::Node& node, const std::string& path, const Deck& deck) {
  ScalarConfig scalar;
  reader.check_section(node, path);
  if (!node["name"]) reader.fail(path + ".name", "missing: every scalar needs a name (e.g. temperature)");
  scalar.name = reader.read_string(node["name"], path + ".name");
  if (node["diffusivity"]) scalar.diffusivity = reader.read_number(node["diffusivity"], path + ".diffusivity");
  if (node["initial"]) {
    scalar.initial = read_scalar_initial(reader, node["initial"], path + ".initial", deck.constants);
  }
  if (node["source"]) scalar.source = reader.read_expression(node["source"], path + ".source", deck.constants);
  const int dims = reader.dimensions();
  YAML::Node faces = node["boundary"];
  if (faces) reader.check_section(faces, path + ".boundary");
  const bool has_default = faces && faces["default"];
  const ScalarFace fallback =
      has_default ? read_scalar_face(reader, faces["default"], path + ".boundary.default") : ScalarFace{};
  for (int f = 0; f < 6; ++f) {
    const std::string name(face_names[f]);
    const std::string face_path = path + ".boundary." + name;
    if (f >= 4 && dims == 2) {
      if (faces && faces[name]) reader.fail(face_path, "z faces exist only in 3D (domain.dimensions is 2)");
      scalar.boundary[f].type = ScalarBoundaryType::periodic;
      continue;
    }
    if (faces && faces[name]) {
      scalar.boundary[f] = read_scalar_face(reader, faces[name], face_path);
    } else if (has_default && deck.boundary.faces[f].type != BoundaryType::periodic) {
      scalar.boundary[f] = fallback;
    } else {
      scalar.boundary[f] = default_scalar_face(deck.boundary.faces[f]);
    }
  }
  return scalar;
}

BodyConfig read_body(YamlReader& reader, const YAML::Node& node, const std::string& path) {
  BodyConfig body;
  reader.check_section(node, path);
  const int dims = reader.dimensions();
  if (!node["name"]) reader.fail(path + ".name", "missing: every body needs a name (it labels its forces)");
  body.name = reader.read_string(node["name"], path + ".name");
  if (!node["shape"]) reader.fail(path + ".shape", "missing; allowed: " + join_words(allowed_names<BodyShape>()));
  body.shape = reader.read_enum<BodyShape>(node["shape"], path + ".shape");
  if (!node["center"]) reader.fail(path + ".center", "missing: where the body sits");
  body.center = reader.read_list<double>(node["center"], path + ".center", dims, 0.0, "numbers");
  const bool round = body.shape != BodyShape::box;
  if (round && !node["radius"])
    reader.fail(path + ".radius", "missing: a " + to_string(body.shape) + " needs a radius");
  if (!round && node["radius"]) reader.fail(path + ".radius", "applies to circle, sphere and cylinder, not to box");
  if (round) body.radius = reader.read_number(node["radius"], path + ".radius");
  if (!round && !node["size"]) reader.fail(path + ".size", "missing: a box needs its edge lengths");
  if (round && node["size"]) reader.fail(path + ".size", "applies only to box");
  if (!round) body.size = reader.read_list<double>(node["size"], path + ".size", dims, 1.0, "numbers");
  if (node["axis"] && body.shape != BodyShape::cylinder) reader.fail(path + ".axis", "applies only to cylinder");
  if (node["axis"]) body.axis = read_axis(reader, node["axis"], path + ".axis");
  if (node["reference_velocity"]) {
    body.reference_velocity = reader.read_number(node["reference_velocity"], path + ".reference_velocity");
  }
  if (node["reference_length"]) {
    body.reference_length = reader.read_number(node["reference_length"], path + ".reference_length");
  }
  if (node["reference_area"]) {
    if (dims == 2) reader.fail(path + ".reference_area", "applies only in 3D (2D coefficients are per unit depth)");
    body.reference_area = reader.read_number(node["reference_area"], path + ".reference_area");
  }
  return body;
}

// The physical height H: the domain length along gravity (its largest component).
double height_along_gravity(const Deck& deck) {
  int axis = 0;
  for (int a = 1; a < 3; ++a) {
    if (std::fabs(deck.physics.gravity[a]) > std::fabs(deck.physics.gravity[axis])) axis = a;
  }
  return deck.domain.length[axis];
}

void read_buoyancy(YamlReader& reader, const YAML::Node& node, Deck& deck) {
  auto& physics = deck.physics;
  const int dims = reader.dimensions();
  if (dims == 3) physics.gravity = {0, 0, -1};
  if (node["gravity"])
    physics.gravity = reader.read_list<double>(node["gravity"], "physics.gravity", dims, 0.0, "numbers");
  if (node["beta_g"]) physics.beta_g = reader.read_number(node["beta_g"], "physics.beta_g");
  if (node["reference_temperature"]) {
    physics.reference_temperature = reader.read_number(node["reference_temperature"], "physics.reference_temperature");
  }
  const bool rayleigh = static_cast<bool>(node["rayleigh"]);
  if (rayleigh != static_cast<bool>(node["prandtl"])) {
    reader.fail(rayleigh ? "physics.prandtl" : "physics.rayleigh", "missing: rayleigh and prandtl go together");
  }
  if (!rayleigh) return;
  for (const char* key : {"viscosity", "reynolds", "beta_g"}) {
    if (node[key])
      reader.fail(std::string("physics.") + key, std::string("give either physics.rayleigh/prandtl or physics.") + key);
  }
  const double ra = reader.read_number(node["rayleigh"], "physics.rayleigh");
  const double pr = reader.read_number(node["prandtl"], "physics.prandtl");
  if (!(ra > 0)) reader.fail("physics.rayleigh", "got " + describe(node["rayleigh"]) + "; allowed: > 0");
  if (!(pr > 0)) reader.fail("physics.prandtl", "got " + describe(node["prandtl"]) + "; allowed: > 0");
  const double h15 = std::pow(height_along_gravity(deck), 1.5);
  physics.rayleigh = ra;
  physics.prandtl = pr;
  physics.beta_g = 1;
  physics.viscosity = std::sqrt(pr / ra) * h15;
  bool found = false;
  for (auto& scalar : deck.scalars) {
    if (scalar.name != "temperature") continue;
    scalar.diffusivity = h15 / std::sqrt(ra * pr);
    found = true;
  }
  if (!found) reader.fail("physics.rayleigh", "needs a scalar named temperature in the scalars section");
}

// Calls read(entry, path) for every entry of the list `key` of `root`, each checked as a section of keys first.
template <class Read>
void read_sections(YamlReader& reader, const YAML::Node& root, const std::string& key, const Read& read) {
  const YAML::Node list = root[key];
  if (!list) return;
  if (!list.IsSequence()) reader.fail(key, "expected a list of " + key + ", got " + describe(list));
  for (std::size_t n = 0; n < list.size(); ++n) {
    const std::string path = key + "[" + std::to_string(n) + "]";
    reader.record_line(path, list[n]);
    reader.check_section(list[n], path);
    read(list[n], path);
  }
}

// The `name` of a list entry, which it must have (`why` says what it is for).
std::string read_name(YamlReader& reader, const YAML::Node& node, const std::string& path, const std::string& why) {
  if (!node["name"]) reader.fail(path + ".name", "missing: " + why);
  return reader.read_string(node["name"], path + ".name");
}

// physics.drive: {axis, bulk_velocity} or {axis, pressure_gradient}.
DriveConfig read_drive(YamlReader& reader, const YAML::Node& node) {
  reader.check_section(node, "physics.drive");
  DriveConfig drive;
  const bool flow_rate = static_cast<bool>(node["bulk_velocity"]);
  if (flow_rate == static_cast<bool>(node["pressure_gradient"])) {
    reader.fail("physics.drive", "give one of bulk_velocity (a constant flow rate) and pressure_gradient");
  }
  drive.type = flow_rate ? DriveType::flow_rate : DriveType::pressure_gradient;
  const char* key = flow_rate ? "bulk_velocity" : "pressure_gradient";
  drive.value = reader.read_number(node[key], std::string("physics.drive.") + key);
  if (!node["axis"]) reader.fail("physics.drive.axis", "missing: the periodic axis the flow is driven along");
  drive.axis = read_axis(reader, node["axis"], "physics.drive.axis");
  return drive;
}

// The `statistics` section; given at all, it switches the averages on.
StatisticsConfig read_statistics(YamlReader& reader, const YAML::Node& node) {
  reader.check_section(node, "statistics");
  StatisticsConfig statistics;
  statistics.enabled = true;
  if (node["start_time"]) statistics.start_time = reader.read_number(node["start_time"], "statistics.start_time");
  if (node["interval_steps"])
    statistics.interval_steps = reader.read_long(node["interval_steps"], "statistics.interval_steps");
  if (node["interval_time"])
    statistics.interval_time = reader.read_number(node["interval_time"], "statistics.interval_time");
  if (const YAML::Node axes = node["average_over"]) {
    if (!axes.IsSequence()) reader.fail("statistics.average_over", "expected a list of axes, got " + describe(axes));
    for (std::size_t n = 0; n < axes.size(); ++n) {
      const int axis = read_axis(reader, axes[n], "statistics.average_over[" + std::to_string(n) + "]");
      if (statistics.average_over[axis]) {
        reader.fail("statistics.average_over[" + std::to_string(n) + "]", "the axis is listed twice");
      }
      statistics.average_over[axis] = true;
    }
  }
  return statistics;
}

}  // namespace

void read_coupled_physics(YamlReader& reader, const YAML::Node& root, Deck& deck) {
  if (const YAML::Node scalars = root["scalars"]) {
    if (!scalars.IsSequence()) reader.fail("scalars", "expected a list of scalars, got " + describe(scalars));
    for (std::size_t n = 0; n < scalars.size(); ++n) {
      const std::string path = "scalars[" + std::to_string(n) + "]";
      reader.record_line(path, scalars[n]);
      deck.scalars.push_back(read_scalar(reader, scalars[n], path, deck));
      if (scalars[n]["diffusivity"] && root["physics"] && root["physics"]["rayleigh"] &&
          deck.scalars.back().name == "temperature") {
        reader.fail(path + ".diffusivity", "give either physics.rayleigh/prandtl or the temperature diffusivity");
      }
    }
  }
  const YAML::Node physics = root["physics"] ? root["physics"] : YAML::Node(YAML::NodeType::Map);
  read_buoyancy(reader, physics, deck);
  if (physics["drive"]) deck.physics.drive = read_drive(reader, physics["drive"]);
  if (root["statistics"]) deck.statistics = read_statistics(reader, root["statistics"]);
  read_sections(reader, root, "probes", [&](const YAML::Node& node, const std::string& path) {
    ProbeConfig probe;
    probe.name = read_name(reader, node, path, "every probe needs a name (it labels its columns)");
    if (!node["at"]) reader.fail(path + ".at", "missing: the point to sample");
    probe.at = reader.read_list<double>(node["at"], path + ".at", reader.dimensions(), 0.0, "numbers");
    deck.probes.push_back(probe);
  });
  read_sections(reader, root, "lines", [&](const YAML::Node& node, const std::string& path) {
    LineConfig line;
    line.name = read_name(reader, node, path, "every line needs a name (it names its files)");
    for (const char* end : {"from", "to"}) {
      if (!node[end]) reader.fail(path + "." + end, "missing: the line's end points");
    }
    line.from = reader.read_list<double>(node["from"], path + ".from", reader.dimensions(), 0.0, "numbers");
    line.to = reader.read_list<double>(node["to"], path + ".to", reader.dimensions(), 0.0, "numbers");
    if (node["points"]) line.points = reader.read_int(node["points"], path + ".points");
    if (node["interval_time"]) line.interval_time = reader.read_number(node["interval_time"], path + ".interval_time");
    deck.lines.push_back(line);
  });
  read_sections(reader, root, "planes", [&](const YAML::Node& node, const std::string& path) {
    PlaneConfig plane;
    plane.name = read_name(reader, node, path, "every plane needs a name (it names its files)");
    if (!node["axis"]) reader.fail(path + ".axis", "missing: the axis normal to the plane");
    plane.axis = read_axis(reader, node["axis"], path + ".axis");
    if (!node["at"]) reader.fail(path + ".at", "missing: the plane's coordinate along its axis");
    plane.at = reader.read_number(node["at"], path + ".at");
    if (node["interval_time"]) plane.interval_time = reader.read_number(node["interval_time"], path + ".interval_time");
    deck.planes.push_back(plane);
  });
  if (const YAML::Node bodies = root["bodies"]) {
    if (!bodies.IsSequence()) reader.fail("bodies", "expected a list of bodies, got " + describe(bodies));
    for (std::size_t n = 0; n < bodies.size(); ++n) {
      const std::string path = "bodies[" + std::to_string(n) + "]";
      reader.record_line(path, bodies[n]);
      deck.bodies.push_back(read_body(reader, bodies[n], path));
    }
  }
}

}  // namespace eddy::config
