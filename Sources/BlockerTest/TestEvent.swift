/// What a running blocker test reports, for live progress.
public enum TestEvent: Sendable, Hashable {
  /// The control domains were checked; probing the registry starts.
  case started(total: Int)
  /// One domain finished.
  case finished(DomainResult, done: Int, total: Int, blocked: Int)
}
