import Pihole

/// How the fleet's use cases sign in to a Pi-hole: the front end knows the passwords (a file, the
/// environment, the one saved), the use case only asks for a session on one host.
public protocol PiholeSessions: Sendable {
  /// Runs `body` with a client signed in to `pihole` (host, address or URL), logged out however it ends.
  func withClient<R: Sendable>(_ pihole: String, _ body: @escaping @Sendable (PiholeClient) async throws -> R)
    async throws -> R
}
