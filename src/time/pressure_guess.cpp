#include "time/pressure_guess.hpp"

#include "core/error.hpp"

#include <string>
#include <utility>

namespace eddy::time {
namespace {

using SpanRange = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>, LightWeight>;

// A change field's name in checkpoints: pressure_change_<stage>.
const std::string change_prefix = "pressure_change_";

std::string field_name(int stage) { return change_prefix + std::to_string(stage); }

int stage_of(const std::string& name) {
  require(name.rfind(change_prefix, 0) == 0, "PressureGuess: '" + name + "' is not a pressure change");
  return std::stoi(name.substr(change_prefix.size()));
}

void require_contiguous(const Field& f) {
  require(f.span_is_contiguous(), "PressureGuess: the pressure field must be contiguous");
}

}  // namespace

PressureGuess::PressureGuess(const fields::LocalShape& shape, int stages) : recorded_(stages, false) {
  if (stages < 2) return;
  kept_ = fields::make_field("pressure_guess::kept", shape);
  change_.resize(stages);
  for (int k = 1; k < stages; ++k) change_[k] = fields::make_field("pressure_guess::change", shape);
}

void PressureGuess::before_solve(Field& p, int stage) {
  if (stage == 0) return;
  require_contiguous(p);
  require(kept_.span() == p.span() && kept_.layout() == p.layout(),
          "PressureGuess: the pressure field has another shape");
  if (!recorded_[stage]) {
    Kokkos::deep_copy(ExecSpace(), kept_, p);
    return;
  }
  const Real* previous_stage = p.data();
  const Real* change = change_[stage].data();
  Real* guess = kept_.data();
  Kokkos::parallel_for(
      "pressure_guess::before_solve", SpanRange(0, static_cast<long long>(p.span())),
      KOKKOS_LAMBDA(long long n) { guess[n] = previous_stage[n] + change[n]; });
  std::swap(p, kept_);  // p names the guess, kept_ the previous stage's pressure
}

void PressureGuess::after_solve(Field p, int stage) {
  if (stage == 0) return;
  const Real* pressure = p.data();
  const Real* kept = kept_.data();
  Real* change = change_[stage].data();
  Kokkos::parallel_for(
      "pressure_guess::after_solve", SpanRange(0, static_cast<long long>(p.span())),
      KOKKOS_LAMBDA(long long n) { change[n] = pressure[n] - kept[n]; });
  recorded_[stage] = true;
}

std::vector<fields::NamedField> PressureGuess::recorded_fields() const {
  std::vector<fields::NamedField> named;
  for (const auto& field : all_fields()) {
    if (recorded_[stage_of(field.name)]) named.push_back(field);
  }
  return named;
}

std::vector<fields::NamedField> PressureGuess::all_fields() const {
  std::vector<fields::NamedField> named;
  for (std::size_t k = 1; k < change_.size(); ++k) named.push_back({field_name(static_cast<int>(k)), change_[k]});
  return named;
}

void PressureGuess::restore(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    const int stage = stage_of(name);
    require(stage >= 1 && stage < static_cast<int>(change_.size()), "PressureGuess: no stage of '" + name + "'");
    recorded_[stage] = true;
  }
}

}  // namespace eddy::time
