import BlockerTest
import Testing

@testable import Dashboard

@Suite("Test request")
struct TestRequestTests {
  @Test("Probe and timeout are checked, with the defaults when absent")
  func checks() throws {
    #expect(try TestRequest().probeKind(default: .system) == .system)
    #expect(try TestRequest(probe: "").probeKind(default: .https) == .https)
    #expect(try TestRequest(probe: "dns").probeKind(default: .system) == .dns)
    #expect(try TestRequest(resolver: "127.0.0.1:5353").probeKind(default: .system) == .dns, "a server means dns")
    #expect(try TestRequest(probe: "system", resolver: "127.0.0.1").probeKind(default: .https) == .system)
    #expect(throws: DashboardError.badRequest("Unknown probe \"ping\": use system, dns or https.")) {
      try TestRequest(probe: "ping").probeKind(default: .system)
    }
    #expect(try TestRequest().timeoutDuration(default: 2) == .seconds(2))
    #expect(try TestRequest(timeout: 0.25).timeoutDuration(default: 2) == .milliseconds(250))
    #expect(throws: DashboardError.self) { try TestRequest(timeout: -1).timeoutDuration(default: 2) }
    #expect(throws: DashboardError.self) { try TestRequest(timeout: 100).timeoutDuration(default: 2) }
  }
}
