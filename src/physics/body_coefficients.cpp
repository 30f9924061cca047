#include "physics/body_coefficients.hpp"

#include <algorithm>
#include <cmath>

namespace eddy::physics {

BodyReference body_reference(const config::BodyConfig& body, const config::Deck& deck) {
  BodyReference ref;
  ref.velocity = body.reference_velocity;
  const bool box = body.shape == config::BodyShape::box;
  ref.length = body.reference_length > 0 ? body.reference_length : (box ? body.size[1] : 2 * body.radius);
  if (deck.domain.dimensions == 2) {
    ref.area = ref.length;  // per unit depth, as the 2D forces are
  } else if (body.reference_area > 0) {
    ref.area = body.reference_area;
  } else if (box) {
    ref.area = body.size[1] * body.size[2];
  } else if (body.shape == config::BodyShape::cylinder && body.axis != 0) {
    ref.area = 2 * body.radius * deck.domain.length[body.axis];
  } else {
    ref.area = M_PI * body.radius * body.radius;
  }
  return ref;
}

double strouhal_number(const std::vector<double>& times, const std::vector<double>& lift, const BodyReference& ref,
                       double min_amplitude) {
  const std::size_t n = std::min(times.size(), lift.size());
  if (n < 4) return 0;
  const std::size_t first = n / 2;
  double mean = 0, lowest = lift[first], highest = lift[first];
  for (std::size_t s = first; s < n; ++s) {
    mean += lift[s];
    lowest = std::min(lowest, lift[s]);
    highest = std::max(highest, lift[s]);
  }
  mean /= static_cast<double>(n - first);
  if (highest - lowest < min_amplitude) return 0;
  std::vector<double> crossings;
  for (std::size_t s = first + 1; s < n; ++s) {
    const double a = lift[s - 1] - mean, b = lift[s] - mean;
    if (a < 0 && b >= 0) crossings.push_back(times[s - 1] + (times[s] - times[s - 1]) * (-a) / (b - a));
  }
  if (crossings.size() < 3) return 0;
  const double period = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  return ref.length / (period * ref.velocity);
}

}  // namespace eddy::physics
