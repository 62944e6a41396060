#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Measures how long the system resolver takes to answer for a name (the hosts file is scanned line
/// by line on every lookup, so a long file shows here).
public enum LookupLatency {
  /// The median time of `rounds` lookups of `name` through `getaddrinfo`, or nil when it cannot be
  /// resolved at all.
  public static func measure(_ name: String, rounds: Int = 5, clock: ContinuousClock = ContinuousClock()) -> Duration? {
    var times: [Duration] = []
    for _ in 0..<max(1, rounds) {
      var hints = addrinfo()
      hints.ai_family = AF_INET
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var result: UnsafeMutablePointer<addrinfo>?
      let start = clock.now
      let status = getaddrinfo(name, nil, &hints, &result)
      let elapsed = clock.now - start
      if let result { freeaddrinfo(result) }
      guard status == 0 else { return nil }
      times.append(elapsed)
    }
    return times.sorted()[times.count / 2]
  }
}
