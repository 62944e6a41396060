import ArgumentParser
import Pihole
import Store

/// `--pihole HOST` with how to sign in to it (`--pihole-password-file`, `--totp`, `--no-password`): one
/// declaration for every command that reads a Pi-hole beside its own work (`test --pihole`, `hits
/// --pihole`), so their options cannot drift (`test` had no `--totp`).
struct PiholeConnectionOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "A Pi-hole v6 to ask too (host, address or URL): through its API, on one session logged out at the end.",
      valueName: "host"))
  var pihole: String?
  @Option(
    help: ArgumentHelp(
      "The Pi-hole's password file (else PIHOLE_PASSWORD, the one `sanehosts pihole` saved, or a prompt).",
      valueName: "path"))
  var piholePasswordFile: String?
  @Option(help: "The Pi-hole's current two-factor code, when two-factor authentication is on.") var totp: Int?
  @Flag(help: "The Pi-hole has no password.") var noPassword = false

  func validate() throws {
    if pihole == nil && (piholePasswordFile != nil || totp != nil || noPassword) {
      throw ValidationError("--pihole-password-file, --totp and --no-password sign in to a Pi-hole: add --pihole HOST.")
    }
  }

  /// Runs `body` with a client signed in to the Pi-hole of `--pihole` (logged out however it ends).
  func withClient<R: Sendable>(
    named pihole: String, data: DataDirectory, _ body: @escaping @Sendable (PiholeClient) async throws -> R
  ) async throws -> R {
    try await PiholeOptions.withClient(
      named: pihole, passwordFile: piholePasswordFile, noPassword: noPassword, totp: totp, data: data, body)
  }
}
