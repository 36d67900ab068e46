/// Decides whether a result reaching a continuation may go on: always for the library's own stages and known
/// results; exactly once, and only while the run is not cancelled, for a caller's task.
@usableFromInline
enum _Admission: Sendable {
  /// A result from the library's own stage or a known result: always admitted.
  case trusted
  /// A result from a caller's task: admitted once, for the run the task was invoked in.
  case task(_TaskTicket)

  @inlinable
  init(handle: RunHandle, site: _Site) {
    self = .task(_TaskTicket(handle: handle, site: site))
  }

  @inlinable
  var isTrusted: Bool {
    if case .trusted = self { return true }
    return false
  }

  /// Whether this call of the completion handler is the one that counts.
  @inlinable
  func admit(_ handle: RunHandle) -> Bool {
    guard case .task(let ticket) = self else { return true }
    switch handle._claim(ticket.generation) {
    case .accepted:
      return true
    case .cancelled:
      return false
    case .duplicate:
      #if DEBUG
        PromiseDiagnostics.report(.completedMoreThanOnce, site: ticket.site)
      #endif
      return false
    }
  }
}

/// What a caller's task is admitted by: the generation of the run it was invoked in, and (in debug builds) where
/// it was made and a witness that reports a completion handler released without being called.
@usableFromInline
struct _TaskTicket: Sendable {
  @usableFromInline let generation: Int
  @usableFromInline let site: _Site
  #if DEBUG
    @usableFromInline let witness: _CompletionWitness
  #endif

  @inlinable
  init(handle: RunHandle, site: _Site) {
    generation = handle._generation
    self.site = site
    #if DEBUG
      witness = _CompletionWitness(handle: handle, generation: generation, site: site)
    #endif
  }
}

#if DEBUG
  /// Lives as long as a task's completion handler; reports a handler released without being called.
  @usableFromInline
  final class _CompletionWitness: Sendable {
    @usableFromInline let handle: RunHandle
    @usableFromInline let generation: Int
    @usableFromInline let site: _Site

    @inlinable
    init(handle: RunHandle, generation: Int, site: _Site) {
      self.handle = handle
      self.generation = generation
      self.site = site
    }

    deinit {
      if !handle._isCancelled && handle._generation == generation {
        PromiseDiagnostics.report(.completionReleasedWithoutBeingCalled, site: site)
      }
    }
  }
#endif
