extension Array where Element == UInt8 {
  /// Appends `count` zero bytes: room that a read or a renderer then overwrites through a pointer.
  ///
  /// An empty array is made with `Array(repeating:count:)`, which the standard library (always built
  /// optimised) fills with one memset. Appending `repeatElement(0, count:)` instead runs a generic loop
  /// that a debug build leaves unspecialised: a 1 MiB block took a tenth of a second to zero, and the
  /// test suite's updates (every copy read into such a block) held the shared task pool for 25 s.
  package mutating func appendZeros(_ count: Int) {
    guard count > 0 else { return }
    if isEmpty {
      self = [UInt8](repeating: 0, count: count)
    } else {
      append(contentsOf: [UInt8](repeating: 0, count: count))
    }
  }
}
