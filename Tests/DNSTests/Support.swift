import DNS
import TestSupport

/// A deterministic random number generator (SplitMix64), so fuzz runs repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A name's wire format, for hand-built messages.
func wire(_ labels: String...) -> [UInt8] {
  labels.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
}

/// A header: id, flags and the four counts.
func header(id: UInt16 = 0x1234, flags: UInt16 = 0x8180, counts: [UInt16]) -> [UInt8] {
  ([id, flags] + counts).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
}

/// Two bytes, big-endian.
func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

/// Four bytes, big-endian.
func u32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

/// A record's fixed fields after its name: type, class IN, TTL and data length, then the data.
func fields(type: UInt16, ttl: UInt32 = 60, data: [UInt8]) -> [UInt8] {
  u16(type) + u16(1) + u32(ttl) + u16(UInt16(data.count)) + data
}

/// A reply to `www.example.com A` with compression: a CNAME to `cdn.example.com` (itself partly a pointer)
/// and an A record owned by the CNAME's target (a pointer into the CNAME's data).
///
/// Offsets: question name at 12 (`example` at 16), CNAME data at 45 (`cdn`, then a pointer to 16).
let compressedReply: [UInt8] = {
  var bytes = header(counts: [1, 2, 0, 0])
  bytes += wire("www", "example", "com") + u16(1) + u16(1)  // 12..<33
  bytes += [0xC0, 12] + fields(type: 5, data: [3] + Array("cdn".utf8) + [0xC0, 16])  // data at 45
  bytes += [0xC0, 45] + fields(type: 1, data: [192, 0, 2, 7])
  return bytes
}()

/// A resolver for a server on 127.0.0.1.
func localResolver(_ port: UInt16) -> Resolver {
  Resolver(server: ServerAddress(ip: .v4(IPv4Address("127.0.0.1")!), port: port))
}

/// How long `body` takes on the continuous clock, and its result.
func timed<R>(_ body: () async throws -> R) async rethrows -> (R, Duration) {
  let start = ContinuousClock.now
  let result = try await body()
  return (result, ContinuousClock.now - start)
}

/// A query's result, error included, and how long it took.
func timedQuery(
  _ resolver: Resolver, _ name: String, _ type: RecordType, timeout: Duration
) async -> (Result<Message, ResolverError>, Duration) {
  let start = ContinuousClock.now
  let result: Result<Message, ResolverError>
  do {
    result = .success(try await resolver.query(name, type, timeout: timeout))
  } catch {
    result = .failure(error)
  }
  return (result, ContinuousClock.now - start)
}
