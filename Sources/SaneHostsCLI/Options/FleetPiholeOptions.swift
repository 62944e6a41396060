import ArgumentParser
import Store
import UseCases

/// How `fleet sync` and `fleet status` sign in to the fleet's Pi-holes: one password for all (a file,
/// PIHOLE_PASSWORD, or the one `sanehosts pihole --save-password` kept), or none; never a prompt, since
/// several sessions open at once.
struct FleetPiholeOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The Pi-holes' password file (else PIHOLE_PASSWORD, or the one `sanehosts pihole` saved).", valueName: "path"))
  var piholePasswordFile: String?
  @Flag(help: "The Pi-holes have no password.") var noPassword = false

  /// Sessions on the fleet's Pi-holes for the data directory `data`.
  func sessions(data: DataDirectory) throws -> PasswordPiholeSessions {
    PasswordPiholeSessions(
      password: noPassword ? nil : try PasswordPiholeSessions.password(file: piholePasswordFile, data: data),
      userAgent: "sanehosts/\(SaneHosts.version)")
  }
}
