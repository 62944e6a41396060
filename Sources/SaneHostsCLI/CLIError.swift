import ArgumentParser
import Foundation

/// A failure shown to the user as its message and recovery suggestion, with exit status 1.
struct CLIError: Error, CustomStringConvertible {
  let underlying: any Error

  init(_ underlying: any Error) { self.underlying = underlying }

  var description: String {
    guard let localized = underlying as? any LocalizedError else { return String(describing: underlying) }
    let message = localized.errorDescription ?? String(describing: underlying)
    guard let suggestion = localized.recoverySuggestion else { return message }
    return "\(message)\n\(suggestion)"
  }
}

/// A problem met while running a command that is not a mistake in its arguments (a file that cannot be
/// read or written, nothing saved yet): shown as its message and what to do, without the usage text
/// `ValidationError` adds, with exit status 1. (Not a `LocalizedError`: ArgumentParser would then show
/// only the message.)
struct CommandFailure: Error, CustomStringConvertible {
  /// What went wrong, naming the value.
  var message: String
  /// What to do.
  var suggestion: String?

  init(_ message: String, suggestion: String? = nil) {
    self.message = message
    self.suggestion = suggestion
  }

  var description: String { suggestion.map { "\(message)\n\($0)" } ?? message }
}
