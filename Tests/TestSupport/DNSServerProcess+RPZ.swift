import Foundation

extension DNSServerProcess {
  /// The catch-all's answers for every name that is not blocked: a routable test address for A and AAAA.
  public static let catchAllV4 = "192.0.2.1"
  /// See `catchAllV4`.
  public static let catchAllV6 = "2001:db8::1"

  /// dnsmasq arguments that answer A and AAAA for every name (more specific `--address` lines win).
  public static let catchAllArguments = ["--address=/#/\(catchAllV4)", "--address=/#/\(catchAllV6)"]

  /// Starts a dnsmasq that answers every name with the catch-all addresses: the "internet" behind the
  /// recursive servers (there is no upstream here).
  public static func withCatchAll<R>(directory: URL, _ body: (DNSServerProcess) async throws -> R) async throws -> R {
    try await withDnsmasq(arguments: catchAllArguments, directory: directory, body)
  }

  /// Starts BIND's `named` (package bind9) in the foreground on a free port of 127.0.0.1, loading the
  /// response-policy zone at `zone` and forwarding everything else to 127.0.0.1:`forwarder`.
  ///
  /// No control channel (`controls { }`: no rndc key is read), no DNSSEC validation, a small cache, and
  /// `min-update-interval 0` so a reload takes effect at once; SIGHUP reloads the zone.
  ///
  /// With `queryLog`, queries and RPZ rewrites (categories `queries`, `rpz`, `rpz-passthru`) are logged to
  /// that file with BIND's `print-time yes`; named then runs with `-f`, as `-g` ignores `logging`.
  public static func withNamed<R>(
    zone: URL, forwarder: UInt16, directory: URL, queryLog: URL? = nil, _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let named = try RequiredTool.path("named", package: "bind9")
    return try await with(
      named,
      arguments: { port in
        let state = directory.appending(path: "named-\(port)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let configuration = state.appending(path: "named.conf")
        let text = """
          \(namedPreamble(state: state, port: port))
            recursion yes;
            allow-recursion { 127.0.0.1; };
            forwarders { 127.0.0.1 port \(forwarder); };
            forward only;
            dnssec-validation no;
            max-cache-size 32m;
            response-policy { zone "sanehosts.rpz" min-update-interval 0; } qname-wait-recurse no;
            \(queryLog == nil ? "" : "querylog yes;")
          };
          zone "sanehosts.rpz" { type master; file "\(zone.path)"; allow-query { none; }; };
          \(queryLog.map(queryLogging) ?? "")
          """
        try Data(text.utf8).write(to: configuration)
        return [queryLog == nil ? "-g" : "-f", "-c", configuration.path]
      }, logFile: { directory.appending(path: "named-\($0).log") }, body)
  }

  /// BIND's `logging` statement that writes queries and RPZ rewrites to `file`, with the time.
  static func queryLogging(_ file: URL) -> String {
    """
    logging {
      channel queries_file { file "\(file.path)"; print-time yes; severity info; };
      category queries { queries_file; };
      category rpz { queries_file; };
      category rpz-passthru { queries_file; };
    };
    """
  }

  /// The start of a test `named`'s configuration: no control channel, all state in `state`, listening on
  /// `address`:`port` only and answering `allowed`; the `options` block is left open for the caller's own
  /// options.
  static func namedPreamble(
    state: URL, port: UInt16, address: String = "127.0.0.1", allowed: String = "127.0.0.1"
  ) -> String {
    """
    controls { };
    options {
      directory "\(state.path)";
      pid-file none;
      session-keyfile none;
      managed-keys-directory "\(state.path)";
      bindkeys-file "/dev/null";
      listen-on port \(port) { \(address); };
      listen-on-v6 { none; };
      allow-query { \(allowed); };
    """
  }

  /// Starts PowerDNS Recursor (package pdns-recursor) in the foreground on a free port of 127.0.0.1 with
  /// `luaConfig` as its Lua configuration, forwarding everything to 127.0.0.1:`forwarder`.
  ///
  /// Its state and control socket are in a folder of `directory` (see `recursorSocketDirectory`); no
  /// DNSSEC, no security polling, no syslog. Its packet cache stays on, as in a real deployment: the
  /// reload (`rec_control reload-lua-config`, then `wipe-cache`) must cope with it.
  public static func withRecursor<R>(
    luaConfig: URL, forwarder: UInt16, directory: URL, _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let recursor = try RequiredTool.path("pdns_recursor", package: "pdns-recursor")
    return try await with(
      recursor,
      arguments: { port in
        let state = recursorSocketDirectory(port: port, directory: directory)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data().write(to: state.appending(path: "recursor.conf"))
        return [
          "--config-dir=\(state.path)", "--socket-dir=\(state.path)", "--daemon=no", "--write-pid=no",
          "--local-address=127.0.0.1:\(port)", "--lua-config-file=\(luaConfig.path)", "--dnssec=off",
          "--forward-zones-recurse=.=127.0.0.1:\(forwarder)", "--disable-syslog=yes", "--security-poll-suffix=",
          "--threads=1",
        ]
      }, logFile: { directory.appending(path: "pdns-recursor-\($0).log") }, body)
  }

  /// The recursor's `socket-dir` (for `rec_control --socket-dir=`) when it serves on `port`.
  public static func recursorSocketDirectory(port: UInt16, directory: URL) -> URL {
    directory.appending(path: "recursor-\(port)")
  }

  /// Starts Knot Resolver's `kresd` (package knot-resolver) on a free port of 127.0.0.1: it runs
  /// `dofile` on `luaConfig` (SaneHosts' loader) and forwards everything else to 127.0.0.1:`forwarder`.
  ///
  /// Its run directory (cache, `control/PID` socket) is a folder of `directory`; the root trust anchor is
  /// removed, since the forwarder's answers are not signed.
  public static func withKnot<R>(
    luaConfig: URL?, forwarder: UInt16, directory: URL, extraLua: String = "",
    _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let kresd = try RequiredTool.path("kresd", package: "knot-resolver")
    return try await with(
      kresd,
      arguments: { port in
        let state = knotRunDirectory(port: port, directory: directory)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let configuration = state.appending(path: "kresd.conf")
        var text = """
          net.listen('127.0.0.1', \(port), { kind = 'dns' })
          cache.open(10 * MB, 'lmdb://\(state.path)/cache')
          trust_anchors.remove('.')

          """
        if let luaConfig { text += "dofile('\(luaConfig.path)')\n" }
        text += extraLua
        text += "policy.add(policy.all(policy.FORWARD({'127.0.0.1@\(forwarder)'})))\n"
        try Data(text.utf8).write(to: configuration)
        return ["-n", "-c", configuration.path, state.path]
      }, logFile: { directory.appending(path: "kresd-\($0).log") }, body)
  }

  /// kresd's run directory when it serves on `port`.
  public static func knotRunDirectory(port: UInt16, directory: URL) -> URL {
    directory.appending(path: "kresd-\(port)")
  }

  /// The control socket of the kresd serving on `port` with process id `pid`.
  public static func knotControlSocket(port: UInt16, pid: Int32, directory: URL) -> URL {
    knotRunDirectory(port: port, directory: directory).appending(path: "control/\(pid)")
  }
}
