import Foundation
import Store
import TestSupport
import Testing
import Updates

@testable import UseCases

@Suite("An update with its list health (ProfileUpdate)", .serialized)
struct ProfileUpdateTests {
  @Test("The update runs inside the caller's wrapper, reports its events, and its health says held and stale")
  func run() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add(String((0..<100).map { "0.0.0.0 n\($0).website\n" }.joined()), key: "big")
    let wrapped = Flag()
    let events = Flag()
    let first = try await ProfileUpdate().run(
      in: updated.store, events: { _ in events.set() },
      around: { _, update in
        wrapped.set()
        return try await update()
      })
    #expect(wrapped.value && events.value)
    #expect(first.summary.run.updated == 1 && first.health.held.isEmpty && first.health.stale.isEmpty)
    // The list shrinks to a tenth: the new copy is held back, and the health says so.
    try Data("0.0.0.0 n1.website\n".utf8).write(to: updated.directory.file("big.txt"))
    let second = try await ProfileUpdate(options: Updater.Options(force: true)).run(in: updated.store)
    #expect(second.health.held == ["big"], "\(second.summary.outcomes)")
  }
}

/// A flag any thread may raise.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var raised = false
  func set() { lock.withLock { raised = true } }
  var value: Bool { lock.withLock { raised } }
}
