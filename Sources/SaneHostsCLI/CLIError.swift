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
