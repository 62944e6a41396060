/// Something that loads a `Value` on demand and publishes its `LoadingState`.
///
/// Contract for conforming types:
/// - `state` returns a new stream that first replays the current state, then yields every change.
/// - `currentState` is the latest state, read synchronously.
/// - `load()` returns once the load it started (or joined) has settled; by then it has published
///   a state other than `.loading` (`.success`, `.failure`, or `.idle` when cancelled).
/// - `cancel()` asks a running load to stop; it never blocks and does nothing when idle.
public protocol Loadable<Value>: AnyObject, Sendable {
  /// The type of value being loaded.
  associatedtype Value: Sendable

  /// A new stream of states that replays the current state first, then yields every change.
  var state: AsyncStream<LoadingState<Value>> { get }

  /// The latest state, read synchronously.
  var currentState: LoadingState<Value> { get }

  /// Loads the value (or joins a load already running) and returns once it has settled.
  func load() async

  /// Asks a running load to stop; does nothing when no load is running.
  func cancel()
}
