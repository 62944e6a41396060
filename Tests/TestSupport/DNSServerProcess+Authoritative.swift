import Foundation

extension DNSServerProcess {
  /// The zone the authoritative upstream serves: A, AAAA, HTTPS and CNAME records under `shop.blog`.
  public static let shopZone = "shop.blog"

  /// Zones of the three control domains (`example.com`, `wikipedia.org`, `debian.org`), each answering A
  /// with a routable test address, for `sanehosts test` runs against the upstream.
  public static let controlZones: [String: String] = Dictionary(
    uniqueKeysWithValues: ["example.com", "wikipedia.org", "debian.org"].map { origin in
      (
        origin,
        "$TTL 60\n@ IN SOA ns.\(origin). admin.\(origin). 1 60 60 600 60\n@ IN NS ns\nns IN A 127.0.0.1\n@ IN A \(catchAllV4)\n"
      )
    })

  /// Starts BIND's `named` (package bind9) as an authoritative server, no recursion, on a free port of
  /// 127.0.0.1, serving `zoneText` as the zone `origin` (and each of `moreZones`, origin to text): the real
  /// "internet" behind the servers under test, with the record types (HTTPS, CNAME chains) a catch-all
  /// cannot give.
  public static func withAuthoritative<R>(
    origin: String = shopZone, zoneText: String, moreZones: [String: String] = [:], directory: URL,
    _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let named = try RequiredTool.path("named", package: "bind9")
    return try await with(
      named,
      arguments: { port in
        let state = directory.appending(path: "authoritative-\(port)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        var stanzas = ""
        for (name, text) in [(origin, zoneText)] + moreZones.sorted(by: { $0.key < $1.key }) {
          let zone = state.appending(path: "db.\(name)")
          try Data(text.utf8).write(to: zone)
          stanzas += "zone \"\(name)\" { type master; file \"\(zone.path)\"; };\n"
        }
        let configuration = state.appending(path: "named.conf")
        let text = """
          \(namedPreamble(state: state, port: port))
            recursion no;
            dnssec-validation no;
          };
          \(stanzas)
          """
        try Data(text.utf8).write(to: configuration)
        return ["-g", "-c", configuration.path]
      }, logFile: { directory.appending(path: "authoritative-\($0).log") }, body)
  }
}
