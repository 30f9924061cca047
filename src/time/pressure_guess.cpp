#include "time/pressure_guess.hpp"

#include "core/error.hpp"
#include "fields/shifted_copy.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace eddy::time {
namespace {

using SpanRange = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>, LightWeight>;

// A kept pressure's name in checkpoints: pressure_before_<n>, the pressure n solves before the last.
const std::string kept_prefix = "pressure_before_";

std::string field_name(int solves_before) { return kept_prefix + std::to_string(solves_before); }

int solves_before_of(const std::string& name) {
  require(name.rfind(kept_prefix, 0) == 0, "PressureGuess: '" + name + "' is not a kept pressure");
  return std::stoi(name.substr(kept_prefix.size()));
}

}  // namespace

PressureGuess::PressureGuess(const fields::LocalShape& shape, int stages, bool ssp_stage_times)
    : ssp_stage_times_(ssp_stage_times), ghost_(shape.ghost) {
  require(!ssp_stage_times || stages == 3, "PressureGuess: the SSP RK3 has three stages");
  if (stages < 2) return;
  for (int n = 0; n < stages; ++n) kept_.push_back(fields::make_field("pressure_guess::kept", shape));
}

void PressureGuess::before_solve(Field& p, int stage) {
  if (kept_.empty()) return;
  if (stage == 0 && first_guess_made_) {
    first_guess_made_ = false;
    step_start_ = kept_.back();
    step_start_mean_ = removed_mean_;
    return;
  }
  require(p.span_is_contiguous(), "PressureGuess: the pressure field must be contiguous");
  Field& oldest = kept_.front();
  require(oldest.span() == p.span() && oldest.layout() == p.layout(),
          "PressureGuess: the pressure field has another shape");
  const int stages = static_cast<int>(kept_.size());
  const bool all_known = solved_ && known_ == stages;
  const Real* last = p.data();                 // q_m
  const Real* previous = kept_.back().data();  // q_{m-1}
  const Real* stage_before = kept_[1].data();  // q_{m+1-S}
  Real* guess = oldest.data();                 // q_{m-S}, overwritten point by point once read
  const SpanRange span(0, static_cast<long long>(p.span()));
  if (ssp_stage_times_ && all_known && stage == 0) {
    Kokkos::deep_copy(ExecSpace(), oldest, kept_.back());
  } else if (ssp_stage_times_ && all_known && stage == 2) {
    Kokkos::parallel_for(
        "pressure_guess::before_solve", span,
        KOKKOS_LAMBDA(long long n) { guess[n] = Real(0.5) * (last[n] + previous[n]); });
  } else if (stage > 0 && all_known) {
    Kokkos::parallel_for(
        "pressure_guess::before_solve", span,
        KOKKOS_LAMBDA(long long n) { guess[n] = last[n] + (stage_before[n] - guess[n]); });
  } else {
    Kokkos::deep_copy(ExecSpace(), oldest, p);
  }
  known_ = solved_ ? std::min(known_ + 1, stages) : 0;
  solved_ = false;
  std::swap(p, oldest);  // p names the guess, the oldest kept buffer the last pressure
  if (stage == 0) {
    step_start_ = oldest;
    step_start_mean_ = 0;
  }
  std::rotate(kept_.begin(), kept_.begin() + 1, kept_.end());
}

void PressureGuess::end_step(Field& p, Real mean) {
  require(removes_mean_at_step_end(), "PressureGuess: end_step() for a scheme whose first guess is not a copy");
  require(!first_guess_made_, "PressureGuess: end_step() twice without a solve between");
  Field& oldest = kept_.front();
  fields::shifted_copy("pressure_guess::end_step", oldest, p, mean);
  const int stages = static_cast<int>(kept_.size());
  known_ = solved_ ? std::min(known_ + 1, stages) : 0;
  solved_ = false;
  first_guess_made_ = true;
  removed_mean_ = mean;
  std::swap(p, oldest);
  std::rotate(kept_.begin(), kept_.begin() + 1, kept_.end());
}

Field PressureGuess::abandon_step() {
  if (step_start_mean_ != 0) {
    const Real mean = step_start_mean_;
    fields::shifted_copy("pressure_guess::abandon_step", step_start_, step_start_, mean);
    step_start_mean_ = 0;
  }
  return step_start_;
}

// The newest kept pressure is n solves before the last without end_step()'s guess, n - 1 with it (the last solve's
// own result is then kept).
std::vector<fields::NamedField> PressureGuess::recorded_fields() const {
  std::vector<fields::NamedField> named;
  const int stages = static_cast<int>(kept_.size());
  const int newest = first_guess_made_ ? 0 : 1;
  for (int n = 0; n < known_; ++n) named.push_back({field_name(newest + n), kept_[stages - 1 - n]});
  return named;
}

// Read with the names after end_step(): restore() moves the buffers on by one when the checkpoint has none of its
// guess, so pressure_before_<S> lands in the buffer of pressure_before_0.
std::vector<fields::NamedField> PressureGuess::all_fields() const {
  std::vector<fields::NamedField> named;
  const int stages = static_cast<int>(kept_.size());
  if (stages == 0) return named;  // no guesses kept (a single stage, or bodies)
  for (int n = 0; n <= stages; ++n) named.push_back({field_name(n), kept_[(2 * stages - 1 - n) % stages]});
  return named;
}

void PressureGuess::restore(const std::vector<std::string>& names, const Field& p) {
  if (kept_.empty()) return;  // no guesses kept: nothing to restore
  std::vector<int> found;
  for (const auto& name : names) found.push_back(solves_before_of(name));
  std::sort(found.begin(), found.end());
  const int stages = static_cast<int>(kept_.size());
  const bool guess_made = !found.empty() && found.front() == 0;
  const int newest = guess_made ? 0 : 1;
  for (std::size_t n = 0; n < found.size(); ++n) {
    require(found[n] == static_cast<int>(n) + newest && found[n] < stages + newest,
            "PressureGuess: the kept pressures of a checkpoint must be the newest ones, without gaps");
  }
  if (guess_made && !removes_mean_at_step_end()) {  // another scheme wrote it: its guesses start afresh
    known_ = 0;
    solved_ = false;
    return;
  }
  if (!guess_made) std::rotate(kept_.rbegin(), kept_.rbegin() + 1, kept_.rend());
  known_ = static_cast<int>(found.size());
  first_guess_made_ = guess_made;
  solved_ = !guess_made && known_ > 0;
  removed_mean_ = 0;
  if (guess_made && p.is_allocated()) {
    // The kept result less the pressure end_step() wrote from it is the removed mean at every point; one owned point
    // gives it to within the rounding of that subtraction.
    const int g = ghost_;
    Real kept = 0, written = 0;
    Kokkos::deep_copy(kept, Kokkos::subview(kept_.back(), g, g, g));
    Kokkos::deep_copy(written, Kokkos::subview(p, g, g, g));
    removed_mean_ = kept - written;
  }
}

}  // namespace eddy::time
