/// `receive(on:)`: hops each result to the scheduler before passing it on.
final class ReceiveStage<T, E: Error, S: PromiseScheduler>: _Stage<T, E>, @unchecked Sendable {
  let upstream: _Source<T, E>
  let scheduler: S

  init(upstream: Promise<T, E>, scheduler: S) {
    self.upstream = upstream._source
    self.scheduler = scheduler
    super.init(owner: upstream._owner) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: ReceiveStage<T, E, S>.self)
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
  }
}

/// `subscribe(on:)`: subscribes to its upstream from the scheduler.
final class SubscribeStage<T, E: Error, S: PromiseScheduler>: _Stage<T, E>, @unchecked Sendable {
  let upstream: _Source<T, E>
  let scheduler: S

  init(upstream: Promise<T, E>, scheduler: S) {
    self.upstream = upstream._source
    self.scheduler = scheduler
    super.init(owner: upstream._owner) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: SubscribeStage<T, E, S>.self)
      guard !handle._isCancelled else { return }
      this.scheduler.enqueue {
        // `this` owns the upstream stages (which `_Source` references without owning) until they have started.
        guard !handle._isCancelled else { return }
        this.upstream.start(handle, passingTo: completion)
      }
    }
  }
}
