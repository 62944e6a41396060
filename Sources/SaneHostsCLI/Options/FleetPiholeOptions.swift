import ArgumentParser
import Pihole
import Store
import UseCases

/// How `fleet sync` and `fleet status` sign in to the fleet's Pi-holes: one password for all (a file,
/// PIHOLE_PASSWORD, or the one `sanehosts pihole` saved), or none.
struct FleetPiholeOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The Pi-holes' password file (else PIHOLE_PASSWORD, or the one `sanehosts pihole` saved).", valueName: "path"))
  var piholePasswordFile: String?
  @Flag(help: "The Pi-holes have no password.") var noPassword = false

  /// Sessions on the fleet's Pi-holes for the data directory `data`.
  func sessions(data: DataDirectory) -> Sessions {
    Sessions(passwordFile: piholePasswordFile, noPassword: noPassword, data: data)
  }

  /// Opens one session per call, signed in with the options' password.
  struct Sessions: PiholeSessions {
    var passwordFile: String?
    var noPassword: Bool
    var data: DataDirectory

    func withClient<R: Sendable>(_ pihole: String, _ body: @escaping @Sendable (PiholeClient) async throws -> R)
      async throws -> R
    {
      let host = try PiholeHost(pihole)
      let password = noPassword ? nil : try PiholeOptions.password(file: passwordFile, data: data)
      return try await PiholeClient.withSession(
        host: host, password: password, totp: nil, userAgent: "sanehosts/\(SaneHosts.version)", body)
    }
  }
}
