/// `receive(on:)` and `subscribe(on:)`: a stage that goes through a scheduler, to pass each result on
/// (`receive`) or to start its upstream (`subscribe`).
final class _SchedulerStage<T, E: Error, S: PromiseScheduler>: _Stage<T, E>, @unchecked Sendable {
  /// What the stage does on the scheduler.
  enum Hop {
    /// `receive(on:)`: the upstream starts where the run is, and each result is passed on from the scheduler.
    case deliver
    /// `subscribe(on:)`: the upstream starts on the scheduler.
    case start
  }

  let upstream: _Source<T, E>
  let scheduler: S

  init(upstream: Promise<T, E>, scheduler: S, hop: Hop) {
    self.upstream = upstream._source
    self.scheduler = scheduler
    switch hop {
    case .deliver:
      super.init(owner: upstream._owner) { stage, handle, completion in
        let this = unsafeDowncast(stage, to: _SchedulerStage<T, E, S>.self)
        let scheduler = this.scheduler
        this.upstream.start(handle) { admission in
          { result in
            guard admission.admit(handle), !handle._isCancelled else { return }
            let handoff = Unchecked(result)
            scheduler.enqueue {
              guard !handle._isCancelled else { return }
              _deliver(handoff.value, to: completion)
            }
          }
        }
      }
    case .start:
      super.init(owner: upstream._owner) { stage, handle, completion in
        let this = unsafeDowncast(stage, to: _SchedulerStage<T, E, S>.self)
        guard !handle._isCancelled else { return }
        this.scheduler.enqueue {
          // `this` owns the upstream stages (which `_Source` references without owning) until they have started.
          guard !handle._isCancelled else { return }
          this.upstream.start(handle, passingTo: completion)
        }
      }
    }
  }
}
