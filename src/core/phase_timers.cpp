#include "core/phase_timers.hpp"

#include "core/error.hpp"

#include <string>

namespace eddy {

PhaseTimers::PhaseTimers(bool exact) : exact_(exact) {
  if (device::StreamMarks::available()) marks_ = std::make_unique<device::StreamMarks>();
}

PhaseTimers::~PhaseTimers() = default;

PhaseTimers::Scope::Scope(PhaseTimers& timers, Phase phase, Wait wait)
    : timers_(&timers), phase_(phase), enclosing_(timers.active_), wait_(wait) {
  if (timers_->exact_ && timers_->marks_ && wait_ != Wait::never) start_mark_ = timers_->marks_->record();
  if (timers_->exact_ && !timers_->marks_ && wait_ == Wait::at_start) ExecSpace().fence("eddy::phase_start");
  pushed_ = push_region(phase_name(phase));
  timers_->active_ = static_cast<int>(phase);
  timer_.reset();
}

PhaseTimers::Scope::~Scope() {
  const int end_mark = start_mark_ >= 0 ? timers_->marks_->record() : -1;
  if (end_mark >= 0) {
    timers_->intervals_.push_back({static_cast<int>(phase_), enclosing_, start_mark_, end_mark});
  } else {
    if (timers_->exact_ && !timers_->marks_ && wait_ == Wait::at_end) ExecSpace().fence("eddy::phase_end");
    const double seconds = timer_.seconds();
    timers_->add(phase_, seconds);
    if (enclosing_ >= 0) timers_->add(static_cast<Phase>(enclosing_), -seconds);
  }
  timers_->active_ = enclosing_;
  pop_region(pushed_);
}

void PhaseTimers::move_from_open_scope(Phase phase, std::function<double()> read) {
  if (active_ < 0) return;
  deferred_.push_back({static_cast<int>(phase), active_, std::move(read)});
}

void PhaseTimers::resolve() {
  if (!intervals_.empty()) {
    marks_->wait();
    for (const Interval& interval : intervals_) {
      const double seconds = marks_->seconds(interval.start_mark, interval.end_mark);
      add(static_cast<Phase>(interval.phase), seconds);
      if (interval.enclosing >= 0) add(static_cast<Phase>(interval.enclosing), -seconds);
    }
    intervals_.clear();
  }
  if (marks_ && active_ < 0) marks_->reuse();  // an open scope may still hold a mark
  for (const DeferredMove& move : deferred_) {
    const double seconds = move.read();
    add(static_cast<Phase>(move.to), seconds);
    add(static_cast<Phase>(move.from), -seconds);
  }
  deferred_.clear();
}

const PhaseTimers::Seconds& PhaseTimers::step() {
  resolve();
  return step_;
}

const PhaseTimers::Seconds& PhaseTimers::total() {
  resolve();
  return total_;
}

void PhaseTimers::start_step() {
  resolve();
  step_.fill(0);
}

}  // namespace eddy
