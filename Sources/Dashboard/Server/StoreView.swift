import Foundation
import Locking
import Store
import UseCases

/// What the pages show of the store, held in memory and read again only after a write to it.
///
/// Every write transaction counts up the store's generation (in whatever process: the CLI's `update`
/// too); a request reads that one number and, when it is unchanged, renders from memory. The overview
/// had read and decoded the active profile's whole snapshot on every request.
final class StoreView: Sendable {
  /// The active profile's snapshot as of one generation, with the last test run as the pages show it.
  struct State: Sendable {
    var generation: Int64
    var snapshot: ProfileSnapshot
    var lastRun: RunView?
  }

  private let store: Store
  private let state = Locked<State?>(nil)

  init(store: Store) {
    self.store = store
  }

  /// The reapplies left pending (read each time: a small file another process writes).
  func pendingReapplies() -> [PendingReapply] { PendingReapply.all(in: store.directory) }

  /// The active profile's state as of the store's current generation.
  func current() throws(StoreError) -> State {
    let held = state.withLock { $0 }
    let read = try store.snapshot(ifGenerationIsNot: held?.generation)
    // No snapshot: the generation is the held one's.
    guard let snapshot = read.snapshot else { return held! }
    let fresh = State(generation: read.generation, snapshot: snapshot, lastRun: snapshot.lastTest.map(RunView.init))
    state.withLock { current in
      if (current?.generation ?? .min) < fresh.generation { current = fresh }
    }
    return fresh
  }
}
