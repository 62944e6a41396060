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
/// read or written, nothing saved yet): shown as its message, without the usage text `ValidationError`
/// adds, with exit status 1.
struct CommandFailure: Error, LocalizedError, CustomStringConvertible {
  /// What went wrong, naming the value.
  var errorDescription: String?
  /// What to do.
  var recoverySuggestion: String?

  init(_ message: String, suggestion: String? = nil) {
    errorDescription = message
    recoverySuggestion = suggestion
  }

  var description: String { CLIError(self).description }
}
