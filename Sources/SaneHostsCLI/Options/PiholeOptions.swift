import ArgumentParser
import Foundation
import Pihole
import Store

#if canImport(Glibc)
  import Glibc
#endif

/// `--host`, `--password-file`, `--totp`, shared by every `pihole` command.
struct PiholeOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The Pi-hole: pi.hole, 192.168.1.2, or http://pi.hole/admin (default: $PIHOLE_HOST).", valueName: "host"))
  var host: String?
  @Option(help: ArgumentHelp("Read the web interface password from this file (first line).", valueName: "path"))
  var passwordFile: String?
  @Option(help: "The current two-factor code, when two-factor authentication is on.") var totp: Int?
  @Flag(help: "Keep the password given for next time, in a file in the data directory readable by you alone.")
  var savePassword = false
  @Flag(help: "The Pi-hole has no password: never ask for one.") var noPassword = false

  /// The Pi-hole to talk to.
  func piholeHost() throws -> PiholeHost {
    guard let text = host ?? ProcessInfo.processInfo.environment["PIHOLE_HOST"], !text.isEmpty else {
      throw ValidationError("Name the Pi-hole with --host (pi.hole, 192.168.1.2, http://pi.hole/admin) or PIHOLE_HOST.")
    }
    return try PiholeHost(text)
  }

  /// The password: --password-file, else $PIHOLE_PASSWORD, else the saved one, else asked for on the
  /// terminal without echo. Never printed or logged.
  func password(data: DataDirectory) throws -> String? {
    if noPassword { return nil }
    return try Self.password(file: passwordFile, save: savePassword, data: data)
  }

  /// The password from `file`, else $PIHOLE_PASSWORD, else the saved one, else asked for on the terminal
  /// without echo; kept in the data directory when `save` is set. Never printed or logged.
  static func password(file passwordFile: String?, save savePassword: Bool = false, data: DataDirectory) throws
    -> String?
  {
    let saved = data.url.appendingPathComponent("pihole-password")
    var password: String?
    if let passwordFile {
      guard let data = FileManager.default.contents(atPath: passwordFile) else {
        throw CommandFailure(
          "Cannot read the password file \(passwordFile).", suggestion: "Check that it exists and that you may read it."
        )
      }
      let text = String(decoding: data, as: UTF8.self)
      password = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
      if password?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true {
        throw CommandFailure(
          "The password file \(passwordFile) is empty.",
          suggestion:
            "Put the Pi-hole's web interface password on its first line (use --no-password for a Pi-hole without one).")
      }
    } else if let variable = ProcessInfo.processInfo.environment["PIHOLE_PASSWORD"] {
      password = variable
    } else if let text = try? String(contentsOf: saved, encoding: .utf8) {
      password = text.trimmingCharacters(in: .newlines)
    } else if isatty(0) == 1 {
      password = Self.prompt("Pi-hole password: ")
    }
    if savePassword, let password {
      try? FileManager.default.createDirectory(
        at: data.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      try? FileManager.default.removeItem(at: saved)
      guard
        FileManager.default.createFile(
          atPath: saved.path, contents: Data((password + "\n").utf8), attributes: [.posixPermissions: 0o600])
      else {
        throw CommandFailure(
          "Cannot save the password in \(saved.path).",
          suggestion: "Check that the data directory is writable, or drop --save-password.")
      }
    }
    return password
  }

  /// Reads a line from the terminal with echo off.
  static func prompt(_ text: String) -> String {
    Terminal.writeError(text)
    var original = termios()
    tcgetattr(0, &original)
    var silent = original
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(0, TCSANOW, &silent)
    defer {
      tcsetattr(0, TCSANOW, &original)
      Terminal.writeError("\n")
    }
    return readLine(strippingNewline: true) ?? ""
  }

  /// Runs `body` with a logged-in client, logging out afterwards however it ends: also on Ctrl-C and
  /// SIGTERM, which cancel it; the command then exits with 130 or 143 once the session is closed.
  func withClient<R: Sendable>(data: DataDirectory, _ body: @escaping @Sendable (PiholeClient) async throws -> R)
    async throws -> R
  {
    try await Self.withClient(host: try piholeHost(), password: try password(data: data), totp: totp, body)
  }

  /// Runs `body` with a client logged in to the Pi-hole a `--pihole` value names, the password read as
  /// `password(file:)` reads it (none with `noPassword`): what `test --pihole` and `hits --pihole` share.
  static func withClient<R: Sendable>(
    named pihole: String, passwordFile: String?, noPassword: Bool = false, totp: Int? = nil, data: DataDirectory,
    _ body: @escaping @Sendable (PiholeClient) async throws -> R
  ) async throws -> R {
    let host: PiholeHost
    host = try PiholeHost(pihole)
    let password = noPassword ? nil : try Self.password(file: passwordFile, data: data)
    return try await withClient(host: host, password: password, totp: totp, body)
  }

  /// Runs `body` with a client logged in to `host`, as `withClient(data:_:)` does.
  static func withClient<R: Sendable>(
    host: PiholeHost, password: String?, totp: Int? = nil, _ body: @escaping @Sendable (PiholeClient) async throws -> R
  ) async throws -> R {
    try await Interrupts.exitingOnSignal {
      try await PiholeClient.withSession(
        host: host, password: password, totp: totp, userAgent: "sanehosts/\(SaneHosts.version)", body)
    }
  }
}
