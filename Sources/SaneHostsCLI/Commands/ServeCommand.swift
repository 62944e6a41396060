import ArgumentParser
import Dashboard
import Foundation
import Hummingbird
import Logging
import Store
import Traffic

/// `sanehosts serve`: the local web dashboard.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Run the web dashboard: sources, update with live progress, test, history, apply.",
    discussion: """
      Serves the dashboard and its JSON API (see docs/dashboard.md) on 127.0.0.1:8080, and prints the \
      address to open. It works offline and with an empty profile. Each profile's compiled list is also \
      served for other machines (a Pi-hole's adlists) at /lists/PROFILE.hosts, .txt and .adblock, with \
      an ETag so an unchanged list costs a 304.

      Security: on 127.0.0.1 only this machine can connect, and the Host header must name it (against DNS \
      rebinding). Listening on another address (--host 0.0.0.0) needs an access token: give --token (or \
      SANEHOSTS_TOKEN), or one is generated, printed once and saved in the data directory's \
      dashboard.token (0600). Browsers sign in at /login; scripts send `Authorization: Bearer TOKEN`; a \
      Pi-hole adds `?token=TOKEN` to the list URL. Every change needs the page's CSRF token or the bearer \
      token and is refused from another origin. Serve plain HTTP beyond loopback only on a trusted \
      network, or behind a TLS proxy.

      The Apply page writes --hosts-file (default /etc/hosts: run as root, or point it at a copy) and DNS \
      server drop-ins in their usual places (or --drop-in-dir). SIGINT or SIGTERM stops the server \
      cleanly: a running update or test is cancelled and leaves the store as it was.
      """)

  @OptionGroup var store: StoreOptions
  @Option(help: "The address to listen on; 127.0.0.1 is this machine only.") var host = "127.0.0.1"
  @Option(help: "The port (0: any free port).") var port = 8080
  @Option(
    help: ArgumentHelp(
      "The access token for other machines (default: $SANEHOSTS_TOKEN, or generated).", valueName: "token"))
  var token: String?
  @Option(help: ArgumentHelp("The hosts file the Apply page changes.", valueName: "path")) var hostsFile = "/etc/hosts"
  @Option(
    help: ArgumentHelp(
      "Where the Apply page writes DNS server drop-ins (default: each server's usual place).", valueName: "path"))
  var dropInDir: String?
  @Option(help: "How many backups of each file to keep.") var keepBackups = 10
  @Option(
    name: .customLong("log"),
    help: ArgumentHelp(
      "A DNS server's query log for the Traffic page: dnsmasq:PATH, unbound:PATH or bind:PATH (repeat for more).",
      valueName: "KIND:PATH"))
  var logs: [String] = []
  @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.") var logLevel = "notice"

  func validate() throws {
    if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535, not \(port).") }
    if keepBackups < 1 { throw ValidationError("--keep-backups must be at least 1, not \(keepBackups).") }
    for log in logs where (try? LogSource(argument: log)) == nil {
      throw ValidationError(TrafficError.badLogArgument(log).errorDescription ?? log)
    }
    if Logger.Level(rawValue: logLevel) == nil {
      throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical.")
    }
  }

  func run() async throws {
    let data = store.directory
    var configuration = DashboardConfiguration(
      host: host, port: port, token: token ?? ProcessInfo.processInfo.environment["SANEHOSTS_TOKEN"], data: data,
      hostsFile: hostsFile, keepBackups: keepBackups, dropInDirectory: dropInDir)
    configuration.queryLogs = logs.compactMap { try? LogSource(argument: $0) }
    configuration.version = SaneHosts.version
    var generated = false
    if !configuration.isLoopback && configuration.token == nil {
      let (saved, created) = try AccessToken.loadOrCreate(in: data)
      configuration.token = saved
      generated = created
    }
    let dashboard = try Dashboard(configuration: configuration)
    var logger = Logger(label: "sanehosts.dashboard")
    logger.logLevel = Logger.Level(rawValue: logLevel) ?? .notice
    let shownHost = configuration.isLoopback ? (host.contains(":") ? "[\(host)]" : host) : host
    let loopback = configuration.isLoopback
    let tokenFile = AccessToken.file(in: data).path
    let printedToken = generated ? configuration.token : nil
    let app = dashboard.application(logger: logger) { port in
      var text = "SaneHosts dashboard: http://\(shownHost):\(port)/\n"
      if !loopback {
        text += "Other machines need the access token"
        text += printedToken.map { " (saved in \(tokenFile)): \($0)\n" } ?? " (\(tokenFile) or --token).\n"
      }
      text += "Data: \(data.url.path). Stop with Ctrl-C.\n"
      Terminal.writeOutput(text)
    }
    try await app.runService()
  }
}
