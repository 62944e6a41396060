import BlockerTest
import Foundation
import Store
import TestSupport
import Testing
import UseCases

@Suite("Planning a blocker test")
struct TestPlanTests {
  @Test("Categories narrow the registry (any case); an unknown one is refused with the known ones")
  func categories() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    let all = try await TestPlan().registry(in: store)
    let first = try #require(all.categories.first)
    let ads = try await TestPlan(categories: [first.uppercased(), ""]).registry(in: store)
    #expect(ads.categories == [first] && ads.tested.allSatisfy { $0.category == first })
    #expect(ads.controls == all.controls)
    await #expect(throws: TestPlanError.unknownCategory("Nope", known: all.categories)) {
      try await TestPlan(categories: ["Nope"]).registry(in: store)
    }
    #expect(TestPlanError.unknownCategory("Nope", known: ["Ads"]).errorDescription == "Unknown category \"Nope\".")
  }

  @Test("A sample of a profile's names (rules applied) is added, or tested alone; an unknown source is named")
  func samples() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    for index in 0..<20 { try store.addRule("n\(index).website", action: .deny) }
    let plan = TestPlan(sample: .profile("default"), sampleCount: 5, seed: 7)
    let registry = try await plan.registry(in: store)
    let sampled = registry.tested.filter { $0.category == "Sample" }
    #expect(sampled.count == 5 && sampled.allSatisfy { $0.provider == "default" })
    #expect(try await plan.registry(in: store).tested == registry.tested, "the same seed picks the same names")
    let only = try await TestPlan(sample: .profile("default"), sampleCount: 5, seed: 7, sampleOnly: true)
      .registry(in: store)
    #expect(only.tested.map(\.hostname) == sampled.map(\.hostname))
    await #expect(throws: StoreError.self) {
      try await TestPlan(sample: .source("missing")).registry(in: store)
    }
  }

  @Test("One timeout rule for the CLI's --timeout and --verify-timeout and the dashboard: 0 < t ≤ 60 s")
  func timeoutRule() {
    #expect(TestPlan.timeout(seconds: 0.5) == .milliseconds(500))
    #expect(TestPlan.timeout(seconds: 60) == .seconds(60))
    #expect(TestPlan.timeout(seconds: 0) == nil && TestPlan.timeout(seconds: 60.5) == nil)
    #expect(TestPlan.timeoutRule == "between 0 and 60 seconds")
  }
}
