/// A set of `NameHash` values, looked up with a load or two and no hashing of its own.
///
/// `Set<UInt64>` hashes every key again with SipHash: for the Public Suffix List, checked for each
/// name and each parent of it on every drop-in rendered, that was 5 % of a drop-in apply. The keys
/// here are already well mixed, so their low bits index an open-addressing table directly. Zero marks
/// an empty slot, so a zero hash is remembered apart.
struct HashFilter: Sendable {
  private var slots: [UInt64]
  private let mask: Int
  private var holdsZero = false

  /// A filter holding `hashes`, at most half full.
  init(_ hashes: some Sequence<UInt64>) {
    let all = Array(hashes)
    var size = 16
    while size < all.count * 2 { size <<= 1 }
    slots = Array(repeating: 0, count: size)
    mask = size - 1
    for hash in all { insert(hash) }
  }

  /// Whether `hash` is in the filter.
  @inline(__always)
  func contains(_ hash: UInt64) -> Bool {
    if hash == 0 { return holdsZero }
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let value = slots[slot]
      if value == hash { return true }
      if value == 0 { return false }
      slot = (slot + 1) & mask
    }
  }

  private mutating func insert(_ hash: UInt64) {
    if hash == 0 {
      holdsZero = true
      return
    }
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 {
      if slots[slot] == hash { return }
      slot = (slot + 1) & mask
    }
    slots[slot] = hash
  }
}
