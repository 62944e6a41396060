import BlockerTest
import DNS
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension TestPlan {
  /// The probe a test uses: the one asked for, else `dns` when a DNS server (or a Pi-hole) is named,
  /// else `fallback`.
  public static func probe(requested: ProbeKind?, namesServer: Bool, fallback: ProbeKind = .system) -> ProbeKind {
    requested ?? (namesServer ? .dns : fallback)
  }

  /// The DNS server at `host` (an IP address, or a name looked up through the system resolver) on port
  /// 53, written as `IP:53` or `[IPv6]:53`.
  public static func dnsServer(atHost host: String) throws(TestPlanError) -> String {
    if IPAddress(host) != nil { return host.contains(":") ? "[\(host)]:53" : "\(host):53" }
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, "53", &hints, &list) == 0, let first = list else { throw .unknownHost(host) }
    defer { freeaddrinfo(list) }
    var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    getnameinfo(
      first.pointee.ai_addr, first.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
    let address = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return address.contains(":") ? "[\(address)]:53" : "\(address):53"
  }

  /// The DNS server a system-resolver run asks for HTTPS records (a hosts file answers only A and AAAA):
  /// `explicit` when given, else the first `nameserver` of `resolvConf`; nil when there is none.
  public static func httpsRecordServer(explicit: String?, resolvConf: String = "/etc/resolv.conf") -> ServerAddress? {
    if let explicit { return try? ServerAddress(parsing: explicit) }
    guard let text = try? String(contentsOfFile: resolvConf, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard words.count >= 2, words[0] == "nameserver" else { continue }
      let host = String(words[1].split(separator: "%").first ?? words[1])
      if IPAddress(host) != nil, let server = try? ServerAddress(parsing: host.contains(":") ? "[\(host)]:53" : host) {
        return server
      }
    }
    return nil
  }
}
