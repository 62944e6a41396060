import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Probes through the system resolver (`getaddrinfo`), so /etc/hosts and nsswitch count, as for any
/// program on the machine. Each lookup runs on a thread of its own, off Swift's cooperative pool, and a
/// cancelled probe stops waiting at once (the lookup finishes in the background and is dropped).
public struct SystemProbe: Probe {
  /// Addresses that mean blocked.
  public var sinkholes: Sinkholes

  /// Creates a system probe.
  public init(sinkholes: Sinkholes = Sinkholes()) { self.sinkholes = sinkholes }

  public var kind: ProbeKind { .system }
  public var target: String { "system resolver" }

  public func probe(_ hostname: String) async -> Verdict {
    guard let lookup = await Self.lookup(hostname) else { return Verdict(.inconclusive, "cancelled") }
    return verdict(lookup)
  }

  /// Resolves a name on a thread of its own; nil at once when the task is cancelled (the lookup then
  /// finishes in the background and is dropped).
  static func lookup(_ hostname: String) async -> Lookup? {
    let once = ResumeOnce<Lookup?>()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        once.set(continuation)
        Thread.detachNewThread { once.resume(Self.resolve(hostname)) }
      }
    } onCancel: {
      once.resume(nil)
    }
  }

  /// glibc's EAI_NODATA (“no address associated with hostname”), which its Swift module does not export.
  static let noData: Int32 = -5

  /// What getaddrinfo said.
  enum Lookup: Sendable, Hashable {
    case addresses([String])
    case failed(code: Int32, message: String)
  }

  /// The verdict for a lookup: addresses by the sinkhole rules; "no such name" and "no address" are
  /// blocked; a temporary failure or any other error is inconclusive.
  func verdict(_ lookup: Lookup) -> Verdict {
    switch lookup {
    case .addresses(let addresses):
      return sinkholes.verdict(for: addresses)
    case .failed(let code, let message):
      switch code {
      case EAI_NONAME: return Verdict(.blocked, "no such name (\(message))")
      case Self.noData: return Verdict(.blocked, "no address (\(message))")
      default: return Verdict(.inconclusive, message)
      }
    }
  }

  /// Resolves a name (blocking), returning every distinct address in text form.
  static func resolve(_ hostname: String) -> Lookup {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(hostname, nil, &hints, &list)
    guard status == 0 else {
      let message = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
      return .failed(code: status, message: message)
    }
    defer { freeaddrinfo(list) }
    var addresses: [String] = []
    var node = list
    while let entry = node?.pointee {
      if let text = Self.text(entry), !addresses.contains(text) { addresses.append(text) }
      node = entry.ai_next
    }
    return .addresses(addresses)
  }

  private static func text(_ entry: addrinfo) -> String? {
    guard let address = entry.ai_addr else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    switch entry.ai_family {
    case AF_INET:
      var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
      guard inet_ntop(AF_INET, &ipv4, &buffer, socklen_t(buffer.count)) != nil else { return nil }
    case AF_INET6:
      var ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
      guard inet_ntop(AF_INET6, &ipv6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
    default:
      return nil
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
