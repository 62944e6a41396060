import Apply
import DNS
import Foundation

extension DNSServerProcess {
  /// Starts a dnsmasq in `host` that answers every name with the catch-all addresses (`catchAllV4`,
  /// `catchAllV6`): the "internet" behind a lab's recursive servers.
  public static func withLabUpstream<R>(
    in host: NetworkLab.Host, of lab: NetworkLab, directory: URL, _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let dnsmasq = try RequiredTool.path("dnsmasq", package: "dnsmasq-base")
    let arguments =
      [
        "--keep-in-foreground", "--listen-address=\(host.address)", "--bind-interfaces", "--port=53", "--no-resolv",
        "--no-hosts", "--pid-file=", "--log-facility=-", "--user=root", "--conf-file=/dev/null",
      ] + catchAllArguments
    return try await with(
      dnsmasq, arguments, in: host, of: lab, logFile: directory.appending(path: "upstream.log"), body)
  }

  /// Starts BIND in `host` as the fleet's primary with `primary`'s configuration (SaneHosts' own text),
  /// recursion off, answering on the host's address.
  public static func withLabPrimary<R>(
    _ primary: PrimaryZone, in host: NetworkLab.Host, of lab: NetworkLab, directory: URL,
    _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let file = directory.appending(path: "sanehosts-primary.conf")
    try Data(primary.configuration.utf8).write(to: file)
    return try await withLabPrimary(including: file, in: host, of: lab, directory: directory, body)
  }

  /// Starts BIND in `host` as the primary with the configuration file `including` (what `apply
  /// --transfer-to` wrote) included from its named.conf, as a user would.
  public static func withLabPrimary<R>(
    including file: URL, in host: NetworkLab.Host, of lab: NetworkLab, directory: URL,
    _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let state = directory.appending(path: "primary")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    let configuration = """
      \(labNamedOptions(state: state, address: host.address))
        recursion no;
      };
      include "\(file.path)";

      """
    return try await withLabNamed(configuration, state: state, in: host, of: lab, body)
  }

  /// Starts a recursive server of `secondary`'s kind in `host`, with SaneHosts' secondary configuration
  /// for it included as a user would, forwarding every other name to `upstream` (port 53).
  ///
  /// With `snippet`, that file (what `fleet add --write` wrote) is included instead of `secondary.text`.
  public static func withLabSecondary<R>(
    _ secondary: SecondaryConfiguration, snippet given: URL? = nil, upstream: String, in host: NetworkLab.Host,
    of lab: NetworkLab, directory: URL, _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    // Short: PowerDNS Recursor's control socket path must fit a UNIX socket address (108 bytes).
    let state = directory.appending(
      path: "\(secondary.kind.rawValue.prefix(4))\(host.address.split(separator: ".").last!)")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    let snippet = given ?? state.appending(path: "sanehosts-secondary")
    if given == nil { try Data(secondary.text.utf8).write(to: snippet) }
    switch secondary.kind {
    case .bind:
      let configuration = """
        \(labNamedOptions(state: state, address: host.address))
          recursion yes;
          allow-recursion { any; };
          forwarders { \(upstream); };
          forward only;
          max-cache-size 32m;
          response-policy { zone "\(PrimaryZone.zone)" min-update-interval 0; } qname-wait-recurse no;
        };
        include "\(snippet.path)";

        """
      return try await withLabNamed(configuration, state: state, in: host, of: lab, body)
    case .unbound:
      let unbound = try RequiredTool.path("unbound", package: "unbound")
      let lines = [
        "interface: \(host.address)", "port: 53", "do-daemonize: no", "chroot: \"\"", "username: \"\"",
        "directory: \"\(state.path)\"", "pidfile: \"\"", "use-syslog: no", "logfile: \"\"", "verbosity: 1",
        "access-control: 0.0.0.0/0 allow", "module-config: \"respip iterator\"",
      ]
      let text =
        "server:\n" + lines.map { "  \($0)\n" }.joined() + "remote-control:\n  control-enable: no\n"
        + "forward-zone:\n  name: \".\"\n  forward-addr: \(upstream)@53\n" + "include: \"\(snippet.path)\"\n"
      let configuration = state.appending(path: "unbound.conf")
      try Data(text.utf8).write(to: configuration)
      return try await with(
        unbound, ["-d", "-c", configuration.path], in: host, of: lab, logFile: state.appending(path: "log"), body)
    case .pdnsRecursor:
      let recursor = try RequiredTool.path("pdns_recursor", package: "pdns-recursor")
      try Data().write(to: state.appending(path: "recursor.conf"))
      let arguments = [
        "--config-dir=\(state.path)", "--socket-dir=\(state.path)", "--daemon=no", "--write-pid=no",
        "--local-address=\(host.address):53", "--allow-from=0.0.0.0/0", "--lua-config-file=\(snippet.path)",
        "--dnssec=off", "--forward-zones-recurse=.=\(upstream):53", "--disable-syslog=yes",
        "--security-poll-suffix=", "--threads=1", "--dont-query=",
      ]
      return try await with(recursor, arguments, in: host, of: lab, logFile: state.appending(path: "log"), body)
    }
  }

  /// Starts `named` in the foreground in `host` with `configuration`.
  private static func withLabNamed<R>(
    _ configuration: String, state: URL, in host: NetworkLab.Host, of lab: NetworkLab,
    _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let named = try RequiredTool.path("named", package: "bind9")
    let file = state.appending(path: "named.conf")
    try Data(configuration.utf8).write(to: file)
    return try await with(
      named, ["-g", "-c", file.path], in: host, of: lab, logFile: state.appending(path: "log"), body)
  }

  /// A lab `named`'s options, left open: `namedPreamble` on port 53 of `address`, answering anyone.
  private static func labNamedOptions(state: URL, address: String) -> String {
    namedPreamble(state: state, port: 53, address: address, allowed: "any") + "\n  dnssec-validation no;"
  }
}

extension DNSServerProcess {
  /// Asks the server for `name` until its status is `status` (`NXDOMAIN`, `NOERROR`), for at most 30 s;
  /// throws with its log when it never is.
  public func until(_ name: String, is status: String) async throws {
    try await until(Array(repeating: name, count: 300), are: status, pause: .milliseconds(100))
  }

  /// Asks the server for each of `names` in turn, `pause` apart, until one's status is `status`: each name
  /// asked once, so a recursor's packet cache (which keeps an answer given before a change) is never read.
  public func until(_ names: [String], are status: String, pause: Duration = .seconds(1)) async throws {
    let dig = try Dig(server: address, port: port)
    var last = ""
    for name in names {
      last = (try? await dig.status(name)) ?? "no answer"
      if last == status { return }
      try await Task.sleep(for: pause)
    }
    throw StartFailure(
      detail: "at \(address) answered \(names.last ?? "") with \(last), not \(status)", log: log())
  }
}
