import Foundation
import Pihole
import Store

/// Sessions on the fleet's Pi-holes with one password for all, never a prompt: `fleet sync` and `fleet
/// status` open several at once, and the dashboard none interactively.
public struct PasswordPiholeSessions: PiholeSessions {
  /// The password, or nil for Pi-holes without one.
  public var password: String?
  /// The client's User-Agent.
  public var userAgent: String

  /// Sessions signed in with `password`.
  public init(password: String?, userAgent: String) {
    self.password = password
    self.userAgent = userAgent
  }

  public func withClient<R: Sendable>(_ pihole: String, _ body: @escaping @Sendable (PiholeClient) async throws -> R)
    async throws -> R
  {
    try await PiholeClient.withSession(
      host: try PiholeHost(pihole), password: password, totp: nil, userAgent: userAgent, body)
  }

  /// The password from `file` (its first line), else PIHOLE_PASSWORD, else the one `sanehosts pihole
  /// --save-password` kept in `data`; nil when there is none. Throws naming a file that cannot be read.
  public static func password(file: String?, data: DataDirectory) throws -> String? {
    if let file {
      guard let contents = FileManager.default.contents(atPath: file) else { throw PasswordError.unreadable(file) }
      return String(decoding: contents, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        .first.map(String.init)
    }
    if let variable = ProcessInfo.processInfo.environment["PIHOLE_PASSWORD"] { return variable }
    return FileManager.default.contents(atPath: data.url.appendingPathComponent("pihole-password").path).map {
      String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
  }

  /// A password file that cannot be read.
  public enum PasswordError: Error, Sendable, Hashable, LocalizedError {
    /// The file is missing or not readable.
    case unreadable(String)

    public var errorDescription: String? {
      switch self {
      case .unreadable(let file):
        "Cannot read the password file \(file). Check that it exists and that you may read it."
      }
    }
  }
}
