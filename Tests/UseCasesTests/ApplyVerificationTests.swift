import Apply
import BlockerTest
import DNS
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("Verifying an apply (ApplyVerification)", .serialized)
struct ApplyVerificationTests {
  @Test("What stops a verification: the hosts file through a server or not /etc/hosts, a drop-in without its server")
  func obstacles() throws {
    let server = try ServerAddress(parsing: "127.0.0.1:53")
    #expect(ApplyVerification.obstacle(target: .hosts, path: "/etc/hosts", server: nil) == nil)
    #expect(ApplyVerification.obstacle(target: .hosts, path: "/tmp/hosts", server: nil)?.contains("/tmp/hosts") == true)
    #expect(ApplyVerification.obstacle(target: .hosts, path: "/etc/hosts", server: server) != nil)
    #expect(ApplyVerification.obstacle(target: .server(.unbound), path: "/x.conf", server: server) == nil)
    #expect(ApplyVerification.obstacle(target: .server(.unbound), path: "/x.conf", server: nil) != nil)
  }

  @Test("A drop-in verified through a server: the names added are probed first; one answered is not blocked")
  func throughServer() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("0.0.0.0 ads.website\n0.0.0.0 tracker.website\n0.0.0.0 pixel.website\n", key: "ads")
    try await updated.update()
    let file = ApplyDestination.file(
      for: .server(.unbound), hostsFile: "/nonexistent", output: updated.directory.file("u.conf").path,
      data: updated.store.directory)
    let applied = try await Applier(store: updated.store, file: file).apply(
      Applier.Options(server: .unbound, check: false))
    // The server blocks every listed name but pixel.website, and answers the controls.
    let blocked: Set<String> = ["ads.website", "tracker.website"]
    let behaviour: FakeDNSServer.Behaviour = { request in
      guard let question = request.message?.questions.first else { return [] }
      let name = question.name.hasSuffix(".") ? String(question.name.dropLast()) : question.name
      if blocked.contains(name) { return [.bytes(FakeDNSServer.response(to: request, answers: [], code: .nxDomain))] }
      guard question.type == .a, let address = IPv4Address("198.51.100.4") else {
        return [.bytes(FakeDNSServer.response(to: request, answers: [], code: .noError))]
      }
      return [
        .bytes(FakeDNSServer.response(to: request, answers: [Record(name: question.name, data: .a(address))]))
      ]
    }
    try await FakeDNSServer.with(behaviour) { server in
      let address = try ServerAddress(parsing: "127.0.0.1:\(server.port)")
      let verification = try await ApplyVerification.verify(
        applied, target: .server(.unbound), through: address, in: updated.store, sample: 10, timeout: .seconds(20))
      #expect(!verification.passed)
      #expect(verification.notBlocked.map(\.name) == ["pixel.website"], "\(verification.summary)")
      #expect(verification.controls.allSatisfy { $0.outcome == .reachable })
    }
  }
}
