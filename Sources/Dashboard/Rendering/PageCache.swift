import Foundation
import Locking

/// The last page rendered and what it was rendered from: a page asked for again with the same inputs
/// (within the same second, for the ages it shows) is sent as it is, not rendered again.
///
/// For the overview, the page a browser, a monitor or a benchmark opens most: rendering it through the
/// templates costs about three times what reading its state from memory does.
final class PageCache<Key: Hashable & Sendable>: Sendable {
  private let last = Locked<(key: Key, second: Int, html: String)?>(nil)
  private let clock: @Sendable () -> Date

  /// An empty cache; `clock` tells the time (tests give their own).
  init(clock: @escaping @Sendable () -> Date = { Date() }) {
    self.clock = clock
  }

  /// The page for `key`: the one rendered last if it was for the same key in the same second, else `render`'s.
  func page(for key: Key, render: () -> String) -> String {
    let second = Int(clock().timeIntervalSince1970.rounded(.down))
    if let held = last.withLock({ $0 }), held.key == key, held.second == second { return held.html }
    let html = render()
    last.withLock { $0 = (key, second, html) }
    return html
  }
}
