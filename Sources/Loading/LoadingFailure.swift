import Foundation

/// A Sendable error wrapper with identity semantics, so failures can live in `Hashable` states.
///
/// Every `LoadingFailure` created from an error is distinct from every other one, even when the
/// wrapped errors are equal; copies of one failure are equal to each other and hash alike.
public struct LoadingFailure: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
  private final class Identity: Sendable {}

  /// The wrapped error.
  public let error: any Error & Sendable
  private let identity: Identity

  /// Wraps `error` in a new, distinct failure; wrapping a `LoadingFailure` returns that failure unchanged.
  public init(_ error: any Error & Sendable) {
    if let failure = error as? LoadingFailure {
      self = failure
      return
    }
    self.error = error
    self.identity = Identity()
  }

  /// A readable message: the wrapped error's `errorDescription` if it has one, else its description.
  public var message: String {
    if let description = (error as? any LocalizedError)?.errorDescription {
      return description
    }
    return String(describing: error)
  }

  /// The same text as `message`, so a thrown `LoadingFailure` reads like the error it wraps.
  public var errorDescription: String? {
    message
  }

  /// The same text as `message`.
  public var description: String {
    message
  }

  /// Two failures are equal only when they are copies of the same failure.
  public static func == (lhs: LoadingFailure, rhs: LoadingFailure) -> Bool {
    lhs.identity === rhs.identity
  }

  /// Hashes the failure's identity, never the wrapped error.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(identity))
  }
}
