#include "parallel/exchange_clock.hpp"

#include "core/error.hpp"

namespace eddy::parallel {

ExchangeClock::ExchangeClock() : words_("halo::exchange_clock") {}

ExchangeStamps ExchangeClock::stamps() {
  require(measures(), "exchange clock: this build's device has no clock the exchange kernels can read");
  ++exchanges_;
  return {words_.data()};
}

double ExchangeClock::take_seconds() {
  unsigned long long sum = 0;
  Kokkos::deep_copy(sum, Kokkos::subview(words_, 0));
  const double seconds = static_cast<double>(sum - taken_) * 1e-9;
  taken_ = sum;
  return seconds;
}

}  // namespace eddy::parallel
