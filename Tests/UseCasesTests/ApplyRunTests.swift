import Apply
import BlockerTest
import DNS
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("Applying and verifying in one flow (ApplyRun)", .serialized)
struct ApplyRunTests {
  @Test("Applied, then verified through the server that loads it; the file its server never loaded says so")
  func appliedThenVerified() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n0.0.0.0 tracker.website\n", key: "ads")
    try await updated.update()
    let file = ApplyDestination.file(
      for: .server(.unbound), hostsFile: "/nonexistent", output: updated.directory.file("u.conf").path,
      data: updated.store.directory)
    // A server that blocks every name but the controls.
    let behaviour: FakeDNSServer.Behaviour = { request in
      guard let question = request.message?.questions.first else { return [] }
      let name = question.name.hasSuffix(".") ? String(question.name.dropLast()) : question.name
      guard name.hasSuffix(".website") else {
        let address = IPv4Address("198.51.100.4")!
        let answers = question.type == .a ? [Record(name: question.name, data: .a(address))] : []
        return [.bytes(FakeDNSServer.response(to: request, answers: answers, code: .noError))]
      }
      return [.bytes(FakeDNSServer.response(to: request, answers: [], code: .nxDomain))]
    }
    try await FakeDNSServer.with(behaviour) { server in
      let address = try ServerAddress(parsing: "127.0.0.1:\(server.port)")
      let run = ApplyRun(
        store: updated.store, file: file, target: .server(.unbound),
        options: Applier.Options(server: .unbound, check: false),
        verify: ApplyRun.Verify(server: address, sample: 10, timeout: .seconds(20)))
      #expect(run.options.verify, "asking to verify tells the applier")
      let outcome = try await run.run()
      #expect(outcome.applied.result.names == 2)
      #expect(outcome.verification?.passed == true, "\(outcome.verification?.summary ?? "")")
      #expect(outcome.notVerified == nil)
      // Written without a reload: until this verification passed, the server had not confirmed it.
      #expect(outcome.notLoaded?.hasPrefix("written, not loaded: ") == true)
    }
  }

  @Test("A dry run is not verified; a drop-in with no server to ask says why it was not")
  func notVerified() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n", key: "ads")
    try await updated.update()
    let file = ApplyDestination.file(
      for: .server(.unbound), hostsFile: "/nonexistent", output: updated.directory.file("u.conf").path,
      data: updated.store.directory)
    let dry = try await ApplyRun(
      store: updated.store, file: file, target: .server(.unbound),
      options: Applier.Options(server: .unbound, dryRun: true, check: false), verify: ApplyRun.Verify(server: nil)
    ).run()
    #expect(dry.verification == nil && dry.notVerified == nil)
    let unasked = try await ApplyRun(
      store: updated.store, file: file, target: .server(.unbound),
      options: Applier.Options(server: .unbound, check: false), verify: ApplyRun.Verify(server: nil)
    ).run()
    #expect(unasked.verification == nil)
    #expect(unasked.notVerified?.contains("the DNS server that loads it") == true)
  }
}
