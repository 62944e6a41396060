import BlockerTest
import Testing

@testable import UseCases

@Suite("A test's probe and DNS server")
struct TestPlanServerTests {
  @Test("The probe asked for wins; naming a server means dns; else the fallback")
  func probe() {
    #expect(TestPlan.probe(requested: .https, namesServer: true) == .https)
    #expect(TestPlan.probe(requested: nil, namesServer: true) == .dns)
    #expect(TestPlan.probe(requested: nil, namesServer: false) == .system)
    #expect(TestPlan.probe(requested: nil, namesServer: false, fallback: .https) == .https)
  }

  @Test("An address is used as it is, a name is looked up, on port 53; a name that does not resolve is named")
  func dnsServer() throws {
    #expect(try TestPlan.dnsServer(atHost: "192.168.1.2") == "192.168.1.2:53")
    #expect(try TestPlan.dnsServer(atHost: "fd00::2") == "[fd00::2]:53")
    let localhost = try TestPlan.dnsServer(atHost: "localhost")
    #expect(["127.0.0.1:53", "[::1]:53"].contains(localhost), "\(localhost)")
    #expect(throws: TestPlanError.unknownHost("no-such-host.invalid")) {
      try TestPlan.dnsServer(atHost: "no-such-host.invalid")
    }
    #expect(TestPlanError.unknownHost("x").errorDescription == "Cannot find the address of x.")
  }
}
