import Locking
import Testing

@testable import Loading

@Suite("One load at a time", .timeLimit(.minutes(5)))
struct SingleFlightTests {
  @Test("A load publishes loading, runs the body once; joiners return when it settles")
  func joins() async {
    let flight = SingleFlight<Int>(initial: .idle)
    let gate = Gate()
    let runs = Counter()
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await flight.load { run in
          _ = runs.increment()
          await gate.wait()
          flight.settle(run) { _ in .success(7) }
        }
      }
      #expect(await eventually { flight.relay.currentValue.isLoading })
      for _ in 0..<3 {
        group.addTask { await flight.load { _ in Issue.record("a second run started") } }
      }
      #expect(await eventually { flight.joinedCallers == 3 })
      gate.open()
    }
    #expect(runs.value == 1)
    #expect(flight.relay.currentValue == .success(7))
    #expect(flight.joinedCallers == 0)
  }

  @Test("Cancel marks the run, keeps its progress, signals its latch; a load then waits and starts afresh")
  func cancelThenLoad() async {
    let flight = SingleFlight<Int>(initial: .idle)
    let started = Gate()
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await flight.load { run in
          flight.withCurrent(of: run) { _ in
            flight.relay.update(.loading(LoadingProgress(message: "half", percent: 50)))
          }
          started.open()
          await run.cancellation.wait()
          #expect(flight.isCancelled(run))
          flight.settle(run) { cancelled in cancelled ? .idle : .success(1) }
        }
      }
      await started.wait()
      #expect(flight.cancel())
      #expect(!flight.cancel(), "already cancelled")
    }
    #expect(flight.relay.currentValue == .idle)
    #expect(!flight.cancel(), "nothing runs")
    await flight.load { run in flight.settle(run) { _ in .success(2) } }
    #expect(flight.relay.currentValue == .success(2))
  }

  @Test("A late settle or change about an old run is ignored")
  func staleRun() async {
    let flight = SingleFlight<Int>(initial: .idle)
    let kept = Locked<SingleFlight<Int>.Run?>(nil)
    await flight.load { run in
      kept.withLock { $0 = run }
      flight.settle(run) { _ in .success(1) }
    }
    let old = kept.withLock { $0 }!
    await flight.load { run in
      flight.settle(old) { _ in .success(99) }
      #expect(flight.withCurrent(of: old) { $0 == nil }, "the old run is not current")
      #expect(flight.isCancelled(old), "an old run counts as cancelled")
      flight.settle(run) { _ in .success(2) }
    }
    #expect(flight.relay.currentValue == .success(2))
  }
}
