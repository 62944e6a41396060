import Apply
import Testing

@Suite("Configuration check results")
struct ConfigCheckTests {
  @Test("Tool, outcome and a summary that says what to do")
  func summary() {
    let passed = ConfigCheck.passed(tool: "dnsmasq")
    #expect(passed.passed && passed.tool == "dnsmasq")
    #expect(passed.summary == "dnsmasq accepted the file.")
    let failed = ConfigCheck.failed(tool: "named-checkzone", output: "z.rpz:7: unknown RR type 'line'")
    #expect(!failed.passed && failed.tool == "named-checkzone")
    #expect(failed.summary.contains("unknown RR type 'line'"))
    #expect(failed.summary.contains("Fix"))
    let unavailable = ConfigCheck.unavailable(tool: "unbound-checkconf")
    #expect(!unavailable.passed && unavailable.tool == "unbound-checkconf")
    #expect(unavailable.summary.contains("not installed"))
    #expect(ConfigCheck.failed(tool: "x", output: "").summary.contains("(no output)"))
  }
}
