import Foundation

/// A fresh directory under the system temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
  /// The directory's location.
  public let url: URL

  /// Creates a new, empty directory.
  public init(prefix: String = "sanehosts-test") throws {
    url = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Runs `body` with a new directory and removes it afterwards.
  public static func with<R>(_ body: (TemporaryDirectory) async throws -> R) async throws -> R {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
  }

  /// The names of the entries in the directory.
  public func contents() -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted() ?? []
  }

  /// A path inside the directory.
  public func file(_ name: String) -> URL { url.appending(path: name) }

  /// Deletes the directory and everything in it.
  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Waits until `condition` holds, checking every few milliseconds, for at most `seconds`.
///
/// For effects that finish on another task (a cancelled transfer cleaning up); returns whether it held.
public func eventually(
  within seconds: Double = 5, _ condition: @Sendable () async -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return await condition()
}

/// Deterministic pseudo-random bytes (SplitMix64), for bodies larger than a few chunks.
public func seededBytes(count: Int, seed: UInt64 = 42) -> [UInt8] {
  var state = seed
  var bytes = [UInt8]()
  bytes.reserveCapacity(count)
  while bytes.count < count {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    withUnsafeBytes(of: z) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
  }
  return bytes
}
