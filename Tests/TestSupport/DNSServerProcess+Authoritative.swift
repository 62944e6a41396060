import Foundation

extension DNSServerProcess {
  /// The zone the authoritative upstream serves: A, AAAA, HTTPS and CNAME records under `shop.test`.
  public static let shopZone = "shop.test"

  /// Starts BIND's `named` (package bind9) as an authoritative server, no recursion, on a free port of
  /// 127.0.0.1, serving `zoneText` as the zone `origin`: the real "internet" behind the servers under test,
  /// with the record types (HTTPS, CNAME chains) a catch-all cannot give.
  public static func withAuthoritative<R>(
    origin: String = shopZone, zoneText: String, directory: URL, _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let named = try RequiredTool.path("named", package: "bind9")
    return try await with(
      named,
      arguments: { port in
        let state = directory.appending(path: "authoritative-\(port)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let zone = state.appending(path: "db.\(origin)")
        try Data(zoneText.utf8).write(to: zone)
        let configuration = state.appending(path: "named.conf")
        let text = """
          \(namedPreamble(state: state, port: port))
            recursion no;
            dnssec-validation no;
          };
          zone "\(origin)" { type master; file "\(zone.path)"; };

          """
        try Data(text.utf8).write(to: configuration)
        return ["-g", "-c", configuration.path]
      }, logFile: { directory.appending(path: "authoritative-\($0).log") }, body)
  }
}
