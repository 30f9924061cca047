#include "run/run_case.hpp"

#include "core/kernel_timer.hpp"
#include "io/checkpoint.hpp"
#include "physics/coupled_physics.hpp"
#include "run/progress.hpp"
#include "run/run_control.hpp"
#include "run/run_outputs.hpp"
#include "run/run_summary.hpp"
#include "time/blow_up.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <optional>
#include <string>

namespace eddy::run {
namespace {

// Runs `write` as part of the output phase of `sim`'s timers.
template <class Write>
void timed_output(time::Simulation& sim, const Write& write) {
  auto scope = sim.timers().time(Phase::output);
  write();
}

// CPU time of this process so far (user and system, every thread).
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The CPU time of the steps per host thread and wall second: below 1 where the threads waited for a core.
double core_share(double cpu, double wall) {
  const double threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  return wall > 0 ? cpu / (wall * threads) : 1;
}

// Detaches an observer when the run ends, however it ends.
struct ObserverHandle {
  time::Simulation& sim;
  int handle;
  ~ObserverHandle() { sim.remove_step_observer(handle); }
};

// The steps from the setup of run_case to the end, then the summary; returns the exit status.
int step_to_the_end(time::Simulation& sim, RunOutputs& outputs, RunControl& control, Progress& progress,
                    bool talkative) {
  const config::Deck& deck = sim.deck();
  parallel::Context& context = sim.context();
  const auto write_checkpoint = [&] { outputs.write_checkpoint(sim); };

  std::optional<KernelTimer> kernel_timer;
  if (sim.options().kernel_times) kernel_timer.emplace();
  Kokkos::Timer wall;
  const double cpu_at_start = cpu_seconds();
  const long long first_step = sim.step();
  const PhaseTimers::Seconds set_up = sim.timers().total();  // the initial projection, not part of the run's steps
  int status = exit_finished;
  std::string stop_reason;
  try {
    while (!control.should_stop(sim.step(), sim.time())) {
      sim.take_step();
      outputs.record(sim.history().back());
      progress.update(sim.history().back());
      if (control.take_write_request()) {
        timed_output(sim, [&] {
          outputs.write_fields(sim.state(), sim.time(), sim.step());
          write_checkpoint();
        });
      }
    }
    timed_output(sim, [&] {
      const std::string said = outputs.write_statistics(sim);
      if (talkative && !said.empty()) std::printf("statistics: %s\n", said.c_str());
      write_checkpoint();
    });
    progress.end_line();
    if (talkative) std::printf("%s\n", control.stop_message((outputs.run_dir() / "deck.yaml").string()).c_str());
    if (control.stopped_early()) status = exit_stopped_early;
    stop_reason = stop_reason_text(control.reason());
  } catch (const time::Diverged& diverged) {
    const time::LastGoodState good = sim.abandon_step();
    timed_output(sim, [&] { outputs.write_checkpoint(good.flow, good.scalars, {}, good.time, good.step, good.dt); });
    progress.end_line();
    if (context.rank() == 0) {
      std::fprintf(stderr, "eddy: error: %s\nthe last good state (step %lld, t = %.6g) is in %s\n", diverged.what(),
                   good.step, good.time,
                   (outputs.run_dir() / "checkpoints" / io::Checkpointer::file_name(good.step)).c_str());
    }
    status = exit_diverged;
    stop_reason = "diverged";
  }

  PhaseTimers::Seconds phase_seconds = sim.timers().total();
  for (int p = 0; p < PhaseTimers::count; ++p) phase_seconds[p] -= set_up[p];
  RunMeasurements measured{deck.name,
                           sim.step() - first_step,
                           wall.seconds(),
                           phase_seconds,
                           parallel::to_string(sim.plan().halo),
                           parallel::to_string(sim.plan().reductions),
                           sim.solver_name(),
                           stop_reason,
                           sim.time(),
                           sim.step(),
                           sim.timers().exact(),
                           0,
                           sim.plan().json(),
                           core_share(cpu_seconds() - cpu_at_start, wall.seconds())};
  for (const StepRecord& record : sim.history()) {
    if (record.step > first_step) measured.poisson_iterations += record.poisson_iterations;
  }
  RunSummary summary = summarise_run(measured, sim.decomposition(), context);
  if (kernel_timer) add_kernel_times(summary, kernel_timer->times(), measured.wall_seconds, measured.steps, context);
  outputs.finish(summary.json);
  if (talkative) {
    std::fputs(summary.text.c_str(), stdout);
    sim.physics().print_summary(context.rank());
    std::fflush(stdout);
  }
  return status;
}

}  // namespace

int run_case(time::Simulation& sim) {
  const config::Deck& deck = sim.deck();
  parallel::Context& context = sim.context();
  const bool talkative = context.rank() == 0 && !sim.options().quiet;
  RunOutputs outputs(deck, sim.decomposition(), sim.shape(), context, sim.restart_point(), sim.scalar_fields());
  const RunOutputs::LineSampler sample_line = [&sim](int n) { return sim.sample_line(n); };
  RunControl control(deck.time, outputs.run_dir(), context);
  Progress progress(deck, talkative, sim.time(), sim.step());
  const ObserverHandle observer{sim, sim.add_step_observer([&](const StepRecord& record) {
                                  const std::string said = outputs.after_step(sim, record);
                                  if (talkative && !said.empty()) std::printf("statistics: %s\n", said.c_str());
                                })};
  if (!sim.restart_point()) {
    if (outputs.writes_fields()) outputs.write_fields(sim.state(), sim.time(), sim.step());
    outputs.write_lines(sample_line, sim.state(), sim.time(), sim.step());
  }
  try {
    return step_to_the_end(sim, outputs, control, progress, talkative);
  } catch (const Error& failure) {
    throw RunFailure(failure.what(), failure.ranks());
  }
}

}  // namespace eddy::run
