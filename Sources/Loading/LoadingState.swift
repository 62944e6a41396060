/// The state of something that loads a `Value`: idle, loading, loaded or failed.
public enum LoadingState<Value: Sendable>: Sendable {
  /// Nothing has been loaded yet, or the last load was cancelled.
  case idle
  /// A load is running; the progress says how far it has got.
  case loading(LoadingProgress)
  /// The last load produced `Value`.
  case success(Value)
  /// The last load failed.
  case failure(LoadingFailure)

  /// A failed state wrapping `error` in a new `LoadingFailure` (an existing `LoadingFailure` is kept as is).
  public static func failure(_ error: any Error & Sendable) -> LoadingState {
    .failure(LoadingFailure(error))
  }

  /// Whether the state is `.idle`.
  public var isIdle: Bool {
    if case .idle = self { return true }
    return false
  }

  /// Whether the state is `.loading`.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// The progress of a `.loading` state, else `nil`.
  public var progress: LoadingProgress? {
    if case .loading(let progress) = self { return progress }
    return nil
  }

  /// The value of a `.success` state, else `nil`.
  public var value: Value? {
    if case .success(let value) = self { return value }
    return nil
  }

  /// The failure of a `.failure` state, else `nil`.
  public var loadingFailure: LoadingFailure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }

  /// The error wrapped by a `.failure` state, else `nil`.
  public var error: (any Error & Sendable)? {
    loadingFailure?.error
  }
}

extension LoadingState: Equatable where Value: Equatable {}

extension LoadingState: Hashable where Value: Hashable {}
