import TestSupport
import Testing

@Suite("--target NAME")
struct TargetArgumentTests {
  @Test("Every name of the table is taken; a misspelt one is refused with the list, never the hosts file")
  func parsing() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let typo = try await cli.run("apply", "--target", "host", "--dry-run")
    #expect(typo.status == 64, "\(typo.standardError)")
    for name in ["hosts", "dnsmasq", "dnsmasq-hosts", "unbound", "bind", "pdns-recursor", "knot-resolver"] {
      #expect(typo.standardError.contains("- \(name)"), "\(name): \(typo.standardError)")
    }
    // Completions offer the same names (fish lists them in the script).
    let fish = try await cli.ok("--generate-completion-script", "fish")
    let line = fish.split(separator: "\n").first { $0.contains("-l 'target'") && $0.contains("sanehosts apply") }
    #expect(
      line?.contains("hosts dnsmasq dnsmasq-hosts unbound bind pdns-recursor knot-resolver") == true, "\(line ?? "")")
  }
}
