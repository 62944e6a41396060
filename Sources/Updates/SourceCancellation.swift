import Loading
import Locking

/// Cancels single sources of a running update while the others go on (the dashboard's per-source Cancel).
///
/// Each source of a run is fetched by a `TaskLoader`; cancelling the source cancels that loader, and the
/// source ends as failed with kind `cancelled`, keeping its previous copy, as on any failure. A source
/// cancelled while it still waits for a slot never starts, and one whose new copy waits for its turn to
/// be merged into the profile can still be cancelled until the run takes it. Make one per run and pass
/// it to `Updater.update(profile:options:cancellation:events:)`.
public final class SourceCancellation: Sendable {
  private struct State {
    /// The loaders of the sources being fetched, by key.
    var running: [String: any Loadable] = [:]
    /// Keys cancelled before their fetch started.
    var cancelled: Set<String> = []
    /// Keys whose fetch ended.
    var ended: Set<String> = []
  }

  private let state = Locked(State())

  /// Creates a cancellation for one run.
  public init() {}

  /// Cancels the source `key`; false when it has already ended (or was already cancelled).
  @discardableResult
  public func cancel(_ key: String) -> Bool {
    let loader = state.withLock { state -> (any Loadable)?? in
      if state.ended.contains(key) || state.cancelled.contains(key) { return .none }
      state.cancelled.insert(key)
      return .some(state.running[key])
    }
    guard let loader else { return false }
    loader?.cancel()
    return true
  }

  /// Whether source `key` was cancelled through `cancel(_:)` (and not by the run's own cancellation).
  func wasCancelled(_ key: String) -> Bool {
    state.withLock { $0.cancelled.contains(key) }
  }

  /// Loads `loader` as source `key`'s fetch; false (without loading) when the source was cancelled first.
  ///
  /// When `staysOpen` says so once the fetch has ended (its new copy waits to be merged), the source can
  /// still be cancelled until `close(_:)`.
  func load(_ loader: some Loadable, as key: String, staysOpen: () -> Bool = { false }) async -> Bool {
    let start = state.withLock { state -> Bool in
      guard !state.cancelled.contains(key) else { return false }
      state.running[key] = loader
      return true
    }
    guard start else {
      state.withLock { _ = $0.ended.insert(key) }
      return false
    }
    await loader.load()
    let open = staysOpen()
    state.withLock { state in
      state.running[key] = nil
      if !open { state.ended.insert(key) }
    }
    return true
  }

  /// Ends source `key` as the run takes its new copy; false when it was cancelled first (the copy is
  /// then dropped).
  func close(_ key: String) -> Bool {
    state.withLock { state in
      guard !state.cancelled.contains(key) else { return false }
      state.ended.insert(key)
      return true
    }
  }
}
