import Downloads
import Foundation
import Locking
import Store
import TestSupport
import Testing
import Updates

@testable import Dashboard
@testable import UseCases

@Suite("The Why? box's debounced searches")
struct WhySearchTests {
  /// A store with one list, updated.
  static func store(_ directory: TemporaryDirectory) async throws -> Store {
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    let file = directory.file("list.txt")
    try Data("# list\n0.0.0.0 ads.website\n0.0.0.0 tracker.website\n".utf8).write(to: file)
    try store.addSource(NewSource(location: file, key: "list"))
    _ = try await DownloadManager.withManager(
      configuration: DownloadConfiguration(temporaryDirectory: store.directory.staging)
    ) { manager in try await Updater(store: store, client: manager).update() }
    return store
  }

  @Test("A burst of keystrokes runs one explanation, of the newest text, and every request gets it")
  func burst() async throws {
    try await TemporaryDirectory.with { directory in
      let store = try await Self.store(directory)
      let clock = ManualClock()
      let search = WhySearch(store: store, interval: .milliseconds(150), clock: clock)
      let answers = Locked<[String]>([])
      try await withThrowingTaskGroup(of: Void.self) { group in
        for text in ["a", "ad", "ads.website"] {
          group.addTask {
            let answer = try await search.answer(text)
            answers.withLock { $0.append(answer.names[0].query) }
          }
          // Each request arrives before the interval has passed since the last one (no spinning: the
          // pool is shared with every other test).
          #expect(await eventually(within: 60) { search.query == text })
          #expect(await eventually(within: 60) { clock.sleepers() >= 1 })
          clock.advance(by: .milliseconds(100))
        }
        // Time moves on until the burst's load has answered every request: whichever request came last
        // to the debouncer, the explanation run is of the newest text.
        for _ in 0..<2000 where answers.withLock({ $0.count }) < 3 {
          clock.advance(by: .milliseconds(200))
          try await Task.sleep(for: .milliseconds(5))
        }
        try await group.waitForAll()
      }
      let answer = try await search.answerNow(["tracker.website", "nothing.website"])
      #expect(answer.names.map(\.verdict) == [.blocked, .notBlocked])
      #expect(answer.names[0].listings.first?.line == 3)
    }
  }

  @Test("Regression: a request whose debounced load joined the explanation of an older text still gets its own")
  func joinedOlderRun() async throws {
    let clock = ManualClock()
    let started = Locked<[String]>([])
    let gate = Locked<CheckedContinuation<Void, Never>?>(nil)
    let search = WhySearch(
      interval: .milliseconds(150), clock: clock,
      explain: { names in
        started.withLock { $0.append(names[0]) }
        if names[0] == "a" {
          // The first explanation is slow: the next request's debounced load fires while it runs.
          await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
        }
        return Explainer.Answer(
          profile: "p", sources: [], missing: [],
          names: [
            Explanation(
              query: names[0], name: names[0], unicode: nil, invalidReason: nil, verdict: .notBlocked, summary: "",
              listings: [], rules: [], publicSuffix: false, outputs: [])
          ])
      })
    let answers = Locked<[String: String]>([:])
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        let answer = try await search.answer("a")
        answers.withLock { $0["a"] = answer.names[0].query }
      }
      #expect(await eventually(within: 60) { clock.sleepers() >= 1 })
      clock.advance(by: .milliseconds(200))
      #expect(await eventually(within: 60) { gate.withLock { $0 != nil } })
      group.addTask {
        let answer = try await search.answer("ab")
        answers.withLock { $0["ab"] = answer.names[0].query }
      }
      #expect(await eventually(within: 60) { search.query == "ab" })
      #expect(await eventually(within: 60) { clock.sleepers() >= 1 })
      // The request's debounced load fires while "a" is still explained, and joins that run.
      clock.advance(by: .milliseconds(200))
      try await Task.sleep(for: .milliseconds(20))
      gate.withLock { $0?.resume() }
      for _ in 0..<2000 where answers.withLock({ $0["ab"] == nil }) {
        clock.advance(by: .milliseconds(200))
        try await Task.sleep(for: .milliseconds(5))
      }
      try await group.waitForAll()
    }
    #expect(answers.withLock { $0 } == ["a": "a", "ab": "ab"])
    #expect(started.withLock { $0 } == ["a", "ab"])
  }
}
